import { Link } from "react-router";
import { FilterForm, FilterSelect, ListTable, PageHeader, Pagination, screenHref, SearchBox } from "~/components/admin/ui";
import { isCustomerKind, listCustomers, ROLES } from "~/domain/backoffice/customers.server";
import { requirePermission } from "~/http/staff-guard.server";
import { requireTextQuery } from "~/http/form.server";
import { customerRowsFor, staffView } from "~/domain/backoffice/staff-view.server";
import { pageParam, searchParam } from "~/lib/admin-params";
import { formatLagosDate, formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { formatNaira } from "~/lib/money";
import { formatPhone } from "~/lib/phone";
import type { Route } from "./+types/admin.customers";

const PATH = "/admin/customers";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "customers.view");
  requireTextQuery(request);
  const url = new URL(request.url);
  const q = searchParam(url.searchParams.get("q"));
  const raw = url.searchParams.get("role");
  const role = isCustomerKind(raw) ? raw : null;
  const list = await listCustomers(context.db, { q, role, page: pageParam(url.searchParams.get("page")) });
  const t = requestTranslator(request);
  return { ...list, customers: customerRowsFor(list.customers, staffView(staff.role)), q, role, roles: [...ROLES, "guest" as const], title: t("admin.meta.title", { page: t("admin.nav.customers") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

const COLUMNS = ["customer", "signedUp", "orders", "spent", "lastOrder"] as const;
const RIGHT = new Set<string>(["orders", "spent"]);

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const list = loaderData;
  const label = (c: (typeof COLUMNS)[number]) => t(`admin.customers.columns.${c}`);
  return (
    <>
      <PageHeader title={t("admin.customers.title")}>
        <a href={`${PATH}/export`} download className="inline-flex min-h-11 items-center rounded-lg border border-stone-300 px-3 text-sm font-medium text-ink hover:bg-stone-50">
          {t("admin.customers.export")}
        </a>
      </PageHeader>
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox q={list.q} placeholder={t("admin.customers.search")} label={t("admin.customers.searchLabel")} hidden={{ role: list.role }} />
        <FilterForm q={list.q}>
          <FilterSelect
            name="role"
            label={t("admin.customers.columns.role")}
            value={list.role}
            any={t("admin.customers.anyRole")}
            options={list.roles.map((r) => [r, t(`admin.customers.rolesPlural.${r}`)] as const)}
          />
        </FilterForm>
      </div>
      <ListTable
        label={t("admin.customers.title")}
        className="mt-4"
        tableClassName="stack-table w-full text-left text-sm sm:min-w-[44rem]"
        columns={COLUMNS.map((c) => ({ key: c, label: label(c), right: RIGHT.has(c) }))}
        empty={list.customers.length === 0 && (list.q || list.role ? t("admin.customers.noMatch") : t("admin.customers.empty"))}
      >
        {list.customers.map((c) => (
          <tr key={c.guest ? `guest-${c.guestOrder}` : c.id} className="border-t border-stone-100" data-customer-row={c.email} data-guest={c.guest ? "" : undefined}>
            <td className="px-3 py-2 sm:text-left" data-label={label("customer")}>
              <span className="min-w-0">
                <Link
                  to={c.guest ? `${PATH}/guest/${encodeURIComponent(c.guestOrder ?? "")}` : `${PATH}/${c.id}`}
                  className="inline-flex min-h-11 items-center break-all font-medium text-brand-700 hover:underline"
                >
                  {c.name || c.email || t("admin.orders.guest")}
                </Link>
                <span className="block break-all text-xs text-stone-500">{c.email}</span>
                {c.phone && <span className="block text-xs text-stone-500">{formatPhone(c.phone)}</span>}
                {c.guest && (
                  <span className="mt-1 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900" data-role-badge="guest">
                    {t("admin.customers.guest")}
                  </span>
                )}
                {c.role !== "customer" && (
                  <span className="mt-1 inline-block rounded-full bg-stone-200 px-2 py-0.5 text-xs font-medium text-ink" data-role-badge={c.role}>
                    {t(`admin.customers.roles.${c.role}`)}
                  </span>
                )}
              </span>
            </td>
            <td className="px-3 py-2" data-label={c.guest ? t("admin.customers.firstOrder") : label("signedUp")}>
              {formatLagosDate(c.createdAt, locale)}
            </td>
            <td className="px-3 py-2 text-right tabular-nums" data-label={label("orders")} data-orders={c.orders}>
              {c.orders}
            </td>
            <td className="px-3 py-2 text-right tabular-nums" data-label={label("spent")} data-spent={c.spent}>
              {formatNaira(c.spent)}
            </td>
            <td className="px-3 py-2" data-label={label("lastOrder")}>
              {c.lastOrderAt ? formatLagosTime(c.lastOrderAt, locale) : <span className="text-stone-600">{t("admin.customers.never")}</span>}
            </td>
          </tr>
        ))}
      </ListTable>
      <p className="mt-3 text-sm text-stone-600">{t("admin.customers.count", { count: list.total })}</p>
      <Pagination page={list.page} pages={list.pages} href={(page) => screenHref(PATH, { q: list.q, role: list.role, page })} />
    </>
  );
}
