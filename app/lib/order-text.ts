import type { DeliveryMethod, PaymentMethod, PaymentStatus } from "~/db/schema";
import type { Translate } from "./i18n";
import { formatNaira } from "./money";

/** Texts about an order's delivery and payment, shared by its page and its e-mails. */

interface OrderFacts {
  number: string;
  shipping: number;
  deliveryMethod: DeliveryMethod | null;
  paymentMethod: PaymentMethod | null;
}

type Bank = { name: string; accountName: string; accountNumber: string } | null;

/** How to pay this order, as lines of text: the chosen way, or every way for orders arranged in a chat. */
export function paymentInstructions(
  t: Translate,
  order: Pick<OrderFacts, "number" | "paymentMethod" | "deliveryMethod">,
  bank: Bank,
): string[] {
  const transfer = bank
    ? t("order.pay.bankTransfer", { bank: bank.name, accountName: bank.accountName, accountNumber: bank.accountNumber, number: order.number })
    : null;
  const onDelivery = t(order.deliveryMethod === "pickup" ? "order.pay.atPickup" : "order.pay.onDelivery");
  switch (order.paymentMethod) {
    case "bank_transfer":
      return transfer ? [transfer] : [];
    case "on_delivery":
      return [onDelivery];
    case "paystack":
      return [];
    default:
      return [onDelivery, ...(transfer ? [transfer] : [])];
  }
}

/**
 * How the order is paid, as it really is: "To be paid online with Paystack" until Paystack's payment
 * is verified, "Paid online with Paystack" after, "…, refunded" once refunded; the same for every way.
 */
export function paymentLabel(
  t: Translate,
  order: { paymentMethod: PaymentMethod | null; paymentStatus: PaymentStatus; deliveryMethod: DeliveryMethod | null; total?: number; storeCredit?: number; giftCard?: number },
): string {
  // Paid wholly by store credit and a gift card (docs/decisions/224): the chosen way was never used.
  const byCredit = (order.storeCredit ?? 0) + (order.giftCard ?? 0);
  if (order.paymentStatus !== "unpaid" && byCredit > 0 && order.total !== undefined && byCredit >= order.total) {
    return t(order.paymentStatus === "paid" ? "credit.order.paidByCredit" : "credit.order.paidByCreditRefunded");
  }
  const way = order.paymentMethod === "on_delivery" && order.deliveryMethod === "pickup" ? "at_pickup" : (order.paymentMethod ?? "none");
  return t(`order.paymentState.${way}.${order.paymentStatus}`);
}

/** The delivery line of an order: the fee, FREE only when it really is zero, or left to the chat. */
export function deliveryAmount(t: Translate, order: Pick<OrderFacts, "shipping" | "deliveryMethod">): string {
  if (order.deliveryMethod === null && order.shipping === 0) return t("order.deliveryInChat");
  return order.shipping === 0 ? t("order.free") : formatNaira(order.shipping);
}
