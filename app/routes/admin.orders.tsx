import { Form, Link, useSubmit } from "react-router";
import { OrderExportForm } from "~/components/admin/order-export-form";
import { PageHeader, Pagination, screenHref, SearchBox, StatusBadge, TableScroller } from "~/components/admin/ui";
import { PaymentStatusBadge } from "~/components/payment-status";
import { OrderFilterFields } from "~/components/admin/order-filter-fields";
import { listAdminOrders, parseOrderFilters } from "~/domain/admin-orders.server";
import { can, requirePermission } from "~/domain/permissions.server";
import { orderRowsFor, staffView } from "~/domain/staff-view.server";
import { requireTextQuery } from "~/lib/form.server";
import { pageParam } from "~/lib/admin-params";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/lib/i18n.server";
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
  const submit = useSubmit();
  const params = { q: list.q, status: list.status, channel: list.channel, payment: list.payment };
  return (
    <>
      <PageHeader title={t("admin.orders.title")} />
      {list.exportable && <OrderExportForm values={list} />}
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox q={list.q} placeholder={t("admin.orders.search")} label={t("admin.orders.searchLabel")} hidden={{ status: list.status, channel: list.channel, payment: list.payment }} />
        <Form method="get" className="flex flex-wrap items-end gap-2" onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}>
          {list.q && <input type="hidden" name="q" value={list.q} />}
          <OrderFilterFields values={list} idPrefix="filter" />
          <button type="submit" className="min-h-11 rounded-lg border border-stone-300 bg-white px-4 text-sm">
            {t("admin.orders.filters.apply")}
          </button>
        </Form>
      </div>
      <TableScroller label={t("admin.orders.title")} className="mt-4 rounded-xl border border-stone-200 bg-white shadow-sm">
        <table className="w-full min-w-[44rem] text-left text-sm">
          <thead className="bg-stone-50 text-stone-600">
            <tr>
              {["number", "date", "customer", "channel", "status", "payment", "total"].filter((c) => list.view.prices || c !== "total").map((c) => (
                <th key={c} scope="col" className={`px-3 py-3 font-medium ${c === "total" ? "text-right" : ""}`}>
                  {t(`admin.orders.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.orders.length === 0 && (
              <tr>
                <td colSpan={list.view.prices ? 7 : 6} className="px-3 py-8 text-center text-stone-600">
                  {list.q || list.status || list.channel || list.payment ? t("admin.orders.noMatch") : t("admin.orders.empty")}
                </td>
              </tr>
            )}
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
          </tbody>
        </table>
      </TableScroller>
      <p className="mt-3 text-sm text-stone-600">{t("admin.orders.count", { count: list.total })}</p>
      <Pagination page={list.page} pages={list.pages} href={(page) => screenHref(PATH, { ...params, page })} />
    </>
  );
}
