import { Link } from "react-router";
import { OrderStatusBadge } from "~/components/order-status";
import { PaymentStatusBadge } from "~/components/payment-status";
import type { OrderSummary } from "~/domain/orders/order-history.server";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

// The loader writes the order's link label with this in the number's place, for each row to fill in.
export const NUMBER_SLOT = "\u0000number\u0000";

/** The table's column headings, which the loader writes (out of the page's scripts). */
export const ORDER_COLUMNS = ["number", "date", "address", "total", "status", "payment", "details"] as const;
export type OrderColumnTexts = Record<(typeof ORDER_COLUMNS)[number], string>;

/** The profile's orders tab: the shopper's orders, newest first, each with its status and a link to it. */
export default function Orders({ orders, texts }: { orders: (OrderSummary & { placedAt: string })[]; texts: { noOrders: string; viewDetails: string; viewDetailsOf: string; columns: OrderColumnTexts; pickup: string } }) {
  const { t } = useT();
  if (orders.length === 0) return <p className="text-stone-600">{texts.noOrders}</p>;
  return (
    <div className="rounded-xl border border-stone-200 bg-white sm:overflow-x-auto">
      <table className="stack-table w-full text-left text-sm sm:min-w-[40rem]">
        <thead className="bg-stone-50 text-stone-600">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">{texts.columns.number}</th>
            <th scope="col" className="px-4 py-3 font-medium">{texts.columns.date}</th>
            <th scope="col" className="px-4 py-3 font-medium">{texts.columns.address}</th>
            <th scope="col" className="px-4 py-3 text-right font-medium">{texts.columns.total}</th>
            <th scope="col" className="px-4 py-3 font-medium">{texts.columns.status}</th>
            <th scope="col" className="px-4 py-3 font-medium">{texts.columns.payment}</th>
            <th scope="col" className="px-4 py-3 font-medium">{texts.columns.details}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => {
            const awaitingMessage = order.channel === "whatsapp" && order.status === "pending";
            return (
              <tr key={order.number} className="border-t border-stone-100 first:border-t-0 sm:first:border-t">
                <td className="px-4 py-3 font-medium" data-label={texts.columns.number}>{order.number}</td>
                <td className="px-4 py-3" data-label={texts.columns.date}>{order.placedAt}</td>
                <td className="px-4 py-3" data-label={texts.columns.address}>{order.pickup ? texts.pickup : (order.address ?? t("account.orders.noAddress"))}</td>
                <td className="px-4 py-3 text-right" data-label={texts.columns.total}>{formatNaira(order.total)}</td>
                <td className="px-4 py-3" data-label={texts.columns.status}>
                  {awaitingMessage ? (
                    <span className="inline-flex flex-col items-end gap-1 sm:items-start">
                      <OrderStatusBadge status={order.status} label={t("account.orders.awaitingMessage")} />
                      <a href={`/cart/whatsapp/${order.number}`} className="text-emerald-800 underline">
                        {t("account.orders.sendAgain")}
                        <span className="sr-only"> ({order.number})</span>
                      </a>
                    </span>
                  ) : (
                    <OrderStatusBadge status={order.status} />
                  )}
                </td>
                <td className="px-4 py-3" data-label={texts.columns.payment}><PaymentStatusBadge status={order.paymentStatus} /></td>
                <td className="px-4 py-3" data-label={texts.columns.details}>
                  <Link to={`/orders/${order.number}`} className="inline-flex min-h-11 items-center gap-1 underline" aria-label={texts.viewDetailsOf.replace(NUMBER_SLOT, order.number)}>
                    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2"><path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" /><circle cx="12" cy="12" r="3" /></svg>
                    {texts.viewDetails}
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
