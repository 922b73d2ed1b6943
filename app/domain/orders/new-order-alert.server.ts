import type { Transaction } from "kysely";
import type { Database } from "~/db/schema";
import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { formatPhone, whatsAppHref } from "~/lib/phone";
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
  /** queues the alert to the owner's WhatsApp too (OWNER_WHATSAPP, docs/decisions/220); absent when off */
  whatsapp?: (trx: Transaction<Database>, order: Pick<PlacedOrder, "id" | "number" | "total">) => Promise<unknown>;
}

/** The e-mail about a new order, in the shop's language (the owner reads the admin area's). */
export function newOrderEmail(
  alert: OwnerAlert,
  order: Pick<PlacedOrder, "number" | "channel" | "items" | "subtotal" | "shipping" | "total" | "paymentMethod" | "paymentStatus"> & {
    phone?: string | null;
    discount?: number;
    promotionCode?: string | null;
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

/** Queues the alert to every owner address; call it with the transaction that records the order. */
export async function queueNewOrderAlert(
  trx: Transaction<Database>,
  alert: OwnerAlert,
  order: PlacedOrder,
  address: { street: string; city: string; state: string; country: string } | null,
): Promise<void> {
  await alert.whatsapp?.(trx, order);
  if (!alert.to.length) return;
  const user =
    order.userId === null
      ? undefined
      : await trx.selectFrom("users").select(["email", "first_name", "last_name"]).where("id", "=", order.userId).executeTakeFirst();
  const customer = user ? { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email } : null;
  const message = newOrderEmail(alert, order, customer, address);
  for (const to of alert.to) await queueMail(trx, { to, ...message, kind: "new-order-alert" });
}
