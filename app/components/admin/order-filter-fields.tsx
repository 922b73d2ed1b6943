import type { OrderChannel, OrderStatus, PaymentStatus } from "~/db/schema";
import { ORDER_CHANNELS, ORDER_STATUSES, PAYMENT_STATUSES } from "~/lib/admin";
import { useT } from "~/lib/i18n";
import { inputClass } from "./ui";

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
    { name: "status", label: t("admin.orders.filters.status"), any: t("admin.orders.filters.anyStatus"), options: ORDER_STATUSES.map((s) => [s, t(`admin.orders.status.${s}`)]) },
    { name: "channel", label: t("admin.orders.filters.channel"), any: t("admin.orders.filters.anyChannel"), options: ORDER_CHANNELS.map((c) => [c, t(`admin.orders.channel.${c}`)]) },
    { name: "payment", label: t("admin.orders.filters.payment"), any: t("admin.orders.filters.anyPayment"), options: PAYMENT_STATUSES.map((p) => [p, t(`admin.orders.paymentStatus.${p}`)]) },
  ] as const;
  return (
    <>
      {fields.map((field) => (
        <label key={field.name} className="text-sm" htmlFor={`${idPrefix}-${field.name}`}>
          <span className="block text-stone-600">{field.label}</span>
          <select id={`${idPrefix}-${field.name}`} name={field.name} defaultValue={values[field.name] ?? ""} className={inputClass}>
            <option value="">{field.any}</option>
            {field.options.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
      ))}
    </>
  );
}
