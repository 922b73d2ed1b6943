import type { OrderStatus } from "~/db/schema";
import { useT } from "~/lib/i18n";

// Each status its own colour; pending is yellow, as shoppers know it from the spec.
const STATUS_CLASSES: Record<OrderStatus, string> = {
  pending: "bg-yellow-100 text-yellow-900 ring-yellow-300",
  confirmed: "bg-sky-100 text-sky-900 ring-sky-300",
  shipped: "bg-indigo-100 text-indigo-900 ring-indigo-300",
  delivered: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  cancelled: "bg-rose-100 text-rose-900 ring-rose-300",
};

/** An order's status in its colour; `label` replaces the shoppers' wording (the admin screens capitalise it). */
export function OrderStatusBadge({ status, label }: { status: OrderStatus; label?: string }) {
  const { t } = useT();
  return (
    <span data-status={status} className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STATUS_CLASSES[status]}`}>
      {label ?? t(`account.orderStatus.${status}`)}
    </span>
  );
}
