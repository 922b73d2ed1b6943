import type { Db } from "~/db/client.server";
import type { OrderChannel, OrderStatus } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { DEFAULT_LOCALE } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { queueOwnerWhatsApp } from "../messages/notify.server";
import { newOrderEmail, type OwnerAlert, queueNewOrderAlert } from "./new-order-alert.server";

/**
 * The owner hears of every new order (checkout or WhatsApp) by e-mail, queued in the transaction that
 * records the order, so the alert exists exactly when the order does (docs/decisions/112). The admin
 * area counts the orders waiting for the owner: pending ones to confirm and confirmed ones to ship.
 */

export type { OwnerAlert };
export { newOrderEmail, queueNewOrderAlert };

export function ownerAlert(config: Pick<Config, "shop" | "publicUrl"> & Partial<Pick<Config, "messaging">>): OwnerAlert {
  const messaging = config.messaging;
  return {
    to: config.shop.ownerEmails,
    publicUrl: config.publicUrl,
    t: translatorFor(DEFAULT_LOCALE),
    vatIncluded: config.shop.vatIncluded,
    ...(messaging?.whatsapp && messaging.ownerWhatsapp
      ? { whatsapp: (trx: Parameters<NonNullable<OwnerAlert["whatsapp"]>>[0], order: Parameters<NonNullable<OwnerAlert["whatsapp"]>>[1]) => queueOwnerWhatsApp(trx, { messaging, publicUrl: config.publicUrl }, order) }
      : {}),
  };
}

const WAITING: OrderStatus[] = ["pending", "confirmed"];

export interface WaitingOrder {
  number: string;
  createdAt: string;
  channel: OrderChannel;
  status: OrderStatus;
  total: number;
  customer: string | null;
  /** placed at checkout without an account: customer is the e-mail it was placed with */
  guest: boolean;
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
    .select(["o.number", "o.created_at", "o.channel", "o.status", "o.total", "o.user_id", "u.email", "o.email as guest_email"])
    .where("o.status", "in", WAITING)
    .orderBy("o.created_at")
    .orderBy("o.id")
    .limit(limit)
    .execute();
  return rows.map((o) => ({ number: o.number, createdAt: o.created_at, channel: o.channel, status: o.status, total: o.total, customer: o.email ?? o.guest_email, guest: o.user_id === null && o.guest_email !== null }));
}
