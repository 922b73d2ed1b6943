import { randomBytes } from "node:crypto";
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

/**
 * The subject with what points at them, found once before any handler runs (the account's handler
 * forgets the phone the others look for): their orders, and the phone numbers known to be theirs
 * (the account's, its addresses', their orders', their consents'). A guest's orders are the ones
 * placed without an account under the confirmed e-mail, and their numbers are the ones on those orders.
 */
export type Person = DataSubject & { orderIds: number[]; phones: string[] };

export interface PersonalDataHandler {
  /** the section's name in the download */
  name: string;
  /** the tables whose personal columns this handler exports and erases (the schema check reads it) */
  tables: readonly (keyof Database)[];
  /** the rows, as the person may read them */
  export(db: Db, person: Person): Promise<unknown>;
  /** removes or anonymises them inside the erasure's transaction; answers how many rows it touched */
  erase(trx: Trx, person: Person): Promise<number>;
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
 * The orders that are the person's: an account's own, and for an account or a guest the orders placed
 * without an account under the same (confirmed) e-mail.
 */
async function orderIdsOf(db: Db | Trx, subject: DataSubject): Promise<number[]> {
  const rows = await db
    .selectFrom("orders")
    .select("id")
    .where((eb) => {
      const asGuest = eb.and([eb("user_id", "is", null), eb(sql<string>`lower(email)`, "=", subject.email)]);
      return subject.kind === "account" ? eb.or([eb("user_id", "=", subject.userId), asGuest]) : asGuest;
    })
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

/** The phone numbers known to be the person's (E.164), from rows that are theirs by account or confirmed e-mail. */
async function phonesOf(db: Db | Trx, subject: DataSubject, orderIds: number[]): Promise<string[]> {
  const found = new Set<string>();
  const add = (rows: { phone: string | null }[]) => rows.forEach((r) => r.phone && found.add(r.phone));
  if (orderIds.length) add(await db.selectFrom("orders").select("phone").where("id", "in", orderIds).execute());
  add(
    await db
      .selectFrom("marketing_consents")
      .select("contact_phone as phone")
      .where((eb) => (subject.kind === "account" ? eb.or([eb("user_id", "=", subject.userId), eb(sql<string>`lower(contact_email)`, "=", subject.email)]) : eb(sql<string>`lower(contact_email)`, "=", subject.email)))
      .execute(),
  );
  if (subject.kind === "account") {
    add(await db.selectFrom("users").select("phone").where("id", "=", subject.userId).execute());
    add(await db.selectFrom("addresses").select("phone").where("user_id", "=", subject.userId).execute());
  }
  return [...found].sort();
}

/** The subject, with their orders and phone numbers found. */
export async function resolvePerson(db: Db | Trx, subject: DataSubject): Promise<Person> {
  const orderIds = await orderIdsOf(db, subject);
  return { ...subject, orderIds, phones: await phonesOf(db, subject, orderIds) };
}

/** Rows that are the person's by account, confirmed e-mail or one of their numbers. */
function belongsTo(person: Person, columns: { user?: string; email?: string; phone?: string; order?: string }) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (eb: any) => {
    const either = [];
    if (columns.user && person.kind === "account") either.push(eb(columns.user, "=", person.userId));
    if (columns.email) either.push(eb(sql`lower(${sql.ref(columns.email)})`, "=", person.email));
    if (columns.phone && person.phones.length) either.push(eb(columns.phone, "in", person.phones));
    if (columns.order && person.orderIds.length) either.push(eb(columns.order, "in", person.orderIds));
    return eb.or(either);
  };
}

const account: PersonalDataHandler = {
  name: "account",
  tables: ["users", "password_resets", "pending_registrations"],
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
  tables: ["sessions"],
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
  tables: ["addresses"],
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
  tables: ["orders"],
  async export(db, subject) {
    const ids = subject.orderIds;
    if (ids.length === 0) return [];
    const [rows, items, events] = await Promise.all([
      db
        .selectFrom("orders")
        .select([
          "id", "number", "channel", "status", "created_at", "customer_name", "email", "ship_street", "ship_city", "ship_state", "ship_country", "phone",
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
      ...(o.email ? { name: o.customer_name, email: o.email } : {}),
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
    const ids = subject.orderIds;
    if (ids.length === 0) return 0;
    // Amounts, dates, items, status, payment and the delivery zone and state stay (the accounts and
    // reports need them); what points at the person goes. An account's orders keep pointing at its
    // anonymised row, so the customer counts stay the same.
    const result = await trx
      .updateTable("orders")
      .set({ ship_street: null, ship_city: null, phone: null, email: null, customer_name: null, address_id: null, placed_from: null, payment_url: null, access_token_hash: null })
      .where("id", "in", ids)
      .executeTakeFirst();
    return affected(result);
  },
};

const wishlist: PersonalDataHandler = {
  name: "wishlist",
  tables: ["wishlist"],
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
  tables: ["reviews"],
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
  tables: ["recently_viewed"],
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
  tables: ["carts"],
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
  tables: ["back_in_stock_requests"],
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
  tables: ["mail_outbox"],
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

/** The WhatsApp and SMS messages the shop sent the person: listed in the download, and removed (they carry the number and the order). */
const messages: PersonalDataHandler = {
  name: "messagesSent",
  tables: ["message_outbox"],
  async export(db, person) {
    const rows = await db
      .selectFrom("message_outbox")
      .select(["channel", "kind", "to_phone", "locale", "text_body", "status", "created_at", "sent_at", "delivered_at"])
      .where(belongsTo(person, { user: "user_id", phone: "to_phone", order: "order_id" }))
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ channel: r.channel, about: r.kind, to: r.to_phone, language: r.locale, text: r.text_body, status: r.status, queuedAt: r.created_at, sentAt: r.sent_at, deliveredAt: r.delivered_at }));
  },
  async erase(trx, person) {
    return affected(await trx.deleteFrom("message_outbox").where(belongsTo(person, { user: "user_id", phone: "to_phone", order: "order_id" })).executeTakeFirst());
  },
};

/** Marketing consents, given and withdrawn, with the words the person agreed to: listed, and removed. */
const consents: PersonalDataHandler = {
  name: "marketingConsents",
  tables: ["marketing_consents"],
  async export(db, person) {
    const rows = await db
      .selectFrom("marketing_consents")
      .select(["source", "wording", "locale", "contact_name", "contact_email", "contact_phone", "granted_at", "withdrawn_at", "withdrawn_via"])
      .where(belongsTo(person, { user: "user_id", email: "contact_email", phone: "contact_phone" }))
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ given: r.source, wording: r.wording, language: r.locale, name: r.contact_name, email: r.contact_email, phone: r.contact_phone, grantedAt: r.granted_at, withdrawnAt: r.withdrawn_at, withdrawnVia: r.withdrawn_via }));
  },
  async erase(trx, person) {
    return affected(await trx.deleteFrom("marketing_consents").where(belongsTo(person, { user: "user_id", email: "contact_email", phone: "contact_phone" })).executeTakeFirst());
  },
};

/**
 * Cart reminders: listed; erasure keeps the row without the contact (the dashboard counts reminders
 * sent, carts recovered and their revenue) and kills its restore link.
 */
const cartReminders: PersonalDataHandler = {
  name: "cartReminders",
  tables: ["cart_reminders"],
  async export(db, person) {
    const rows = await db
      .selectFrom("cart_reminders")
      .select(["channel", "contact_email", "contact_phone", "sent_at", "restored_at", "recovered_at"])
      .where(belongsTo(person, { user: "user_id", email: "contact_email", phone: "contact_phone", order: "order_id" }))
      .orderBy("sent_at")
      .execute();
    return rows.map((r) => ({ channel: r.channel, email: r.contact_email, phone: r.contact_phone, sentAt: r.sent_at, restoredAt: r.restored_at, orderedAt: r.recovered_at }));
  },
  async erase(trx, person) {
    const rows = await trx
      .selectFrom("cart_reminders")
      .select("cart_id")
      .where(belongsTo(person, { user: "user_id", email: "contact_email", phone: "contact_phone", order: "order_id" }))
      .execute();
    for (const row of rows) {
      await trx
        .updateTable("cart_reminders")
        .set({ contact_email: null, contact_phone: null, consent_id: null, restore_token: `erased-${randomBytes(16).toString("hex")}` })
        .where("cart_id", "=", row.cart_id)
        .execute();
    }
    return rows.length;
  },
};

/** Discount codes used: listed; erasure forgets the e-mail and number (the code's count of uses stays). */
const promotionUses: PersonalDataHandler = {
  name: "discountCodesUsed",
  tables: ["promotion_uses"],
  async export(db, person) {
    return db
      .selectFrom("promotion_uses as u")
      .innerJoin("promotions as p", "p.id", "u.promotion_id")
      .select(["p.code", "u.discount as discountKobo", "u.created_at as usedAt", "u.released_at as givenBackAt"])
      .where(belongsTo(person, { user: "u.user_id", email: "u.email", phone: "u.phone", order: "u.order_id" }))
      .orderBy("u.id")
      .execute();
  },
  async erase(trx, person) {
    return affected(
      await trx
        .updateTable("promotion_uses")
        .set({ email: null, phone: null })
        .where(belongsTo(person, { user: "user_id", email: "email", phone: "phone", order: "order_id" }))
        .executeTakeFirst(),
    );
  },
};

/** The audit log's entries about the account (a role change names it by e-mail) name it by number instead. */
const auditEntries: PersonalDataHandler = {
  name: "auditEntries",
  tables: ["audit_log"],
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
 * Gift cards sent to the person: listed with what they were sent. Erasure keeps the card (it is money,
 * spendable by whoever holds its code) without the recipient's name, e-mail or message.
 */
const giftCards: PersonalDataHandler = {
  name: "giftCardsReceived",
  tables: ["gift_cards"],
  async export(db, person) {
    const rows = await db
      .selectFrom("gift_cards")
      .select(["recipient_name", "recipient_email", "message", "initial_amount", "expires_at", "created_at"])
      .where(belongsTo(person, { email: "recipient_email" }))
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ name: r.recipient_name, email: r.recipient_email, message: r.message, amountKobo: r.initial_amount, expiresAt: r.expires_at, sentAt: r.created_at }));
  },
  async erase(trx, person) {
    return affected(
      await trx
        .updateTable("gift_cards")
        .set({ recipient_name: ERASED_REVIEW_AUTHOR, recipient_email: "erased@erased.invalid", message: null })
        .where(belongsTo(person, { email: "recipient_email" }))
        .executeTakeFirst(),
    );
  },
};

/**
 * The account's store credit: every movement listed. Erasure keeps the amounts (the shop's books) and
 * drops the notes, which staff may have written about the person.
 */
const storeCredit: PersonalDataHandler = {
  name: "storeCredit",
  tables: ["credit_ledger"],
  async export(db, person) {
    if (person.kind !== "account") return [];
    const rows = await db.selectFrom("credit_ledger").select(["amount", "reason", "note", "created_at"]).where("user_id", "=", person.userId).orderBy("id").execute();
    return rows.map((r) => ({ amountKobo: r.amount, reason: r.reason, note: r.note, at: r.created_at }));
  },
  async erase(trx, person) {
    if (person.kind !== "account") return 0;
    return affected(await trx.updateTable("credit_ledger").set({ note: null }).where("user_id", "=", person.userId).where("note", "is not", null).executeTakeFirst());
  },
};

/**
 * Every table with personal data, in the order the download lists them. Erasure runs them in this
 * order too, in one transaction. Add a table here (export and erase) and both follow.
 */
export const HANDLERS: readonly PersonalDataHandler[] = [
  account, sessions, addresses, orders, wishlist, reviews, recentlyViewed, carts, cartReminders, backInStock, emails, messages, consents, promotionUses, giftCards, storeCredit, auditEntries,
];

/**
 * Tables with a column that looks personal (a name, e-mail, phone or address) that hold no one's
 * personal data, or keep it on purpose, and why. The schema check (personal-data.test.ts) fails on a
 * table with such a column that is neither here nor in a handler's `tables`.
 */
export const NOT_PERSONAL: Readonly<Record<string, string>> = {
  brands: "a brand's name",
  categories: "a category's name",
  products: "a product's name",
  product_search: "the search index of product and brand names",
  order_items: "a product's name when ordered",
  delivery_zones: "a zone's name",
  sales: "an automatic sale's name (docs/decisions/225)",
  delivery_settings: "the shop's pick-up address",
  catalogue_imports: "the imported file's name",
  staff_invitations: "staff, not shoppers (docs/decisions/222); an invitation expires",
  privacy_requests: "the used request is the record that the shop acted on it; unused ones are removed by the erasure",
};

/** The pattern of a column name that may hold a person's data. */
const PERSONAL_COLUMN = /(^|_)(e?mail|phone|name|address|street|city|author)($|_)/;

/**
 * The tables that have a personal-looking column and neither a handler nor a reason to be left out:
 * a new table holding a person's data must be added to HANDLERS (or to NOT_PERSONAL, saying why).
 */
export async function unhandledPersonalTables(db: Db): Promise<string[]> {
  const handled = new Set<string>(HANDLERS.flatMap((h) => h.tables));
  const tables = await db.introspection.getTables();
  return tables
    .filter((t) => !t.name.startsWith("kysely_") && !t.name.startsWith("product_search_"))
    .filter((t) => t.columns.some((c) => PERSONAL_COLUMN.test(c.name)))
    .map((t) => t.name)
    .filter((name) => !handled.has(name) && !(name in NOT_PERSONAL))
    .sort();
}

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
  const person = await resolvePerson(db, subject);
  const sections = await Promise.all(HANDLERS.map(async (h) => [h.name, await h.export(db, person)] as const));
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
  const person = await resolvePerson(trx, subject);
  const counts: Record<string, number> = {};
  for (const handler of HANDLERS) counts[handler.name] = await handler.erase(trx, person);
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
