import type { PaymentStatus } from "~/db/schema";
import { useT } from "~/lib/i18n";

const CLASSES: Record<PaymentStatus, string> = {
  unpaid: "bg-stone-100 text-stone-800 ring-stone-300",
  paid: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  refunded: "bg-violet-100 text-violet-900 ring-violet-300",
};

/** Whether an order is paid, next to (and apart from) its fulfilment status. */
export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useT();
  return (
    <span data-payment-status={status} className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${CLASSES[status]}`}>
      {t(`account.paymentStatus.${status}`)}
    </span>
  );
}
