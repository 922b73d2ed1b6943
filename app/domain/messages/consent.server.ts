import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
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
