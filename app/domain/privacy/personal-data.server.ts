import { sql, type Transaction } from "kysely";
import type { Db } from "~/db/client.server";
import type { Database } from "~/db/schema";

/**
 * Everything the shop keeps about one person, table by table (docs/decisions/221): what a download
 * gives them, and what erasing them does. Each table that holds personal data has ONE handler here;
 * a feature that adds such a table (consents, WhatsApp and SMS messages, guest orders' contact
 * fields) adds its handler to HANDLERS, and both the download and the erasure follow.
 *
 * Erasure removes or anonymises at once; orders stay, with their amounts, dates and items (the law
 * asks the shop to keep its accounts), but name no one.
 */

/** Whose data: a signed-in account, or a guest known only by the e-mail address they confirmed. */
export type DataSubject = { kind: "account"; userId: number; email: string } | { kind: "guest"; email: string };

type Trx = Transaction<Database>;

export interface PersonalDataHandler {
  /** the section's name in the download */
  name: string;
  /** the rows, as the person may read them */
  export(db: Db, subject: DataSubject): Promise<unknown>;
  /** removes or anonymises them inside the erasure's transaction; answers how many rows it touched */
  erase(trx: Trx, subject: DataSubject): Promise<number>;
}

/** What an erased account's row says instead of a name, and its e-mail (unique, and deliverable nowhere). */
export const ERASED_FIRST_NAME = "Erased";
export const ERASED_LAST_NAME = "customer";
export const erasedEmail = (userId: number) => `erased-${userId}@erased.invalid`;
/** Whether an account's e-mail is an erased one (for screens that show the account). */
export const isErasedEmail = (email: string) => /^erased-\d+@erased\.invalid$/.test(email);
/** A review keeps its stars and words; its author is no one in particular. */
export const ERASED_REVIEW_AUTHOR = "Anonymous";
/** Not an argon2 hash: no password ever matches it, so the row can never sign in. */
const NO_PASSWORD = "erased";

const affected = (result: { numAffectedRows?: bigint; numDeletedRows?: bigint; numUpdatedRows?: bigint } | undefined) =>
  Number(result?.numDeletedRows ?? result?.numUpdatedRows ?? result?.numAffectedRows ?? 0);

const userIdOf = (subject: DataSubject) => (subject.kind === "account" ? subject.userId : null);

/**
 * The orders that are the person's: an account's own; a guest's are orders placed without an account
 * under the confirmed e-mail, which the orders table will hold once guest checkout records a contact
 * e-mail. Until then a guest has no orders here (answering an empty set keeps the rest of the code
 * the same when it arrives: only this function changes).
 */
async function orderIdsOf(db: Db | Trx, subject: DataSubject): Promise<number[]> {
  if (subject.kind === "guest") return [];
  const rows = await db.selectFrom("orders").select("id").where("user_id", "=", subject.userId).orderBy("id").execute();
  return rows.map((r) => r.id);
}

const account: PersonalDataHandler = {
  name: "account",
  async export(db, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return null;
    const row = await db
      .selectFrom("users")
      .select(["id", "email", "first_name", "last_name", "phone", "locale", "role", "created_at"])
      .where("id", "=", userId)
      .executeTakeFirst();
    return row
      ? { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, phone: row.phone, language: row.locale, role: row.role, createdAt: row.created_at }
      : null;
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    const result = await trx
      .updateTable("users")
      .set({
        email: erasedEmail(userId),
        first_name: ERASED_FIRST_NAME,
        last_name: ERASED_LAST_NAME,
        password_hash: NO_PASSWORD,
        phone: null,
        locale: null,
        must_change_password: 0,
        erased_at: new Date().toISOString(),
      })
      .where("id", "=", userId)
      .executeTakeFirst();
    // Password-reset links and a registration still waiting for its confirmation die with it.
    await trx.deleteFrom("password_resets").where("user_id", "=", userId).execute();
    await trx.deleteFrom("pending_registrations").where("email", "=", subject.email).execute();
    return affected(result);
  },
};

const sessions: PersonalDataHandler = {
  name: "sessions",
  async export(db, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return [];
    const rows = await db.selectFrom("sessions").select(["created_at", "expires_at"]).where("user_id", "=", userId).orderBy("created_at").execute();
    return rows.map((r) => ({ signedInAt: r.created_at, expiresAt: r.expires_at }));
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    return affected(await trx.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst());
  },
};

const addresses: PersonalDataHandler = {
  name: "addresses",
  async export(db, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return [];
    return db
      .selectFrom("addresses")
      .select(["street", "city", "state", "country", "phone", "created_at as createdAt"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    // Orders that named one keep their own snapshot; their address_id is set null by the foreign key.
    return affected(await trx.deleteFrom("addresses").where("user_id", "=", userId).executeTakeFirst());
  },
};

const orders: PersonalDataHandler = {
  name: "orders",
  async export(db, subject) {
    const ids = await orderIdsOf(db, subject);
    if (ids.length === 0) return [];
    const [rows, items, events] = await Promise.all([
      db
        .selectFrom("orders")
        .select([
          "id", "number", "channel", "status", "created_at", "ship_street", "ship_city", "ship_state", "ship_country", "phone",
          "delivery_method", "delivery_zone", "payment_method", "payment_status", "paid_at", "refunded_at", "subtotal", "shipping", "total",
        ])
        .where("id", "in", ids)
        .orderBy("id")
        .execute(),
      db.selectFrom("order_items").select(["order_id", "name", "size_label", "unit_price", "quantity"]).where("order_id", "in", ids).orderBy("id").execute(),
      db.selectFrom("order_events").select(["order_id", "status", "created_at"]).where("order_id", "in", ids).orderBy("created_at").orderBy("id").execute(),
    ]);
    return rows.map((o) => ({
      number: o.number,
      placedAt: o.created_at,
      channel: o.channel,
      status: o.status,
      deliveryAddress: o.ship_street ? { street: o.ship_street, city: o.ship_city, state: o.ship_state, country: o.ship_country } : null,
      phone: o.phone,
      delivery: { method: o.delivery_method, zone: o.delivery_zone },
      payment: { method: o.payment_method, status: o.payment_status, paidAt: o.paid_at, refundedAt: o.refunded_at },
      subtotalKobo: o.subtotal,
      shippingKobo: o.shipping,
      totalKobo: o.total,
      items: items
        .filter((i) => i.order_id === o.id)
        .map((i) => ({ name: i.name, size: i.size_label, unitPriceKobo: i.unit_price, quantity: i.quantity })),
      history: events.filter((e) => e.order_id === o.id).map((e) => ({ status: e.status, at: e.created_at })),
    }));
  },
  async erase(trx, subject) {
    const ids = await orderIdsOf(trx, subject);
    if (ids.length === 0) return 0;
    // Amounts, dates, items, status, payment and the delivery zone and state stay (the accounts and
    // reports need them); what points at the person goes. An account's orders keep pointing at its
    // anonymised row, so the customer counts stay the same.
    const result = await trx
      .updateTable("orders")
      .set({ ship_street: null, ship_city: null, phone: null, address_id: null, placed_from: null, payment_url: null })
      .where("id", "in", ids)
      .executeTakeFirst();
    return affected(result);
  },
};

const wishlist: PersonalDataHandler = {
  name: "wishlist",
  async export(db, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return [];
    return db
      .selectFrom("wishlist as w")
      .innerJoin("products as p", "p.id", "w.product_id")
      .select(["p.name as product", "p.slug", "w.created_at as addedAt"])
      .where("w.user_id", "=", userId)
      .orderBy("w.created_at")
      .execute();
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    return affected(await trx.deleteFrom("wishlist").where("user_id", "=", userId).executeTakeFirst());
  },
};

const reviews: PersonalDataHandler = {
  name: "reviews",
  async export(db, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return [];
    const rows = await db
      .selectFrom("reviews as r")
      .innerJoin("products as p", "p.id", "r.product_id")
      .select(["p.name as product", "r.rating", "r.body", "r.author", "r.created_at", "r.hidden_at"])
      .where("r.user_id", "=", userId)
      .orderBy("r.id")
      .execute();
    return rows.map((r) => ({ product: r.product, rating: r.rating, text: r.body, shownAs: r.author, writtenAt: r.created_at, hidden: r.hidden_at !== null }));
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    const ids = (await trx.selectFrom("reviews").select("id").where("user_id", "=", userId).execute()).map((r) => r.id);
    if (ids.length === 0) return 0;
    await trx.updateTable("reviews").set({ author: ERASED_REVIEW_AUTHOR }).where("id", "in", ids).execute();
    // The audit log names a hidden or shown review as "product: author": the author goes there too.
    const logged = await trx.selectFrom("audit_log").select(["id", "summary"]).where("entity", "=", "review").where("entity_id", "in", ids).execute();
    for (const entry of logged) {
      const product = entry.summary.includes(": ") ? entry.summary.slice(0, entry.summary.lastIndexOf(": ")) : entry.summary;
      await trx.updateTable("audit_log").set({ summary: `${product}: ${ERASED_REVIEW_AUTHOR}` }).where("id", "=", entry.id).execute();
    }
    return ids.length;
  },
};

const recentlyViewed: PersonalDataHandler = {
  name: "recentlyViewed",
  async export(db, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return [];
    return db
      .selectFrom("recently_viewed as v")
      .innerJoin("products as p", "p.id", "v.product_id")
      .select(["p.name as product", "p.slug", "v.viewed_at as viewedAt"])
      .where("v.user_id", "=", userId)
      .orderBy("v.seq", "desc")
      .execute();
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    return affected(await trx.deleteFrom("recently_viewed").where("user_id", "=", userId).executeTakeFirst());
  },
};

const carts: PersonalDataHandler = {
  name: "cart",
  async export(db, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return [];
    return db
      .selectFrom("carts as c")
      .innerJoin("cart_lines as l", "l.cart_id", "c.id")
      .innerJoin("products as p", "p.id", "l.product_id")
      .innerJoin("product_sizes as s", "s.id", "l.size_id")
      .select(["p.name as product", "s.label as size", "l.quantity", "l.created_at as addedAt"])
      .where("c.user_id", "=", userId)
      .orderBy("l.created_at")
      .execute();
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    // Its lines go with it (foreign key).
    return affected(await trx.deleteFrom("carts").where("user_id", "=", userId).executeTakeFirst());
  },
};

/** A back-in-stock request is an account's (by its id or its e-mail), or a guest's: an e-mail's without an account. */
const backInStock: PersonalDataHandler = {
  name: "backInStockRequests",
  async export(db, subject) {
    const rows = await db
      .selectFrom("back_in_stock_requests as b")
      .innerJoin("products as p", "p.id", "b.product_id")
      .leftJoin("product_sizes as s", "s.id", "b.size_id")
      .select(["p.name as product", "s.label as size", "b.email", "b.locale", "b.created_at", "b.notified_at"])
      .where((eb) =>
        subject.kind === "account"
          ? eb.or([eb("b.user_id", "=", subject.userId), eb("b.email", "=", subject.email)])
          : eb.and([eb("b.user_id", "is", null), eb("b.email", "=", subject.email)]),
      )
      .orderBy("b.id")
      .execute();
    return rows.map((r) => ({ product: r.product, size: r.size, email: r.email, language: r.locale, askedAt: r.created_at, alertedAt: r.notified_at }));
  },
  async erase(trx, subject) {
    const result = await trx
      .deleteFrom("back_in_stock_requests")
      .where((eb) =>
        subject.kind === "account"
          ? eb.or([eb("user_id", "=", subject.userId), eb("email", "=", subject.email)])
          : eb.and([eb("user_id", "is", null), eb("email", "=", subject.email)]),
      )
      .executeTakeFirst();
    return affected(result);
  },
};

/** The e-mails the shop wrote to the person: listed in the download, and removed (they name the person and their orders). */
const emails: PersonalDataHandler = {
  name: "emailsSent",
  async export(db, subject) {
    const rows = await db
      .selectFrom("mail_outbox")
      .select(["kind", "subject", "status", "created_at", "sent_at"])
      .where(sql<string>`lower(to_address)`, "=", subject.email)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ about: r.kind, subject: r.subject, status: r.status, queuedAt: r.created_at, sentAt: r.sent_at }));
  },
  async erase(trx, subject) {
    return affected(await trx.deleteFrom("mail_outbox").where(sql<string>`lower(to_address)`, "=", subject.email).executeTakeFirst());
  },
};

/** The audit log's entries about the account (a role change names it by e-mail) name it by number instead. */
const auditEntries: PersonalDataHandler = {
  name: "auditEntries",
  async export() {
    return undefined;
  },
  async erase(trx, subject) {
    const userId = userIdOf(subject);
    if (userId === null) return 0;
    const result = await trx.updateTable("audit_log").set({ summary: `#${userId}` }).where("entity", "=", "user").where("entity_id", "=", userId).executeTakeFirst();
    return affected(result);
  },
};

/**
 * Every table with personal data, in the order the download lists them. Erasure runs them in this
 * order too, in one transaction. Add a table here (export and erase) and both follow.
 */
export const HANDLERS: readonly PersonalDataHandler[] = [account, sessions, addresses, orders, wishlist, reviews, recentlyViewed, carts, backInStock, emails, auditEntries];

export interface PersonalDataExport {
  format: "unboxed-personal-data/1";
  generatedAt: string;
  shop: string;
  subject: { kind: DataSubject["kind"]; email: string };
  /** amounts are integer kobo (₦1 = 100 kobo); times are UTC */
  notes: string;
  data: Record<string, unknown>;
}

/** All the person's data, as one JSON-ready object. */
export async function exportPersonalData(db: Db, subject: DataSubject, shopName: string): Promise<PersonalDataExport> {
  const sections = await Promise.all(HANDLERS.map(async (h) => [h.name, await h.export(db, subject)] as const));
  return {
    format: "unboxed-personal-data/1",
    generatedAt: new Date().toISOString(),
    shop: shopName,
    subject: { kind: subject.kind, email: subject.email },
    notes: "Amounts are in kobo (100 kobo = 1 naira). Times are UTC (ISO 8601).",
    data: Object.fromEntries(sections.filter(([, value]) => value !== undefined)),
  };
}

/** Runs every handler's erasure inside the caller's transaction; answers the rows touched per section. */
export async function erasePersonalData(trx: Trx, subject: DataSubject): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const handler of HANDLERS) counts[handler.name] = await handler.erase(trx, subject);
  return counts;
}

/** The person's orders that the shop is still acting on: erasing now would leave a parcel with no one to deliver it to. */
export async function openOrders(db: Db | Trx, subject: DataSubject): Promise<string[]> {
  const ids = await orderIdsOf(db, subject);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("orders").select("number").where("id", "in", ids).where("status", "in", ["pending", "confirmed", "shipped"]).orderBy("id").execute();
  return rows.map((r) => r.number);
}

/** The number of the person's orders (kept without them after erasure). */
export async function orderNumbersOf(db: Db | Trx, subject: DataSubject): Promise<string[]> {
  const ids = await orderIdsOf(db, subject);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("orders").select("number").where("id", "in", ids).orderBy("id").execute();
  return rows.map((r) => r.number);
}
