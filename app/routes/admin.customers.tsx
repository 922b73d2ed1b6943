import { Form, Link, useSubmit } from "react-router";
import { inputClass, PageHeader, Pagination, screenHref, SearchBox, TableScroller } from "~/components/admin/ui";
import { isRole, listCustomers, ROLES } from "~/domain/customers.server";
import { requirePermission } from "~/domain/permissions.server";
import { customerRowsFor, staffView } from "~/domain/staff-view.server";
import { requireTextQuery } from "~/lib/form.server";
import { pageParam, searchParam } from "~/lib/admin-params";
import { formatLagosDate, formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/lib/i18n.server";
import { formatNaira } from "~/lib/money";
import type { Route } from "./+types/admin.customers";

const PATH = "/admin/customers";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "customers.view");
  requireTextQuery(request);
  const url = new URL(request.url);
  const q = searchParam(url.searchParams.get("q"));
  const raw = url.searchParams.get("role");
  const role = isRole(raw) ? raw : null;
  const list = await listCustomers(context.db, { q, role, page: pageParam(url.searchParams.get("page")) });
  const t = requestTranslator(request);
  return { ...list, customers: customerRowsFor(list.customers, staffView(staff.role)), q, role, roles: ROLES, title: t("admin.meta.title", { page: t("admin.nav.customers") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

const COLUMNS = ["customer", "signedUp", "orders", "spent", "lastOrder"] as const;
const RIGHT = new Set<string>(["orders", "spent"]);

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const list = loaderData;
  const submit = useSubmit();
  const label = (c: (typeof COLUMNS)[number]) => t(`admin.customers.columns.${c}`);
  return (
    <>
      <PageHeader title={t("admin.customers.title")} />
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox q={list.q} placeholder={t("admin.customers.search")} label={t("admin.customers.searchLabel")} hidden={{ role: list.role }} />
        <Form method="get" className="flex flex-wrap items-end gap-2" onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}>
          {list.q && <input type="hidden" name="q" value={list.q} />}
          <label className="text-sm">
            <span className="block text-stone-600">{t("admin.customers.columns.role")}</span>
            <select name="role" defaultValue={list.role ?? ""} className={inputClass}>
              <option value="">{t("admin.customers.anyRole")}</option>
              {list.roles.map((r) => (
                <option key={r} value={r}>
                  {t(`admin.customers.rolesPlural.${r}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="min-h-11 rounded-lg border border-stone-300 bg-white px-4 text-sm">
            {t("admin.orders.filters.apply")}
          </button>
        </Form>
      </div>
      <TableScroller label={t("admin.customers.title")} className="mt-4 rounded-xl border border-stone-200 bg-white shadow-sm">
        <table className="stack-table w-full text-left text-sm sm:min-w-[44rem]">
          <thead className="bg-stone-50 text-stone-600">
            <tr>
              {COLUMNS.map((c) => (
                <th key={c} scope="col" className={`px-3 py-3 font-medium ${RIGHT.has(c) ? "text-right" : ""}`}>
                  {label(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.customers.length === 0 && (
              <tr>
                <td colSpan={COLUMNS.length} className="px-3 py-8 text-center text-stone-600">
                  {list.q || list.role ? t("admin.customers.noMatch") : t("admin.customers.empty")}
                </td>
              </tr>
            )}
            {list.customers.map((c) => (
              <tr key={c.id} className="border-t border-stone-100" data-customer-row={c.email}>
                <td className="px-3 py-2 sm:text-left" data-label={label("customer")}>
                  <span className="min-w-0">
                    <Link to={`${PATH}/${c.id}`} className="inline-flex min-h-11 items-center break-all font-medium text-brand-700 hover:underline">
                      {c.name || c.email}
                    </Link>
                    <span className="block break-all text-xs text-stone-500">{c.email}</span>
                    {c.role !== "customer" && (
                      <span className="mt-1 inline-block rounded-full bg-stone-200 px-2 py-0.5 text-xs font-medium text-ink" data-role-badge={c.role}>
                        {t(`admin.customers.roles.${c.role}`)}
                      </span>
                    )}
                  </span>
                </td>
                <td className="px-3 py-2" data-label={label("signedUp")}>
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
          </tbody>
        </table>
      </TableScroller>
      <p className="mt-3 text-sm text-stone-600">{t("admin.customers.count", { count: list.total })}</p>
      <Pagination page={list.page} pages={list.pages} href={(page) => screenHref(PATH, { q: list.q, role: list.role, page })} />
    </>
  );
}
