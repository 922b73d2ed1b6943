import type { Transaction } from "kysely";
import type { Database } from "~/db/schema";
import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { formatPhone, whatsAppHref } from "~/lib/phone";
import { creditLines } from "../credit/credit-lines.server";
import { queueMail } from "../operations/mail-outbox.server";
import type { PlacedOrder } from "./orders.server";
import { vatContained } from "./vat.server";

/**
 * The owner's e-mail about a new order (docs/decisions/112), queued by insertOrder in the transaction
 * that records the order. The translator comes with the alert (order-alerts.server.ts makes it), so
 * this module, which the order code imports, loads no translation files itself.
 */

export interface OwnerAlert {
  /** OWNER_EMAIL, one or more addresses */
  to: string[];
  publicUrl: string;
  /** the shop's default language: the owner's own is not known when a shopper orders */
  t: Translate;
  /** VAT_INCLUDED: the total's VAT is shown under it (docs/decisions/223) */
  vatIncluded?: boolean;
  /**
   * queues the alert to the owner's WhatsApp too (OWNER_WHATSAPP, docs/decisions/220); absent when off.
   * `amount` is the template's total, written here: the total with what a code took off and what
   * credit and a gift card paid (docs/decisions/223, 224).
   */
  whatsapp?: (trx: Transaction<Database>, order: Pick<PlacedOrder, "id" | "number" | "total"> & { amount: string }) => Promise<unknown>;
}

/** The e-mail about a new order, in the shop's language (the owner reads the admin area's). */
export function newOrderEmail(
  alert: OwnerAlert,
  order: Pick<PlacedOrder, "number" | "channel" | "items" | "subtotal" | "shipping" | "total" | "paymentMethod" | "paymentStatus"> & OrderMoney & {
    phone?: string | null;
  },
  customer: { name: string; email: string } | null,
  address: { street: string; city: string; state: string; country: string } | null,
): { subject: string; text: string } {
  const t = alert.t;
  const k = "admin.newOrderMail.";
  const channel = t(`admin.orders.channel.${order.channel}`);
  const lines = [
    t(k + "intro", { number: order.number, channel }),
    "",
    ...order.items.map((item) => t(k + "line", { quantity: item.quantity, name: item.name, price: formatNaira(item.unitPrice * item.quantity) })),
    "",
    t(k + "subtotal", { amount: formatNaira(order.subtotal) }),
    ...(order.discount ? [t("promotions.order.mail", { code: order.promotionCode ?? "", amount: formatNaira(order.discount) })] : []),
    t(k + "shipping", { amount: order.shipping === 0 ? t("admin.orders.free") : formatNaira(order.shipping) }),
    t(k + "total", { amount: formatNaira(order.total) }),
    ...(alert.vatIncluded ? [t("invoice.vatLine", { amount: formatNaira(vatContained(order.total)) })] : []),
    // What store credit and a gift card paid, and what is left to pay (docs/decisions/224).
    ...creditLines(t, paidBy(order)).map((line) => `${line.label}: ${line.amount}`),
    t(k + "payment", { method: t(`admin.orders.paymentMethod.${order.paymentMethod ?? "none"}`), status: t(`admin.orders.paymentStatus.${order.paymentStatus}`).toLowerCase() }),
    "",
    customer ? t(k + "customer", { name: customer.name, email: customer.email }) : t(k + "guest"),
    order.phone ? t(k + "phone", { phone: formatPhone(order.phone), whatsapp: whatsAppHref(order.phone) }) : t(k + "noPhone"),
    address ? t(k + "address", { address: [address.street, address.city, address.state, address.country].filter(Boolean).join(", ") }) : t(k + "noAddress"),
    "",
    t(k + "link", { url: `${alert.publicUrl}/admin/orders/${encodeURIComponent(order.number)}` }),
  ];
  return { subject: t(k + "subject", { number: order.number, total: formatNaira(order.total), channel }), text: lines.join("\n") };
}

/** What a code took off and what credit and a gift card paid; absent on orders that had none. */
type OrderMoney = Partial<Pick<PlacedOrder, "discount" | "promotionCode" | "storeCredit" | "giftCard" | "giftCardCode">>;

function paidBy(order: Pick<PlacedOrder, "total"> & OrderMoney) {
  return { total: order.total, storeCredit: order.storeCredit ?? 0, giftCard: order.giftCard ?? 0, giftCardCode: order.giftCardCode ?? null };
}

/**
 * The total as the owner's WhatsApp alert says it, on one line (a template's parameter has none):
 * "₦45,000.00 (discount AMAKA10 −₦5,000.00; gift card −₦10,000.00; to pay ₦35,000.00)". A gift
 * card's code is left out: whoever holds it may spend it, and the message passes through Meta.
 */
export function whatsAppAlertAmount(t: Translate, order: Pick<PlacedOrder, "total"> & OrderMoney): string {
  const k = "admin.newOrderMail.whatsapp.";
  const paid = paidBy(order);
  const parts = [
    ...(order.discount ? [t(k + "discount", { code: order.promotionCode ?? "", amount: formatNaira(order.discount) })] : []),
    ...(paid.giftCard ? [t(k + "giftCard", { amount: formatNaira(paid.giftCard) })] : []),
    ...(paid.storeCredit ? [t(k + "storeCredit", { amount: formatNaira(paid.storeCredit) })] : []),
    ...(paid.giftCard || paid.storeCredit ? [t(k + "due", { amount: formatNaira(order.total - paid.giftCard - paid.storeCredit) })] : []),
  ];
  return parts.length ? `${formatNaira(order.total)} (${parts.join("; ")})` : formatNaira(order.total);
}

/** Queues the alert to every owner address; call it with the transaction that records the order. */
export async function queueNewOrderAlert(
  trx: Transaction<Database>,
  alert: OwnerAlert,
  order: PlacedOrder,
  address: { street: string; city: string; state: string; country: string } | null,
): Promise<void> {
  await alert.whatsapp?.(trx, { ...order, amount: whatsAppAlertAmount(alert.t, order) });
  if (!alert.to.length) return;
  const user =
    order.userId === null
      ? undefined
      : await trx.selectFrom("users").select(["email", "first_name", "last_name"]).where("id", "=", order.userId).executeTakeFirst();
  const customer = user ? { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email } : null;
  const message = newOrderEmail(alert, order, customer, address);
  for (const to of alert.to) await queueMail(trx, { to, ...message, kind: "new-order-alert" });
}
