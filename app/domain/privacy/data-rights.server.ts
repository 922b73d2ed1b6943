import { createHash, randomBytes } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { formatLagosTime } from "~/lib/dates";
import { isLocale, type Locale } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { verifyPassword } from "~/platform/password.server";
import { logSecurityEvent } from "~/platform/security-log.server";
import { forgotPasswordSchema, MAX_PASSWORD_LENGTH, normaliseEmail } from "../accounts/accounts.server";
import { recordAudit } from "../backoffice/audit.server";
import { queueMail } from "../operations/mail-outbox.server";
import { consumeAttempt, withinLimit } from "../operations/rate-limits.server";
import { type DataSubject, erasePersonalData, exportPersonalData, openOrders, orderNumbersOf, type PersonalDataExport } from "./personal-data.server";
import { erasureNoticeEmail, guestLinkEmail } from "./privacy-mail.server";

/**
 * The shopper's rights under Nigeria's Data Protection Act 2023 (docs/decisions/221): a signed-in
 * shopper downloads or erases their account from the profile (erasure asks for the password); a guest
 * asks by e-mail and acts through the link it sends. What each table gives and loses is said once, in
 * personal-data.server.ts.
 */

type RightsContext = Pick<AppLoadContext, "db" | "engine" | "config" | "clientIp">;
type Trx = Transaction<Database>;

/** How long a guest's link works. */
export const GUEST_LINK_TTL_MS = 60 * 60 * 1000;
/** How long the shop keeps an order's record (amounts, dates, items) for its accounts, in years. */
export const ORDER_RECORD_YEARS = 6;

/** The download's file name: the shop's, the date, no name of the person. */
export function downloadFileName(now = new Date()): string {
  return `unboxed-my-data-${now.toISOString().slice(0, 10)}.json`;
}

/** The download as an HTTP answer: a JSON file the browser saves, kept by no cache. */
export function downloadResponse(data: PersonalDataExport): Response {
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${downloadFileName()}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export async function accountData(context: Pick<RightsContext, "db" | "config">, user: { id: number; email: string }): Promise<PersonalDataExport> {
  return exportPersonalData(context.db, { kind: "account", userId: user.id, email: user.email }, context.config.shop.name);
}

/** Tells every owner address, in the erasure's transaction, and writes the audit entry. */
async function recordErasure(trx: Trx, context: Pick<RightsContext, "config">, input: { actorId: number | null; userId: number | null; who: string; orders: string[]; counts: Record<string, number> }) {
  const now = new Date().toISOString();
  await recordAudit(trx, {
    actorId: input.actorId,
    action: "erase",
    entity: "user",
    entityId: input.userId,
    summary: input.who,
    changes: Object.fromEntries(Object.entries(input.counts).filter(([, n]) => n > 0).map(([name, n]) => [`erased.${name}`, [null, n]])),
  });
  // The owner reads it in English, like the other alerts; it names the record, never the person.
  const message = erasureNoticeEmail(translatorFor("en"), { who: input.who, orders: input.orders, at: formatLagosTime(now, "en") });
  for (const to of context.config.shop.ownerEmails) await queueMail(trx, { to, ...message, kind: "privacy-erasure" });
}

export type EraseAccountResult =
  | { ok: true; orders: string[] }
  | { ok: false; reason: "passwordRequired" | "wrongPassword" | "staff" }
  | { ok: false; reason: "openOrders"; orders: string[] };

/**
 * Erases a signed-in customer's personal data at once, after checking their password (paced per
 * account: TooManyAttempts past the limit). Refused for staff (an owner is removed by another owner)
 * and while an order is still on its way. The account can never sign in again; its sessions end.
 */
export async function eraseAccount(context: RightsContext, input: { userId: number; password: string }): Promise<EraseAccountResult> {
  if (!input.password) return { ok: false, reason: "passwordRequired" };
  const user = await context.db.selectFrom("users").select(["id", "email", "password_hash", "role", "erased_at"]).where("id", "=", input.userId).executeTakeFirst();
  if (!user || user.erased_at) return { ok: false, reason: "wrongPassword" };
  if (user.role !== "customer") return { ok: false, reason: "staff" };
  await consumeAttempt(context, "privacyErasePassword", String(user.id));
  if (input.password.length > MAX_PASSWORD_LENGTH || !(await verifyPassword(user.password_hash, input.password))) {
    logSecurityEvent("privacy_erase_refused", { userId: user.id, ip: context.clientIp });
    return { ok: false, reason: "wrongPassword" };
  }
  const subject: DataSubject = { kind: "account", userId: user.id, email: user.email };
  const result = await context.db.transaction().execute(async (trx): Promise<EraseAccountResult> => {
    // Read again inside the transaction that acts: an order placed a moment ago counts.
    const open = await openOrders(trx, subject);
    if (open.length) return { ok: false, reason: "openOrders", orders: open };
    const orders = await orderNumbersOf(trx, subject);
    const counts = await erasePersonalData(trx, subject);
    await recordErasure(trx, context, { actorId: user.id, userId: user.id, who: `customer #${user.id}`, orders, counts });
    return { ok: true, orders };
  });
  if (result.ok) logSecurityEvent("privacy_erased", { userId: user.id, ip: context.clientIp, orders: result.orders.length });
  return result;
}

export type EraseByOwnerResult =
  | { ok: true; orders: string[] }
  | { ok: false; reason: "notFound" | "erased" | "staff" }
  | { ok: false; reason: "openOrders"; orders: string[] };

/**
 * The owner erases a customer's personal data from the customer's page, when the shopper asked in
 * writing and cannot use the profile (the caller checks the owner's permission). The same rules and
 * effects as the shopper's own erasure; the audit log names the owner.
 */
export async function eraseCustomerForShopper(context: RightsContext, input: { actorId: number; userId: number }): Promise<EraseByOwnerResult> {
  return context.db.transaction().execute(async (trx): Promise<EraseByOwnerResult> => {
    const user = await trx.selectFrom("users").select(["id", "email", "role", "erased_at"]).where("id", "=", input.userId).executeTakeFirst();
    if (!user) return { ok: false, reason: "notFound" };
    if (user.erased_at) return { ok: false, reason: "erased" };
    if (user.role !== "customer") return { ok: false, reason: "staff" };
    const subject: DataSubject = { kind: "account", userId: user.id, email: user.email };
    const open = await openOrders(trx, subject);
    if (open.length) return { ok: false, reason: "openOrders", orders: open };
    const orders = await orderNumbersOf(trx, subject);
    const counts = await erasePersonalData(trx, subject);
    await recordErasure(trx, context, { actorId: input.actorId, userId: user.id, who: `customer #${user.id}`, orders, counts });
    logSecurityEvent("privacy_erased", { userId: user.id, actorId: input.actorId, ip: context.clientIp, orders: orders.length });
    return { ok: true, orders };
  });
}

// ---------------------------------------------------------------------------------------------
// Guests: a link e-mailed to the address proves it is theirs.

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type GuestRequestResult = { ok: true } | { ok: false; error: string };

/**
 * Mails a link to the address (if it is one), answering the same whether or not the shop holds
 * anything under it. Throws TooManyAttempts past the per-IP limit; past the per-address limit it
 * answers as usual and sends nothing.
 */
export async function requestGuestLink(context: RightsContext, input: { email: string; locale: Locale }): Promise<GuestRequestResult> {
  const parsed = forgotPasswordSchema.safeParse({ email: input.email });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  await consumeAttempt(context, "privacyRequestIp", context.clientIp);
  const email = normaliseEmail(parsed.data.email);
  const mayMail = await withinLimit(context, "privacyRequestAddress", email);
  logSecurityEvent("privacy_link_requested", { ip: context.clientIp, sent: mayMail });
  if (!mayMail) return { ok: true };
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const link = `${context.config.publicUrl}/privacy/confirm?token=${token}`;
  const message = guestLinkEmail(translatorFor(input.locale), { link, minutes: GUEST_LINK_TTL_MS / 60_000 });
  await context.db.transaction().execute(async (trx) => {
    // Spent and expired links of this address are tidied; those still valid keep working.
    await trx
      .deleteFrom("privacy_requests")
      .where("email", "=", email)
      .where((eb) => eb.or([eb("used_at", "is not", null), eb("expires_at", "<=", new Date(now).toISOString())]))
      .execute();
    await trx
      .insertInto("privacy_requests")
      .values({ token_hash: hashToken(token), email, locale: input.locale, created_at: new Date(now).toISOString(), expires_at: new Date(now + GUEST_LINK_TTL_MS).toISOString(), used_at: null })
      .execute();
    await queueMail(trx, { to: email, ...message, kind: "privacy-link" });
  });
  return { ok: true };
}

export type GuestLinkState =
  | { state: "valid"; email: string; locale: Locale; hasAccount: boolean }
  | { state: "expired" | "used" | "invalid" };

/** What a guest's link is worth now. An address that has an account is told to sign in instead. */
export async function guestLinkState(context: Pick<RightsContext, "db">, token: string | null | undefined): Promise<GuestLinkState> {
  if (!token || !TOKEN_PATTERN.test(token)) return { state: "invalid" };
  const row = await context.db.selectFrom("privacy_requests").select(["email", "locale", "expires_at", "used_at"]).where("token_hash", "=", hashToken(token)).executeTakeFirst();
  if (!row) return { state: "invalid" };
  if (row.used_at) return { state: "used" };
  if (Date.parse(row.expires_at) <= Date.now()) return { state: "expired" };
  const account = await context.db.selectFrom("users").select("id").where("email", "=", row.email).where("erased_at", "is", null).executeTakeFirst();
  return { state: "valid", email: row.email, locale: isLocale(row.locale) ? row.locale : "en", hasAccount: Boolean(account) };
}

/** Everything held under a guest's confirmed address; null when the link is not (or no longer) valid for it. */
export async function guestData(context: Pick<RightsContext, "db" | "config">, token: string | null | undefined): Promise<PersonalDataExport | null> {
  const link = await guestLinkState(context, token);
  if (link.state !== "valid" || link.hasAccount) return null;
  return exportPersonalData(context.db, { kind: "guest", email: link.email }, context.config.shop.name);
}

export type EraseGuestResult = { ok: true; orders: string[] } | { ok: false; reason: "expired" | "used" | "invalid" | "hasAccount" | "openOrders"; orders?: string[] };

/**
 * Erases what is held under a guest's confirmed address, using the link up. Two erasures with the same
 * link at once: the one that marks it used erases, the other is told it was used.
 */
export async function eraseGuestData(context: RightsContext, token: string | null | undefined): Promise<EraseGuestResult> {
  const link = await guestLinkState(context, token);
  if (link.state !== "valid") return { ok: false, reason: link.state };
  if (link.hasAccount) return { ok: false, reason: "hasAccount" };
  const subject: DataSubject = { kind: "guest", email: link.email };
  return context.db.transaction().execute(async (trx): Promise<EraseGuestResult> => {
    const open = await openOrders(trx, subject);
    if (open.length) return { ok: false, reason: "openOrders", orders: open };
    const used = await trx
      .updateTable("privacy_requests")
      .set({ used_at: new Date().toISOString() })
      .where("token_hash", "=", hashToken(token!))
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return { ok: false, reason: "used" };
    const orders = await orderNumbersOf(trx, subject);
    const counts = await erasePersonalData(trx, subject);
    // The other links of the address have nothing left to show.
    await trx.deleteFrom("privacy_requests").where("email", "=", link.email).where("token_hash", "!=", hashToken(token!)).execute();
    await recordErasure(trx, context, { actorId: null, userId: null, who: "guest (e-mail confirmed)", orders, counts });
    logSecurityEvent("privacy_erased", { guest: true, ip: context.clientIp, orders: orders.length });
    return { ok: true, orders };
  });
}
