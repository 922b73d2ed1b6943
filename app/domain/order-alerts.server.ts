import type { Transaction } from "kysely";
import type { Db } from "~/db/client.server";
import type { Database, OrderChannel, OrderStatus } from "~/db/schema";
import type { Config } from "~/lib/config.server";
import { DEFAULT_LOCALE } from "~/lib/i18n";
import { translatorFor } from "~/lib/i18n.server";
import { formatNaira } from "~/lib/money";
import { queueMail } from "./mail-outbox.server";
import type { PlacedOrder } from "./orders.server";

/**
 * The owner hears of every new order (checkout or WhatsApp) by e-mail, queued in the transaction that
 * records the order, so the alert exists exactly when the order does (docs/decisions/112). The admin
 * area counts the orders waiting for the owner: pending ones to confirm and confirmed ones to ship.
 */

export interface OwnerAlert {
  /** OWNER_EMAIL, one or more addresses */
  to: string[];
  publicUrl: string;
}

export function ownerAlert(config: Pick<Config, "shop" | "publicUrl">): OwnerAlert {
  return { to: config.shop.ownerEmails, publicUrl: config.publicUrl };
}

const WAITING: OrderStatus[] = ["pending", "confirmed"];

/** The e-mail about a new order, in the shop's language (the owner reads the admin area's). */
export function newOrderEmail(
  alert: OwnerAlert,
  order: Pick<PlacedOrder, "number" | "channel" | "items" | "subtotal" | "shipping" | "total" | "paymentMethod" | "paymentStatus">,
  customer: { name: string; email: string } | null,
  address: { street: string; city: string; state: string; country: string } | null,
): { subject: string; text: string } {
  const t = translatorFor(DEFAULT_LOCALE);
  const k = "admin.newOrderMail.";
  const channel = t(`admin.orders.channel.${order.channel}`);
  const lines = [
    t(k + "intro", { number: order.number, channel }),
    "",
    ...order.items.map((item) => t(k + "line", { quantity: item.quantity, name: item.name, price: formatNaira(item.unitPrice * item.quantity) })),
    "",
    t(k + "subtotal", { amount: formatNaira(order.subtotal) }),
    t(k + "shipping", { amount: order.shipping === 0 ? t("admin.orders.free") : formatNaira(order.shipping) }),
    t(k + "total", { amount: formatNaira(order.total) }),
    t(k + "payment", { method: t(`admin.orders.paymentMethod.${order.paymentMethod ?? "none"}`), status: t(`admin.orders.paymentStatus.${order.paymentStatus}`).toLowerCase() }),
    "",
    customer ? t(k + "customer", { name: customer.name, email: customer.email }) : t(k + "guest"),
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
  if (!alert.to.length) return;
  const user =
    order.userId === null
      ? undefined
      : await trx.selectFrom("users").select(["email", "first_name", "last_name"]).where("id", "=", order.userId).executeTakeFirst();
  const customer = user ? { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email } : null;
  const message = newOrderEmail(alert, order, customer, address);
  for (const to of alert.to) await queueMail(trx, { to, ...message, kind: "new-order-alert" });
}

export interface WaitingOrder {
  number: string;
  createdAt: string;
  channel: OrderChannel;
  status: OrderStatus;
  total: number;
  customer: string | null;
}

/** How many orders wait for the owner: pending (to confirm) and confirmed (to ship). */
export async function countOrdersWaiting(db: Db): Promise<number> {
  const { n } = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "in", WAITING)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The orders waiting for the owner, oldest first (the one waiting longest comes first). */
export async function ordersWaiting(db: Db, limit = 10): Promise<WaitingOrder[]> {
  const rows = await db
    .selectFrom("orders as o")
    .leftJoin("users as u", "u.id", "o.user_id")
    .select(["o.number", "o.created_at", "o.channel", "o.status", "o.total", "u.email"])
    .where("o.status", "in", WAITING)
    .orderBy("o.created_at")
    .orderBy("o.id")
    .limit(limit)
    .execute();
  return rows.map((o) => ({ number: o.number, createdAt: o.created_at, channel: o.channel, status: o.status, total: o.total, customer: o.email }));
}
