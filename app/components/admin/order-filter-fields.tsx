import type { OrderChannel, OrderStatus, PaymentStatus } from "~/db/schema";
import { ORDER_CHANNELS, ORDER_STATUSES, PAYMENT_STATUSES } from "~/lib/admin";
import { useT } from "~/lib/i18n";
import { FilterSelect } from "./ui";

export interface OrderFilterValues {
  status?: OrderStatus | null;
  channel?: OrderChannel | null;
  payment?: PaymentStatus | null;
}

/**
 * The status, channel and payment-status choices of an orders form: the orders list's filters and the
 * accountant's export use these same fields (and the server reads them with one parser).
 */
export function OrderFilterFields({ values = {}, idPrefix }: { values?: OrderFilterValues; idPrefix: string }) {
  const { t } = useT();
  const fields = [
    { name: "status", label: t("admin.orders.filters.status"), any: t("admin.orders.filters.anyStatus"), options: ORDER_STATUSES.map((s) => [s, t(`admin.orders.status.${s}`)] as const) },
    { name: "channel", label: t("admin.orders.filters.channel"), any: t("admin.orders.filters.anyChannel"), options: ORDER_CHANNELS.map((c) => [c, t(`admin.orders.channel.${c}`)] as const) },
    { name: "payment", label: t("admin.orders.filters.payment"), any: t("admin.orders.filters.anyPayment"), options: PAYMENT_STATUSES.map((p) => [p, t(`admin.orders.paymentStatus.${p}`)] as const) },
  ] as const;
  return (
    <>
      {fields.map((field) => (
        <FilterSelect key={field.name} id={`${idPrefix}-${field.name}`} name={field.name} label={field.label} value={values[field.name]} any={field.any} options={field.options} />
      ))}
    </>
  );
}
