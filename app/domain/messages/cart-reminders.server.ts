import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { DEFAULT_LOCALE, isLocale } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { addLine, setLineQuantity } from "../shopper/cart.server";
import { queueMail } from "../operations/mail-outbox.server";
import { CART_REMINDER_WITH_CODE, channelChoices, channelsFor, reminderCodeNow, reminderDelayMinutes } from "./catalogue.server";
import { activeConsent, guestConsent, stopLink } from "./consent.server";
import { queueShopperMessage } from "./notify.server";

/**
 * Carts that come back (docs/decisions/220). A cart with items, left untouched for the owner's delay
 * (default 4 hours), whose shopper agreed to marketing (a signed-in shopper's opt-in, or a guest's
 * given at checkout and kept on the cart with their contact), gets one reminder: by WhatsApp or SMS
 * when the shopper has a number and the owner chose those channels for reminders, else by e-mail. It
 * carries a link that restores the cart in any browser, the link that stops marketing, and the
 * owner's discount code while it runs (the link puts it on the cart). At most one per cart (the cart
 * id is cart_reminders' key), none once the cart became an order, and none at night in Lagos (21:00
 * to 08:00): those wait for the morning pass.
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

/** A cart due its reminder: a signed-in shopper's, or a guest's with the opt-in kept on it. */
export type DueCart = { cartId: string; userId: number; consentId?: undefined } | { cartId: string; userId: null; consentId: number };

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
 * Guests' carts due a reminder now: no account, items, untouched long enough, the guest's opt-in from
 * the checkout kept on the cart and in force, no reminder yet, and no order since by that e-mail or number.
 */
export async function dueGuestCarts(db: Db, now: Date, delayMinutes: number): Promise<{ cartId: string; userId: null; consentId: number }[]> {
  const before = new Date(now.getTime() - delayMinutes * 60_000).toISOString();
  const rows = await db
    .selectFrom("carts")
    .innerJoin("marketing_consents as mc", "mc.cart_id", "carts.id")
    .select(["carts.id as cart_id", (eb) => eb.fn.max("mc.id").as("consent_id")])
    .where("carts.user_id", "is", null)
    .where("mc.user_id", "is", null)
    .where("mc.withdrawn_at", "is", null)
    .where("carts.updated_at", "<=", before)
    .where((eb) => eb.exists(eb.selectFrom("cart_lines").select("cart_lines.cart_id").whereRef("cart_lines.cart_id", "=", "carts.id")))
    .where((eb) => eb.not(eb.exists(eb.selectFrom("cart_reminders").select("cart_reminders.cart_id").whereRef("cart_reminders.cart_id", "=", "carts.id"))))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("orders")
            .select("orders.id")
            .whereRef("orders.created_at", ">=", "carts.updated_at")
            .where((o) => o.or([o("orders.email", "=", o.ref("mc.contact_email")), o("orders.phone", "=", o.ref("mc.contact_phone"))])),
        ),
      ),
    )
    .groupBy(["carts.id", "carts.updated_at"])
    .orderBy("carts.updated_at")
    .limit(200)
    .execute();
  return rows.map((r) => ({ cartId: r.cart_id, userId: null, consentId: Number(r.consent_id) }));
}

/**
 * Sends the reminders due now (a timer in the server calls it every minute); none at night. Each is
 * written with its message in one transaction: two instances, or two passes, send one.
 */
export async function sendCartReminders(db: Db, config: Pick<Config, "messaging" | "publicUrl">, now = new Date()): Promise<number> {
  if (isQuietInLagos(now, config.messaging.quietHours ?? DEFAULT_QUIET_HOURS)) return 0;
  const delay = await reminderDelayMinutes(db);
  const code = await reminderCodeNow(db, now);
  const due: DueCart[] = [...(await dueCarts(db, now, delay)), ...(await dueGuestCarts(db, now, delay))];
  let sent = 0;
  for (const cart of due) {
    const done = await db.transaction().execute(async (trx) => remindOne(trx, config, cart, code, now));
    if (done) sent++;
  }
  return sent;
}

interface Recipient {
  userId: number | null;
  name: string;
  email: string | null;
  phone: string | null;
  locale: string | null;
  consent: { id: number; token: string };
}

/** Who a due cart's reminder goes to, with their opt-in still in force (read in the reminder's transaction). */
async function recipientOf(trx: Transaction<Database>, cart: DueCart): Promise<Recipient | null> {
  if (cart.userId === null) {
    const consent = await guestConsent(trx, cart.consentId, cart.cartId);
    return consent ? { userId: null, name: consent.name, email: consent.email, phone: consent.phone, locale: consent.locale, consent } : null;
  }
  const user = await trx.selectFrom("users").select(["email", "first_name", "phone", "locale"]).where("id", "=", cart.userId).executeTakeFirst();
  const consent = await activeConsent(trx, cart.userId);
  if (!user || !consent) return null;
  return { userId: cart.userId, name: user.first_name, email: user.email, phone: user.phone, locale: user.locale, consent };
}

async function remindOne(trx: Transaction<Database>, config: Pick<Config, "messaging" | "publicUrl">, cart: DueCart, code: string | null, now: Date): Promise<boolean> {
  const to = await recipientOf(trx, cart);
  if (!to) return false;
  // Still holding items now: an order placed since the cart was found emptied it.
  if (!(await trx.selectFrom("cart_lines").select("cart_id").where("cart_id", "=", cart.cartId).executeTakeFirst())) return false;
  const channels = to.phone ? channelsFor(config.messaging, await channelChoices(trx), "cart-reminder") : [];
  if (!channels.length && !to.email) return false;
  const token = randomBytes(18).toString("base64url");
  const inserted = await trx
    .insertInto("cart_reminders")
    .values({
      cart_id: cart.cartId,
      user_id: to.userId,
      // A guest's contact is kept with the reminder (an account's lives on the account): it finds their order.
      contact_email: to.userId === null ? to.email : null,
      contact_phone: to.userId === null ? to.phone : null,
      channel: channels[0] ?? "email",
      restore_token: token,
      consent_id: to.consent.id,
      sent_at: now.toISOString(),
      restored_at: null,
      order_id: null,
      order_total: null,
      recovered_at: null,
      promotion_code: code,
    })
    .onConflict((oc) => oc.column("cart_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  const values: Record<string, string> = { name: to.name, url: `${config.publicUrl}/cart/restore/${token}`, stop: stopLink(config.publicUrl, to.consent.token), ...(code ? { code } : {}) };
  if (channels.length) {
    await queueShopperMessage(trx, config.messaging, {
      kind: "cart-reminder",
      subject: cart.cartId,
      to: to.phone,
      locale: to.locale,
      values,
      userId: to.userId,
      ...(code ? { variant: CART_REMINDER_WITH_CODE } : {}),
    });
  } else {
    const t = translatorFor(isLocale(to.locale) ? to.locale : DEFAULT_LOCALE);
    await queueMail(trx, {
      to: to.email!,
      subject: t("messages.cartMail.subject"),
      text: [
        t("messages.cartMail.greeting", values),
        "",
        t("messages.cartMail.body"),
        ...(code ? [t("messages.cartMail.code", values)] : []),
        t("messages.cartMail.link", values),
        "",
        t("messages.cartMail.stop", values),
        "",
        t("messages.cartMail.signature"),
      ].join("\n"),
      kind: "cart-reminder",
    });
  }
  return true;
}

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The reminder's link: puts the reminded cart's items into this browser's cart (any device, signed
 * in or not), as far as stock allows, with the code the reminder announced. Null when the token is
 * unknown; `code` is the reminder's code when it is on the cart now.
 */
export async function restoreRemindedCart(db: Db, token: string, targetCartId: string, now = new Date()): Promise<{ restored: number; code: string | null } | null> {
  if (!TOKEN.test(token)) return null;
  const reminder = await db.selectFrom("cart_reminders").select(["cart_id", "promotion_code"]).where("restore_token", "=", token).executeTakeFirst();
  if (!reminder) return null;
  await db.updateTable("cart_reminders").set({ restored_at: now.toISOString() }).where("restore_token", "=", token).where("restored_at", "is", null).execute();
  // The code the reminder announced goes on the cart, unless the shopper has entered one there already;
  // it is judged at checkout like any code (limits, expiry).
  let code: string | null = null;
  if (reminder.promotion_code) {
    await db.updateTable("carts").set({ promotion_code: reminder.promotion_code }).where("id", "=", targetCartId).where("promotion_code", "is", null).execute();
    const onCart = await db.selectFrom("carts").select("promotion_code").where("id", "=", targetCartId).executeTakeFirst();
    code = onCart?.promotion_code === reminder.promotion_code ? reminder.promotion_code : null;
  }
  if (reminder.cart_id === targetCartId) return { restored: 0, code };
  const lines = await db.selectFrom("cart_lines").select(["product_id", "size_id", "quantity"]).where("cart_id", "=", reminder.cart_id).orderBy("created_at").execute();
  let restored = 0;
  for (const line of lines) {
    const added = await addLine(db, targetCartId, line.product_id, line.size_id);
    if (!added.ok) continue;
    if (line.quantity > 1) await setLineQuantity(db, targetCartId, line.product_id, line.quantity, line.size_id);
    restored++;
  }
  return { restored, code };
}

/**
 * An order from a reminded cart (or the reminded shopper's next order within a week): the cart came
 * back. Called in the order's transaction.
 */
export async function markCartRecovered(
  trx: Transaction<Database> | Db,
  input: { cartId: string; userId: number | null; orderId: number; total: number; email?: string | null; phone?: string | null },
  now = new Date(),
): Promise<void> {
  const weekAgo = new Date(now.getTime() - 7 * 24 * 3600_000).toISOString();
  await trx
    .updateTable("cart_reminders")
    .set({ order_id: input.orderId, order_total: input.total, recovered_at: now.toISOString() })
    .where("recovered_at", "is", null)
    .where("sent_at", ">=", weekAgo)
    .where((eb) =>
      eb.or([
        eb("cart_id", "=", input.cartId),
        ...(input.userId !== null ? [eb("user_id", "=", input.userId)] : []),
        // A guest's reminder, brought back on another device: found by the contact the guest gave.
        ...(input.email ? [eb("contact_email", "=", input.email.toLowerCase())] : []),
        ...(input.phone ? [eb("contact_phone", "=", input.phone)] : []),
      ]),
    )
    .execute();
}

export interface ReminderStats {
  sent: number;
  /** reminded carts that came back as an order still standing (not cancelled) */
  recovered: number;
  /** kobo received for those orders: paid and not refunded, as the dashboard counts revenue */
  revenue: number;
}

/** The dashboard's figures for cart reminders, read through the orders as they stand now. */
export async function reminderStats(db: Db): Promise<ReminderStats> {
  const row = await db
    .selectFrom("cart_reminders as r")
    .leftJoin("orders as o", "o.id", "r.order_id")
    .select((eb) => [
      eb.fn.countAll<number>().as("sent"),
      eb.fn.sum<number>(eb.case().when(eb.and([eb("r.recovered_at", "is not", null), eb("o.status", "!=", "cancelled")])).then(1).else(0).end()).as("recovered"),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb("r.recovered_at", "is not", null), eb("o.status", "!=", "cancelled"), eb("o.payment_status", "=", "paid")]))
            .then(eb.ref("o.total"))
            .else(0)
            .end(),
        )
        .as("revenue"),
    ])
    .executeTakeFirstOrThrow();
  return { sent: Number(row.sent), recovered: Number(row.recovered ?? 0), revenue: Number(row.revenue ?? 0) };
}
