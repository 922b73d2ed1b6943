import { Form } from "react-router";
import type { DeliveryMethod, PaymentMethod, PaymentStatus } from "~/db/schema";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { PaymentStatusBadge } from "../payment-status";
import { inputClass, primaryButton, secondaryButton } from "./ui";

/** The admin order page's delivery and payment box, with 'Mark as paid' and 'Refund' when they apply. */
export function OrderPaymentPanel({
  order,
  canMarkPaid,
  canRefund,
  canSetFee,
  shipping,
  busy,
}: {
  order: {
    deliveryMethod: DeliveryMethod | null;
    deliveryZone: string | null;
    deliveryEstimate: string | null;
    paymentStatus: PaymentStatus;
    paymentMethod: PaymentMethod | null;
    paymentReference: string | null;
    paymentChannel: string | null;
    paidAt: string | null;
    refundedAt: string | null;
  };
  canMarkPaid: boolean;
  canRefund: boolean;
  /** a WhatsApp order: the fee agreed in the chat */
  canSetFee: boolean;
  /** the order's delivery fee now, kobo */
  shipping: number;
  busy: boolean;
}) {
  const { t, locale } = useT();
  return (
    <section className="mt-4 rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm" aria-labelledby="payment-heading">
      <h2 id="payment-heading" className="font-semibold text-ink">
        {t("admin.orders.paymentHeading")}
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-stone-500">{t("admin.orders.paymentFields.status")}</dt>
        <dd>
          <PaymentStatusBadge status={order.paymentStatus} />
        </dd>
        <dt className="text-stone-500">{t("admin.orders.paymentFields.method")}</dt>
        <dd data-testid="payment-method">{t(`admin.orders.paymentMethod.${order.paymentMethod ?? "none"}`)}</dd>
        {order.paymentReference && (
          <>
            <dt className="text-stone-500">{t("admin.orders.paymentFields.reference")}</dt>
            <dd className="break-all font-mono text-xs">{order.paymentReference}</dd>
          </>
        )}
        {order.paymentChannel && (
          <>
            <dt className="text-stone-500">{t("admin.orders.paymentFields.channel")}</dt>
            <dd>{order.paymentChannel}</dd>
          </>
        )}
        {order.paidAt && (
          <>
            <dt className="text-stone-500">{t("admin.orders.paymentFields.paidAt")}</dt>
            <dd>{formatLagosTime(order.paidAt, locale)}</dd>
          </>
        )}
        {order.refundedAt && (
          <>
            <dt className="text-stone-500">{t("admin.orders.paymentFields.refundedAt")}</dt>
            <dd>{formatLagosTime(order.refundedAt, locale)}</dd>
          </>
        )}
        <dt className="text-stone-500">{t("admin.orders.deliveryFields.method")}</dt>
        <dd>
          {order.deliveryMethod === "pickup"
            ? `${t("admin.orders.deliveryFields.pickup")}: ${order.deliveryZone ?? ""}`
            : order.deliveryMethod === "delivery"
              ? `${order.deliveryZone ?? ""}${order.deliveryEstimate ? ` (${order.deliveryEstimate})` : ""}`
              : t("admin.orders.deliveryInChat")}
        </dd>
      </dl>
      {canSetFee && (
        <Form method="post" className="mt-3 flex flex-wrap items-end gap-3" preventScrollReset>
          <label className="block">
            <span className="block font-medium text-stone-800">{t("admin.orders.deliveryFee")}</span>
            <input name="fee" inputMode="decimal" defaultValue={shipping ? String(shipping / 100) : ""} className={`${inputClass} w-40`} required />
          </label>
          <button type="submit" name="intent" value="deliveryFee" className={secondaryButton} disabled={busy}>
            {t("admin.orders.setDeliveryFee")}
          </button>
          <span className="text-stone-600">{t("admin.orders.deliveryFeeHint")}</span>
        </Form>
      )}
      {(canMarkPaid || canRefund) && (
        <Form method="post" className="mt-3 flex flex-wrap items-center gap-3" preventScrollReset>
          {canMarkPaid && (
            <>
              <button type="submit" name="intent" value="markPaid" className={primaryButton} disabled={busy}>
                {t("admin.orders.markPaid")}
              </button>
              <span className="text-stone-600">{t("admin.orders.markPaidHint")}</span>
            </>
          )}
          {canRefund && (
            <>
              <button type="submit" name="intent" value="refund" className={secondaryButton} disabled={busy}>
                {t("admin.orders.refund")}
              </button>
              <span className="text-stone-600">{t("admin.orders.refundHint")}</span>
            </>
          )}
        </Form>
      )}
    </section>
  );
}
