import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { isPostgres } from "~/db/client.server";
import type { Database } from "~/db/schema";
import { DEFAULT_LOCALE, isLocale } from "~/lib/i18n";

/**
 * Marketing consent (docs/decisions/220). Order messages are a service and need none. Cart reminders,
 * back-in-stock messages by WhatsApp or SMS and newsletters need an explicit opt-in: an unticked box
 * at registration, checkout or in the profile, kept with its time and the words shown. Each opt-in
 * has a token for the one-click stop link every marketing message carries; withdrawing ends it.
 */

export type ConsentSource = "registration" | "checkout" | "profile";
type Db = Kysely<Database> | Transaction<Database>;

export interface Consent {
  id: number;
  token: string;
  grantedAt: string;
  source: ConsentSource;
  wording: string;
}

/** The account's current opt-in, if any. */
export async function activeConsent(db: Db, userId: number): Promise<Consent | null> {
  const row = await db
    .selectFrom("marketing_consents")
    .select(["id", "token", "granted_at", "source", "wording"])
    .where("user_id", "=", userId)
    .where("withdrawn_at", "is", null)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? { id: row.id, token: row.token, grantedAt: row.granted_at, source: row.source, wording: row.wording } : null;
}

/** Records an opt-in (a no-op when one is in force already). */
export async function grantConsent(
  db: Db,
  input: { userId: number | null; email?: string | null; phone?: string | null; source: ConsentSource; locale: string | null; wording: string },
  now = new Date(),
): Promise<Consent> {
  if (input.userId !== null) {
    const existing = await activeConsent(db, input.userId);
    if (existing) return existing;
  }
  const locale = isLocale(input.locale) ? input.locale : DEFAULT_LOCALE;
  const row = {
    user_id: input.userId,
    // A guest's contact is kept with the opt-in; an account's lives on the account.
    contact_email: input.userId === null ? (input.email ?? null) : null,
    contact_phone: input.userId === null ? (input.phone ?? null) : null,
    source: input.source,
    // The words the shopper saw (consent-form.server.ts writes them in the shopper's language).
    wording: input.wording.slice(0, 1000),
    locale,
    token: randomBytes(18).toString("base64url"),
    granted_at: now.toISOString(),
    withdrawn_at: null,
    withdrawn_via: null,
  };
  const inserted = await db.insertInto("marketing_consents").values(row).returning("id").executeTakeFirstOrThrow();
  return { id: inserted.id, token: row.token, grantedAt: row.granted_at, source: row.source, wording: row.wording };
}

/** Withdraws the account's opt-in, from the profile. */
export async function withdrawConsent(db: Db, userId: number, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("marketing_consents")
    .set({ withdrawn_at: now.toISOString(), withdrawn_via: "profile" })
    .where("user_id", "=", userId)
    .where("withdrawn_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export async function knownConsentToken(db: Db, token: string): Promise<boolean> {
  if (!TOKEN.test(token)) return false;
  return Boolean(await db.selectFrom("marketing_consents").select("id").where("token", "=", token).executeTakeFirst());
}

/**
 * The stop link of a marketing message: ends that opt-in and, for an account, every other one in
 * force. True when the token is known (stopping twice is fine).
 */
export async function withdrawByToken(db: Kysely<Database>, token: string, now = new Date()): Promise<boolean> {
  if (!TOKEN.test(token)) return false;
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("marketing_consents").select(["id", "user_id"]).where("token", "=", token).executeTakeFirst();
    if (!row) return false;
    await trx
      .updateTable("marketing_consents")
      .set({ withdrawn_at: now.toISOString(), withdrawn_via: "link" })
      .where("withdrawn_at", "is", null)
      .where((eb) => (row.user_id === null ? eb("id", "=", row.id) : eb.or([eb("id", "=", row.id), eb("user_id", "=", row.user_id)])))
      .execute();
    return true;
  });
}

export const stopLink = (publicUrl: string, token: string) => `${publicUrl}/messages/stop?token=${token}`;

// ---------------------------------------------------------------------------------------------
// A guest's opt-in at checkout, kept on the visitor's cart (docs/decisions/220)

export interface GuestConsentInput {
  cartId: string;
  /** the box as posted: ticked, or not (unticking withdraws an opt-in given on this cart) */
  on: boolean;
  /** checked by the caller: a name, and a valid e-mail (lower case) and/or Nigerian mobile (E.164), or null */
  name: string;
  email: string | null;
  phone: string | null;
  locale: string | null;
  wording: string;
}

type GuestConsentRow = { id: number; contact_email: string | null; contact_phone: string | null; contact_name: string | null; locale: string; wording: string };

async function guestConsentRow(db: Db, cartId: string): Promise<GuestConsentRow | undefined> {
  return db
    .selectFrom("marketing_consents")
    .select(["id", "contact_email", "contact_phone", "contact_name", "locale", "wording"])
    .where("cart_id", "=", cartId)
    .where("user_id", "is", null)
    .where("withdrawn_at", "is", null)
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/** Whether the visitor's cart carries a guest's opt-in in force (the checkout shows its box ticked). */
export async function guestConsentOnCart(db: Db, cartId: string | null): Promise<boolean> {
  return cartId ? Boolean(await guestConsentRow(db, cartId)) : false;
}

/**
 * Keeps what a guest's checkout form said about reminders on their cart, whether or not the order goes
 * through: ticked, with a name and an e-mail or a number to reach them, it records the opt-in (time,
 * words, language, contact); a changed contact or language replaces it; unticked, it withdraws it.
 * Answers what it did.
 */
export async function keepGuestConsent(db: Kysely<Database>, input: GuestConsentInput, now = new Date()): Promise<"granted" | "kept" | "withdrawn" | "none"> {
  const name = input.name.trim().slice(0, 100);
  const reachable = name !== "" && (input.email !== null || input.phone !== null);
  const locale = isLocale(input.locale) ? input.locale : DEFAULT_LOCALE;
  // Unticked on a cart that carries no opt-in (most forms): nothing to write.
  if (!input.on && !(await guestConsentRow(db, input.cartId))) return "none";
  return db.transaction().execute(async (trx) => {
    // One form of this cart at a time (PostgreSQL; SQLite writes one transaction at a time anyway).
    if (isPostgres(trx)) await trx.selectFrom("carts").select("id").where("id", "=", input.cartId).forUpdate().executeTakeFirst();
    const current = await guestConsentRow(trx, input.cartId);
    const same =
      current &&
      current.contact_email === input.email &&
      current.contact_phone === input.phone &&
      current.contact_name === name &&
      current.locale === locale &&
      current.wording === input.wording.slice(0, 1000);
    if (input.on && same) return "kept";
    // Ticked but with no way to reach the guest yet: what was given before stays until the form is whole.
    if (input.on && !reachable) return current ? "kept" : "none";
    if (current) {
      await trx
        .updateTable("marketing_consents")
        .set({ withdrawn_at: now.toISOString(), withdrawn_via: "checkout" })
        .where("cart_id", "=", input.cartId)
        .where("user_id", "is", null)
        .where("withdrawn_at", "is", null)
        .execute();
    }
    if (!input.on) return current ? "withdrawn" : "none";
    await trx
      .insertInto("marketing_consents")
      .values({
        user_id: null,
        cart_id: input.cartId,
        contact_name: name,
        contact_email: input.email,
        contact_phone: input.phone,
        source: "checkout",
        wording: input.wording.slice(0, 1000),
        locale,
        token: randomBytes(18).toString("base64url"),
        granted_at: now.toISOString(),
        withdrawn_at: null,
        withdrawn_via: null,
      })
      .execute();
    return "granted";
  });
}

/** A guest's opt-in in force on this cart, for its reminder. */
export async function guestConsent(db: Db, consentId: number, cartId: string): Promise<(Consent & { name: string; email: string | null; phone: string | null; locale: string }) | null> {
  const row = await db
    .selectFrom("marketing_consents")
    .select(["id", "token", "granted_at", "source", "wording", "contact_name", "contact_email", "contact_phone", "locale"])
    .where("id", "=", consentId)
    .where("cart_id", "=", cartId)
    .where("user_id", "is", null)
    .where("withdrawn_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    token: row.token,
    grantedAt: row.granted_at,
    source: row.source,
    wording: row.wording,
    name: row.contact_name ?? "",
    email: row.contact_email,
    phone: row.contact_phone,
    locale: row.locale,
  };
}
