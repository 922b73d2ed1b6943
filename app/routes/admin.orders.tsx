import { Link } from "react-router";
import { OrderExportForm } from "~/components/admin/order-export-form";
import { FilterForm, ListTable, PageHeader, Pagination, screenHref, SearchBox, StatusBadge } from "~/components/admin/ui";
import { PaymentStatusBadge } from "~/components/payment-status";
import { OrderFilterFields } from "~/components/admin/order-filter-fields";
import { listAdminOrders, parseOrderFilters } from "~/domain/orders/admin-orders.server";
import { can } from "~/domain/backoffice/permissions.server";
import { requirePermission } from "~/http/staff-guard.server";
import { orderRowsFor, staffView } from "~/domain/backoffice/staff-view.server";
import { requireTextQuery } from "~/http/form.server";
import { pageParam } from "~/lib/admin-params";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { formatNaira } from "~/lib/money";
import { formatLagosTime } from "~/lib/dates";
import type { Route } from "./+types/admin.orders";

const PATH = "/admin/orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "orders.view");
  const view = staffView(staff.role);
  requireTextQuery(request);
  const url = new URL(request.url);
  // A value that is not one of ours is ignored here (the export refuses it).
  const { status = null, channel = null, payment = null, q = "" } = parseOrderFilters(url.searchParams).filters;
  const filters = { status, channel, payment, q };
  const list = await listAdminOrders(context.db, { ...filters, page: pageParam(url.searchParams.get("page")) });
  const t = requestTranslator(request);
  return { ...list, orders: orderRowsFor(list.orders, view), ...filters, view, exportable: can(staff.role, "orders.export"), title: t("admin.meta.title", { page: t("admin.nav.orders") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const list = loaderData;
  const params = { q: list.q, status: list.status, channel: list.channel, payment: list.payment };
  return (
    <>
      <PageHeader title={t("admin.orders.title")} />
      {list.exportable && <OrderExportForm values={list} />}
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox q={list.q} placeholder={t("admin.orders.search")} label={t("admin.orders.searchLabel")} hidden={{ status: list.status, channel: list.channel, payment: list.payment }} />
        <FilterForm q={list.q}>
          <OrderFilterFields values={list} idPrefix="filter" />
        </FilterForm>
      </div>
      <ListTable
        label={t("admin.orders.title")}
        className="mt-4"
        tableClassName="w-full min-w-[44rem] text-left text-sm"
        columns={["number", "date", "customer", "channel", "status", "payment", "total"]
          .filter((c) => list.view.prices || c !== "total")
          .map((c) => ({ key: c, label: t(`admin.orders.columns.${c}`), right: c === "total" }))}
        empty={list.orders.length === 0 && (list.q || list.status || list.channel || list.payment ? t("admin.orders.noMatch") : t("admin.orders.empty"))}
      >
        {list.orders.map((o) => (
          <tr key={o.id} className="border-t border-stone-100" data-order-row={o.number}>
            <td className="px-3 py-2">
              <Link to={`${PATH}/${o.number}`} className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline">
                {o.number}
              </Link>
            </td>
            <td className="px-3 py-2">{formatLagosTime(o.createdAt, locale)}</td>
            <td className="px-3 py-2">
              {o.customerName !== null ? (
                <>
                  <span className="block">{o.customerName}</span>
                  {o.customerEmail && <span className="block text-xs text-stone-500">{o.customerEmail}</span>}
                  {o.guest && <span className="block text-xs font-medium text-amber-800" data-testid="guest-order">{t("admin.orders.guest")}</span>}
                </>
              ) : (
                <span className="text-stone-500">{t("admin.orders.guest")}</span>
              )}
            </td>
            <td className="px-3 py-2">{t(`admin.orders.channel.${o.channel}`)}</td>
            <td className="px-3 py-2">
              <StatusBadge status={o.status} />
            </td>
            <td className="px-3 py-2">
              <PaymentStatusBadge status={o.paymentStatus} />
            </td>
            {list.view.prices && <td className="px-3 py-2 text-right tabular-nums">{formatNaira(o.total)}</td>}
          </tr>
        ))}
      </ListTable>
      <p className="mt-3 text-sm text-stone-600">{t("admin.orders.count", { count: list.total })}</p>
      <Pagination page={list.page} pages={list.pages} href={(page) => screenHref(PATH, { ...params, page })} />
    </>
  );
}
