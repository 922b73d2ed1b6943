import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { OrderStatusBadge } from "~/components/order-status";
import { PaymentStatusBadge } from "~/components/payment-status";
import type { OrderDetail } from "~/domain/orders/order-history.server";
import { deliveryAmount } from "~/lib/order-text";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

/** What the order pages' loaders write (their texts stay out of the pages' script). */
export interface OrderPageData {
  order: OrderDetail;
  paymentLabel: string;
  howToPay: string[];
  /** the order's phone, formatted */
  phone: string | null;
  payOnline: { heading: string; state: string; payNow: string };
  /** the discount code's line, when the order had one (docs/decisions/219) */
  discountLabel: string | null;
  /** what store credit and a gift card paid, and what is left (docs/decisions/224), written by the loader */
  creditLines?: { label: string; amount: string }[];
}

/**
 * One order as its buyer sees it: items, totals, delivery, payment, history, 'Pay now' and how to pay.
 * The account's order page and a guest's private link (docs/decisions/217) show it, each with its own
 * links (`base`: the order's address, under which /invoice and /pay are); `back` and `children` are
 * what the page adds.
 */
export function OrderDetails({ data: loaderData, base, back, children }: { data: OrderPageData; base: string; back?: ReactNode; children?: ReactNode }) {
  const { t, locale } = useT();
  const { order, howToPay } = loaderData;
  // A WhatsApp hand-off the shop has not confirmed: the shopper may never have sent the message.
  const awaitingMessage = order.channel === "whatsapp" && order.status === "pending";
  return (
    <article className="mx-auto max-w-3xl">
      {back}
      <header className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-serif text-2xl font-semibold">{t("order.title", { number: order.number })}</h1>
          <p className="text-sm text-stone-600">
            {t("order.placed", { date: formatLagosTime(order.createdAt, locale) })} · {t(`order.channel.${order.channel}`)}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {awaitingMessage ? <OrderStatusBadge status={order.status} label={t("account.orders.awaitingMessage")} /> : <OrderStatusBadge status={order.status} />}
          <PaymentStatusBadge status={order.paymentStatus} />
          <Link to={`${base}/invoice`} className="inline-flex min-h-11 items-center rounded-full border border-stone-300 px-4 text-sm hover:bg-stone-100">
            {t("order.invoice")}
          </Link>
        </div>
      </header>

      {awaitingMessage && (
        <section aria-labelledby="whatsapp-heading" className="mt-6 rounded-xl bg-emerald-50 p-4 text-sm">
          <h2 id="whatsapp-heading" className="font-semibold">{t("account.orders.awaitingMessage")}</h2>
          <p className="mt-1">{t("order.whatsappNotSent")}</p>
          <a href={`/cart/whatsapp/${order.number}`} className="mt-3 inline-flex min-h-11 items-center rounded-full bg-[#1f7a4d] px-5 font-medium text-white">
            {t("account.orders.sendAgain")}
          </a>
        </section>
      )}

      <section aria-labelledby="items-heading" className="mt-6 rounded-xl border border-stone-200 bg-white sm:overflow-x-auto">
        <h2 id="items-heading" className="sr-only">
          {t("order.items")}
        </h2>
        <table className="stack-table w-full text-left text-sm">
          <thead className="bg-stone-50 text-stone-600">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">{t("order.product")}</th>
              <th scope="col" className="px-4 py-3 text-right font-medium">{t("order.quantity")}</th>
              <th scope="col" className="px-4 py-3 text-right font-medium">{t("order.price")}</th>
              <th scope="col" className="px-4 py-3 text-right font-medium">{t("order.lineTotal")}</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item, i) => (
              <tr key={i} className="border-t border-stone-100">
                <td className="px-4 py-3 font-medium" data-label={t("order.product")}>
                  {item.productId ? <Link to={`/shop/${item.productId}`} className="underline">{item.name}</Link> : item.name}
                </td>
                <td className="px-4 py-3 text-right" data-label={t("order.quantity")}>{item.quantity}</td>
                <td className="px-4 py-3 text-right" data-label={t("order.price")}>{formatNaira(item.unitPrice)}</td>
                <td className="px-4 py-3 text-right" data-label={t("order.lineTotal")}>{formatNaira(item.lineTotal)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-stone-200">
            <tr>
              <th scope="row" colSpan={3} className="px-4 py-2 text-right font-medium">{t("order.subtotal")}</th>
              <td className="px-4 py-2 text-right">{formatNaira(order.subtotal)}</td>
            </tr>
            {loaderData.discountLabel && (
              <tr>
                <th scope="row" colSpan={3} className="px-4 py-2 text-right font-medium">{loaderData.discountLabel}</th>
                <td className="px-4 py-2 text-right" data-testid="order-discount">−{formatNaira(order.discount)}</td>
              </tr>
            )}
            <tr>
              <th scope="row" colSpan={3} className="px-4 py-2 text-right font-medium">{t("order.delivery")}</th>
              <td className="px-4 py-2 text-right" data-testid="order-delivery">{deliveryAmount(t, order)}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={3} className="px-4 py-2 text-right font-semibold">{t("order.total")}</th>
              <td className="px-4 py-2 text-right font-semibold" data-testid="order-total">{formatNaira(order.total)}</td>
            </tr>
            {loaderData.creditLines?.map((line) => (
              <tr key={line.label} data-testid="order-credit-line">
                <th scope="row" colSpan={3} className="px-4 py-2 text-right font-medium">{line.label}</th>
                <td className="px-4 py-2 text-right">{line.amount}</td>
              </tr>
            ))}
          </tfoot>
        </table>
      </section>

      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        <section aria-labelledby="ship-heading">
          <h2 id="ship-heading" className="font-semibold">{t(order.deliveryMethod === "pickup" ? "order.delivery" : "order.shipTo")}</h2>
          <p className="mt-1 text-stone-700">
            {order.deliveryMethod === "pickup" ? t("order.pickupAt", { address: order.deliveryZone ?? "" }) : (order.address ?? t("account.orders.noAddress"))}
          </p>
          {order.deliveryMethod === "delivery" && order.deliveryZone && (
            <p className="mt-1 text-sm text-stone-600">{t("order.zone", { zone: order.deliveryZone, estimate: order.deliveryEstimate ?? "" })}</p>
          )}
          {order.deliveryMethod === "pickup" && order.deliveryEstimate && <p className="mt-1 text-sm text-stone-600">{order.deliveryEstimate}</p>}
          {order.phone && (
            <p className="mt-1 text-sm text-stone-700">
              {t("order.phone")}: {loaderData.phone}
            </p>
          )}
          <h2 className="mt-4 font-semibold">{t("order.payment")}</h2>
          <p className="mt-1 text-stone-700" data-testid="order-payment">
            {loaderData.paymentLabel}
            {order.paidAt && order.paymentStatus === "paid" && <> · {t("order.paidOn", { date: formatLagosTime(order.paidAt, locale) })}</>}
            {order.refundedAt && order.paymentStatus === "refunded" && <> · {t("order.refundedOn", { date: formatLagosTime(order.refundedAt, locale) })}</>}
          </p>
        </section>
        <section aria-labelledby="history-heading">
          <h2 id="history-heading" className="font-semibold">{t("order.history")}</h2>
          <ol className="mt-2 space-y-2">
            {order.history.map((event, i) => (
              <li key={i} className="flex items-center gap-3 text-sm">
                <OrderStatusBadge status={event.status} />
                <span className="text-stone-600">{formatLagosTime(event.at, locale)}</span>
              </li>
            ))}
          </ol>
        </section>
      </div>

      {order.paymentMethod === "paystack" && order.paymentStatus === "unpaid" && order.status !== "cancelled" && (
        <section aria-labelledby="pay-online-heading" className="mt-6 rounded-xl bg-brand-50 p-4 text-sm">
          <h2 id="pay-online-heading" className="font-semibold">{loaderData.payOnline.heading}</h2>
          <p className="mt-1" role={order.paymentAttempted ? "status" : undefined}>{loaderData.payOnline.state}</p>
          {/* A document navigation, so the next page can move on to Paystack without JavaScript. */}
          <Form method="post" action={`${base}/pay`} reloadDocument className="mt-3">
            <button type="submit" className="rounded-full bg-ink px-5 py-2.5 font-medium text-white">
              {loaderData.payOnline.payNow}
            </button>
          </Form>
        </section>
      )}
      {order.paymentStatus === "unpaid" && order.status !== "cancelled" && !awaitingMessage && howToPay.length > 0 && (
        <section aria-labelledby="pay-heading" className="mt-6 rounded-xl bg-brand-50 p-4 text-sm">
          <h2 id="pay-heading" className="font-semibold">{t("order.howToPay")}</h2>
          {howToPay.map((line) => (
            <p key={line} className="mt-1">
              {line}
            </p>
          ))}
        </section>
      )}
      {children}
    </article>
  );
}
