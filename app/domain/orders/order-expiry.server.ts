import { type ExpressionBuilder, sql, type Transaction } from "kysely";
import { type Db, isPostgres } from "~/db/client.server";
import type { Database } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { holdsStock } from "~/lib/admin";
import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { bothChanges, type CatalogScope, catalogChanged, stockMovedScope, stockMoves } from "../catalogue/catalog.server";
import { returnSizeStock } from "../catalogue/product-sizes.server";
import { queueMail } from "../operations/mail-outbox.server";
import { giveBackUse } from "../promotions/codes.server";
import { giveBackSpent } from "../credit/ledger.server";

/**
 * Unpaid orders cannot hoard stock (docs/decisions/062). A pending order is one nobody has paid for
 * or confirmed yet: a checkout order (which took its stock when placed) or a WhatsApp hand-off the
 * owner has not confirmed (the shopper may never have sent the message). Pending orders older than
 * ORDER_HOLD_HOURS are cancelled by a job in the server: the stock a checkout order held goes back,
 * the history says why, and a customer with an account is told by e-mail through the outbox. Caps
 * keep anyone from piling up open orders in the meantime.
 */

/** open (pending) checkout orders one account may have at a time */
export const MAX_OPEN_CHECKOUT_ORDERS = 3;
/** open (pending) WhatsApp orders one cart may have at a time */
export const MAX_OPEN_WHATSAPP_ORDERS_PER_CART = 3;
const HOUR_MS = 3_600_000;

/**
 * Which pending orders expire: every unpaid one, whatever the way to pay (docs/decisions/213). A
 * pay-on-delivery order is unpaid until the parcel arrives by design, so for it "pending" means the
 * owner has not confirmed it yet: confirming it (moving it on from pending) or marking it paid keeps
 * it; otherwise it expires like the others, and the owner is warned at half the hold time.
 */
const expirable = (eb: ExpressionBuilder<Database, "orders">) => eb("payment_status", "=", "unpaid");
const BATCH = 50;

export function holdCutoff(holdHours: number, now: Date = new Date()): string {
  return new Date(now.getTime() - holdHours * HOUR_MS).toISOString();
}

/** Seconds until the oldest of these open orders expires (at least 1): a Retry-After for a refused order. */
export function secondsUntilExpiry(oldestCreatedAt: string, holdHours: number, now: Date = new Date()): number {
  return Math.max(1, Math.ceil((Date.parse(oldestCreatedAt) + holdHours * HOUR_MS - now.getTime()) / 1000));
}

/**
 * Cancels every pending order placed before the hold ran out, each in its own transaction, and
 * returns their numbers. Safe to run on several instances at once: an order is taken with a
 * conditional update from pending (and on PostgreSQL rows another instance holds are skipped).
 */
export async function expireUnpaidOrders(
  db: Db,
  config: Pick<Config, "orderHoldHours" | "publicUrl">,
  /** English (the account keeps no language yet): the history note and the e-mail */
  t: Translate,
  now: Date = new Date(),
): Promise<string[]> {
  const cutoff = holdCutoff(config.orderHoldHours, now);
  const expired: string[] = [];
  // What the orders expired altered, all of this run's together (docs/decisions/205).
  let changed: CatalogScope | null = null;
  let afterId = 0;
  for (;;) {
    const due = await db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "pending")
      .where("created_at", "<", cutoff)
      .where(expirable)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(BATCH)
      .execute();
    if (due.length === 0) break;
    for (const { id } of due) {
      afterId = id;
      const result = await db.transaction().execute((trx) => expireOne(trx, id, cutoff, config, t));
      if (result) {
        expired.push(result.number);
        changed = bothChanges(changed, result.changed);
      }
    }
  }
  if (changed) catalogChanged("here", changed);
  return expired;
}

async function expireOne(
  trx: Transaction<Database>,
  id: number,
  cutoff: string,
  config: Pick<Config, "orderHoldHours" | "publicUrl">,
  t: Translate,
): Promise<{ number: string; changed: CatalogScope } | null> {
  const order = await trx
    .selectFrom("orders")
    .select(["id", "number", "channel", "status", "user_id", "total", "created_at", "payment_method"])
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("created_at", "<", cutoff)
    .where(expirable)
    .$if(isPostgres(trx), (qb) => qb.forUpdate().skipLocked())
    .executeTakeFirst();
  if (!order) return null;
  const at = new Date().toISOString();
  const onDelivery = order.channel === "checkout" && order.payment_method === "on_delivery";
  // Conditional: an owner confirming it at this moment, or another instance, wins or loses cleanly.
  const moved = await trx
    .updateTable("orders")
    .set({ status: "cancelled", updated_at: at })
    .where("id", "=", order.id)
    .where("status", "=", "pending")
    .where("payment_status", "=", "unpaid")
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return null;
  await trx
    .insertInto("order_events")
    .values({ order_id: order.id, status: "cancelled", actor_user_id: null, note: t(onDelivery ? "account.expiry.noteOnDelivery" : "account.expiry.note", { hours: config.orderHoldHours }), created_at: at })
    .execute();

  // Its use of a discount code is given back (docs/decisions/219).
  await giveBackUse(trx, order.id, at);
  // And what store credit and a gift card paid of it (docs/decisions/224).
  await giveBackSpent(trx, order.id, at);

  const items = await trx
    .selectFrom("order_items")
    .select(["product_id", "size_id", "quantity"])
    .where("order_id", "=", order.id)
    .orderBy("product_id")
    .orderBy("size_id")
    .execute();
  // A cancelled order no longer counts as sold (best sellers, 'often bought together'): its products'
  // pages change, and every card of one that comes back into stock (docs/decisions/205).
  let changed: CatalogScope = { ordered: [...new Set(items.flatMap((item) => (item.product_id === null ? [] : [item.product_id])))] };
  if (holdsStock(order.channel, "pending")) {
    const returned = items.filter((item) => item.size_id !== null);
    for (const item of returned) {
      // Back to the size it was taken from (docs/decisions/121); the product's stock follows.
      await returnSizeStock(trx, item.size_id!, item.quantity, at);
      if (item.product_id !== null) await trx.updateTable("products").set({ updated_at: at }).where("id", "=", item.product_id).execute();
    }
    if (returned.length) changed = bothChanges(changed, await stockMovedScope(trx, stockMoves(returned, 1)));
  }

  if (order.user_id !== null) {
    const user = await trx.selectFrom("users").select(["email", "first_name"]).where("id", "=", order.user_id).executeTakeFirst();
    if (user) {
      const text = [
        t("account.expiry.greeting", { name: user.first_name }),
        "",
        t(order.channel === "whatsapp" ? "account.expiry.bodyWhatsapp" : onDelivery ? "account.expiry.bodyOnDelivery" : "account.expiry.body", {
          number: order.number,
          hours: config.orderHoldHours,
        }),
        t("account.expiry.total", { total: formatNaira(order.total) }),
        "",
        t("account.expiry.again", { url: `${config.publicUrl}/shop` }),
        "",
        t("account.expiry.signature"),
      ].join("\n");
      await queueMail(trx, { to: user.email, subject: t("account.expiry.subject", { number: order.number }), text, kind: "order-expired" });
    }
  }
  return { number: order.number, changed };
}

/**
 * Tells the owner (every OWNER_EMAIL address, else the shop's e-mail) of the pay-on-delivery orders
 * still unconfirmed at half the hold time, so they can confirm them before they expire: one e-mail per
 * run listing them, each order once (a conditional update of `hold_warned_at` in the same transaction
 * as the e-mail, so several instances never warn twice). Returns the orders' numbers.
 */
export async function warnOwnerOfUnconfirmed(
  db: Db,
  config: Pick<Config, "orderHoldHours" | "publicUrl" | "shop">,
  t: Translate,
  now: Date = new Date(),
): Promise<string[]> {
  const halfway = new Date(now.getTime() - (config.orderHoldHours * HOUR_MS) / 2).toISOString();
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom("orders")
      .select(["id", "number", "total", "created_at"])
      .where("status", "=", "pending")
      .where("payment_status", "=", "unpaid")
      .where("channel", "=", "checkout")
      .where("payment_method", "=", "on_delivery")
      .where("hold_warned_at", "is", null)
      .where("created_at", "<", halfway)
      // Past the hold it is about to expire, and its customer is told.
      .where("created_at", ">=", holdCutoff(config.orderHoldHours, now))
      .orderBy("id")
      .limit(100)
      .$if(isPostgres(trx), (qb) => qb.forUpdate().skipLocked())
      .execute();
    const warned = [];
    for (const order of due) {
      const moved = await trx
        .updateTable("orders")
        .set({ hold_warned_at: now.toISOString() })
        .where("id", "=", order.id)
        .where("hold_warned_at", "is", null)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 1) warned.push(order);
    }
    if (warned.length === 0) return [];
    const lagos = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Lagos", dateStyle: "medium", timeStyle: "short" });
    const text = [
      t("account.expiry.warnBody", { hours: config.orderHoldHours }),
      "",
      ...warned.map((o) =>
        t("account.expiry.warnLine", {
          number: o.number,
          total: formatNaira(o.total),
          expires: lagos.format(new Date(Date.parse(o.created_at) + config.orderHoldHours * HOUR_MS)),
          link: `${config.publicUrl}/admin/orders/${o.number}`,
        }),
      ),
      "",
      t("account.expiry.signature"),
    ].join("\n");
    const subject = t("account.expiry.warnSubject", { count: warned.length });
    for (const to of config.shop.ownerEmails) await queueMail(trx, { to, subject, text, kind: "order-hold-warning" });
    return warned.map((o) => o.number);
  });
}

export interface ExpiryJob {
  /** runs once now (for tests) */
  run(): Promise<string[]>;
  stop(): Promise<void>;
}

export interface ExpiryLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** The job in the server: once shortly after start, then every `intervalMs` (default 5 minutes). */
export function startOrderExpiryJob(options: {
  db: Db;
  config: Pick<Config, "orderHoldHours" | "publicUrl" | "shop">;
  /** English texts (server.ts has no translation loader: it builds this from the locale file) */
  t: Translate;
  logger?: ExpiryLogger;
  intervalMs?: number;
}): ExpiryJob {
  const { db, config, logger } = options;
  const intervalMs = options.intervalMs ?? 5 * 60_000;
  let running: Promise<string[]> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const run = (): Promise<string[]> => {
    running ??= warnOwnerOfUnconfirmed(db, config, options.t)
      .then((warned) => {
        if (warned.length) logger?.info({ event: "order_hold_warned", count: warned.length, orders: warned.slice(0, 20) }, "owner warned of unconfirmed orders");
        return expireUnpaidOrders(db, config, options.t);
      })
      .then((numbers) => {
        if (numbers.length) logger?.info({ event: "orders_expired", count: numbers.length, orders: numbers.slice(0, 20) }, "unpaid orders cancelled");
        return numbers;
      })
      .catch((error: unknown) => {
        logger?.error({ event: "order_expiry_failed", err: String((error as Error).message ?? error) }, "expiring unpaid orders failed");
        return [];
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run().finally(() => schedule(intervalMs)), delay);
    timer.unref();
  };
  schedule(5_000);
  return {
    run,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** The account's open checkout orders: how many, and when the oldest was placed. */
export async function openCheckoutOrders(db: Db, userId: number): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("created_at").as("oldest")])
    .where("user_id", "=", userId)
    .where("channel", "=", "checkout")
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: (row.oldest as string | null) ?? null };
}

/**
 * A guest's open checkout orders (docs/decisions/217): pending orders placed with this e-mail or this
 * phone, by anyone. Call it in the order's transaction: on PostgreSQL the e-mail and the phone are
 * locked here (in one order, so two checkouts cannot deadlock), so guests with other carts who share
 * one of them are counted one after another; on SQLite the transaction holds the write lock already.
 */
export async function openGuestOrders(trx: Transaction<Database>, who: { email: string; phone: string }): Promise<{ count: number; oldest: string | null }> {
  if (isPostgres(trx)) {
    for (const key of [`guest-email:${who.email}`, `guest-phone:${who.phone}`].sort()) {
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    }
  }
  const row = await trx
    .selectFrom("orders")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("created_at").as("oldest")])
    .where((eb) => eb.or([eb("email", "=", who.email), eb("phone", "=", who.phone)]))
    .where("channel", "=", "checkout")
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: (row.oldest as string | null) ?? null };
}

/** The cart's open WhatsApp orders: how many, and when the oldest was placed. */
export async function openWhatsAppOrders(db: Db, cartId: string): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("created_at").as("oldest")])
    .where("cart_id", "=", cartId)
    .where("channel", "=", "whatsapp")
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: (row.oldest as string | null) ?? null };
}
