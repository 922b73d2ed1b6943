import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { DEFAULT_LOCALE, isLocale } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { addLine, setLineQuantity } from "../shopper/cart.server";
import { queueMail } from "../operations/mail-outbox.server";
import { channelChoices, channelsFor, reminderDelayMinutes } from "./catalogue.server";
import { activeConsent, stopLink } from "./consent.server";
import { queueShopperMessage } from "./notify.server";

/**
 * Carts that come back (docs/decisions/220). A cart with items, left untouched for the owner's delay
 * (default 4 hours), whose shopper agreed to marketing, gets one reminder: by WhatsApp or SMS when
 * the shopper has a number and the owner chose those channels for reminders, else by e-mail. It
 * carries a link that restores the cart in any browser and the link that stops marketing. At most
 * one per cart (the cart id is cart_reminders' key), none once the cart became an order, and none
 * at night in Lagos (21:00 to 08:00): those wait for the morning pass.
 */

/** Lagos hours [from, to) with no reminders: 21:00 to 08:00 unless CART_REMINDER_QUIET_HOURS says otherwise. */
export const DEFAULT_QUIET_HOURS: [number, number] = [21, 8];

/** The hour in Lagos (UTC+1 all year: Nigeria keeps no summer time). */
export const lagosHour = (at: Date) => (at.getUTCHours() + 1) % 24;

export function isQuietInLagos(at: Date, [from, to]: [number, number] = DEFAULT_QUIET_HOURS): boolean {
  if (from === to) return false;
  const hour = lagosHour(at);
  return from < to ? hour >= from && hour < to : hour >= from || hour < to;
}

/** When a reminder due at `due` may go: then, or at the end of the quiet hours (08:00 in Lagos). */
export function reminderSendTime(due: Date, quiet: [number, number] = DEFAULT_QUIET_HOURS): Date {
  if (!isQuietInLagos(due, quiet)) return due;
  const morning = new Date(due);
  // The hour in Lagos is the UTC hour plus one: that day's, or the next day's when it has passed.
  morning.setUTCHours((quiet[1] + 23) % 24, 0, 0, 0);
  if (morning <= due) morning.setUTCDate(morning.getUTCDate() + 1);
  return morning;
}

type Db = Kysely<Database>;

/** Signed-in shoppers' carts due a reminder now: items, untouched long enough, opted in, no reminder yet, no order since. */
export async function dueCarts(db: Db, now: Date, delayMinutes: number): Promise<{ cartId: string; userId: number }[]> {
  const before = new Date(now.getTime() - delayMinutes * 60_000).toISOString();
  const rows = await db
    .selectFrom("carts")
    .innerJoin("users", "users.id", "carts.user_id")
    .select(["carts.id as cart_id", "carts.user_id"])
    .where("carts.updated_at", "<=", before)
    .where((eb) => eb.exists(eb.selectFrom("cart_lines").select("cart_lines.cart_id").whereRef("cart_lines.cart_id", "=", "carts.id")))
    .where((eb) => eb.not(eb.exists(eb.selectFrom("cart_reminders").select("cart_reminders.cart_id").whereRef("cart_reminders.cart_id", "=", "carts.id"))))
    .where((eb) =>
      eb.exists(eb.selectFrom("marketing_consents").select("marketing_consents.id").whereRef("marketing_consents.user_id", "=", "carts.user_id").where("marketing_consents.withdrawn_at", "is", null)),
    )
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("orders").select("orders.id").whereRef("orders.user_id", "=", "carts.user_id").whereRef("orders.created_at", ">=", "carts.updated_at"))),
    )
    .orderBy("carts.updated_at")
    .limit(200)
    .execute();
  return rows.map((r) => ({ cartId: r.cart_id, userId: Number(r.user_id) }));
}

/**
 * Sends the reminders due now (a timer in the server calls it every minute); none at night. Each is
 * written with its message in one transaction: two instances, or two passes, send one.
 */
export async function sendCartReminders(db: Db, config: Pick<Config, "messaging" | "publicUrl">, now = new Date()): Promise<number> {
  if (isQuietInLagos(now, config.messaging.quietHours ?? DEFAULT_QUIET_HOURS)) return 0;
  const delay = await reminderDelayMinutes(db);
  let sent = 0;
  for (const cart of await dueCarts(db, now, delay)) {
    const done = await db.transaction().execute(async (trx) => remindOne(trx, config, cart, now));
    if (done) sent++;
  }
  return sent;
}

async function remindOne(trx: Transaction<Database>, config: Pick<Config, "messaging" | "publicUrl">, cart: { cartId: string; userId: number }, now: Date): Promise<boolean> {
  const user = await trx.selectFrom("users").select(["email", "first_name", "phone", "locale"]).where("id", "=", cart.userId).executeTakeFirst();
  const consent = await activeConsent(trx, cart.userId);
  if (!user || !consent) return false;
  const channels = user.phone ? channelsFor(config.messaging, await channelChoices(trx), "cart-reminder") : [];
  const token = randomBytes(18).toString("base64url");
  const inserted = await trx
    .insertInto("cart_reminders")
    .values({
      cart_id: cart.cartId,
      user_id: cart.userId,
      contact_email: null,
      contact_phone: null,
      channel: channels[0] ?? "email",
      restore_token: token,
      consent_id: consent.id,
      sent_at: now.toISOString(),
      restored_at: null,
      order_id: null,
      order_total: null,
      recovered_at: null,
    })
    .onConflict((oc) => oc.column("cart_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  const values = { name: user.first_name, url: `${config.publicUrl}/cart/restore/${token}`, stop: stopLink(config.publicUrl, consent.token) };
  if (channels.length) {
    await queueShopperMessage(trx, config.messaging, { kind: "cart-reminder", subject: cart.cartId, to: user.phone, locale: user.locale, values, userId: cart.userId });
  } else {
    const t = translatorFor(isLocale(user.locale) ? user.locale : DEFAULT_LOCALE);
    await queueMail(trx, {
      to: user.email,
      subject: t("messages.cartMail.subject"),
      text: [t("messages.cartMail.greeting", values), "", t("messages.cartMail.body"), t("messages.cartMail.link", values), "", t("messages.cartMail.stop", values), "", t("messages.cartMail.signature")].join("\n"),
      kind: "cart-reminder",
    });
  }
  return true;
}

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The reminder's link: puts the reminded cart's items into this browser's cart (any device, signed
 * in or not), as far as stock allows. Null when the token is unknown.
 */
export async function restoreRemindedCart(db: Db, token: string, targetCartId: string, now = new Date()): Promise<{ restored: number } | null> {
  if (!TOKEN.test(token)) return null;
  const reminder = await db.selectFrom("cart_reminders").select(["cart_id"]).where("restore_token", "=", token).executeTakeFirst();
  if (!reminder) return null;
  await db.updateTable("cart_reminders").set({ restored_at: now.toISOString() }).where("restore_token", "=", token).where("restored_at", "is", null).execute();
  if (reminder.cart_id === targetCartId) return { restored: 0 };
  const lines = await db.selectFrom("cart_lines").select(["product_id", "size_id", "quantity"]).where("cart_id", "=", reminder.cart_id).orderBy("created_at").execute();
  let restored = 0;
  for (const line of lines) {
    const added = await addLine(db, targetCartId, line.product_id, line.size_id);
    if (!added.ok) continue;
    if (line.quantity > 1) await setLineQuantity(db, targetCartId, line.product_id, line.quantity, line.size_id);
    restored++;
  }
  return { restored };
}

/**
 * An order from a reminded cart (or the reminded shopper's next order within a week): the cart came
 * back. Called in the order's transaction.
 */
export async function markCartRecovered(trx: Transaction<Database> | Db, input: { cartId: string; userId: number | null; orderId: number; total: number }, now = new Date()): Promise<void> {
  const weekAgo = new Date(now.getTime() - 7 * 24 * 3600_000).toISOString();
  await trx
    .updateTable("cart_reminders")
    .set({ order_id: input.orderId, order_total: input.total, recovered_at: now.toISOString() })
    .where("recovered_at", "is", null)
    .where("sent_at", ">=", weekAgo)
    .where((eb) => (input.userId === null ? eb("cart_id", "=", input.cartId) : eb.or([eb("cart_id", "=", input.cartId), eb("user_id", "=", input.userId)])))
    .execute();
}

export interface ReminderStats {
  sent: number;
  recovered: number;
  /** kobo */
  revenue: number;
}

export async function reminderStats(db: Db): Promise<ReminderStats> {
  const row = await db
    .selectFrom("cart_reminders")
    .select((eb) => [
      eb.fn.countAll<number>().as("sent"),
      eb.fn.count<number>("recovered_at").as("recovered"),
      eb.fn.coalesce(eb.fn.sum<number>("order_total"), eb.lit(0)).as("revenue"),
    ])
    .executeTakeFirstOrThrow();
  return { sent: Number(row.sent), recovered: Number(row.recovered), revenue: Number(row.revenue) };
}
