import { createHash, randomBytes, randomInt } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import type { AppLoadContext } from "react-router";
import type { Db } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { qrPath } from "~/platform/qr.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { logSecurityEvent } from "~/platform/security-log.server";
import { recordAudit } from "../backoffice/audit.server";
import { attemptsMade, clearAttempts, consumeAttempt, countAttempt, refundAttempt, SIGN_IN_FREE_ATTEMPTS, takeTurn, TooManyAttempts } from "../operations/rate-limits.server";

/**
 * The staff's second factor (docs/decisions/222): a TOTP authenticator app (RFC 6238, 6 digits, 30 s,
 * otplib) confirmed by a first code, and ten single-use recovery codes kept as hashes. Owners and
 * managers must have one, every staff role when the owner says so, after a grace of
 * SECOND_FACTOR_GRACE_DAYS from becoming staff (or from the owner's requirement).
 */

/** Seconds either side of now a code is accepted for: the step before and after the current one. */
export const TOTP_WINDOW_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
export const SECOND_FACTOR_GRACE_DAYS = 7;
/** How long the sign-in waits for its second factor once the password was right. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const ISSUER = "Unboxed";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

// ---------------------------------------------------------------------------------------------
// Who must have one

const isStaff = (role: Role) => role !== "customer";

/** Roles that always need a second factor; the others when the owner requires it of every staff role. */
const ALWAYS: readonly Role[] = ["owner", "manager"];

export type SecondFactorDue = { state: "none" } | { state: "grace"; until: string } | { state: "required" };

/** When the owner required a second factor of every staff role, or null. */
export async function secondFactorForAllSince(db: Db): Promise<string | null> {
  const row = await db.selectFrom("staff_settings").select("second_factor_all_since").where("id", "=", 1).executeTakeFirst();
  return row?.second_factor_all_since ?? null;
}

/**
 * Whether this account must set up a second factor, and by when: none (not staff, already has one,
 * or not asked of its role), grace (may still use the admin until `until`) or required (now).
 */
export function secondFactorDue(
  account: { role: Role; secondFactor: boolean; staffSince: string },
  allSince: string | null,
  now = new Date(),
): SecondFactorDue {
  if (!isStaff(account.role) || account.secondFactor) return { state: "none" };
  if (!ALWAYS.includes(account.role) && allSince === null) return { state: "none" };
  const from = ALWAYS.includes(account.role) ? account.staffSince : [account.staffSince, allSince!].sort().at(-1)!;
  const until = new Date(Date.parse(from) + SECOND_FACTOR_GRACE_DAYS * DAY_MS);
  return until.getTime() > now.getTime() ? { state: "grace", until: until.toISOString() } : { state: "required" };
}

/** The same, reading the owner's setting only when the role needs it. */
export async function secondFactorDueFor(db: Db, account: { role: Role; secondFactor: boolean; staffSince: string }, now = new Date()): Promise<SecondFactorDue> {
  if (!isStaff(account.role) || account.secondFactor) return { state: "none" };
  const allSince = ALWAYS.includes(account.role) ? null : await secondFactorForAllSince(db);
  return secondFactorDue(account, allSince, now);
}

/** Whether the account must keep its second factor (it may not turn it off). */
export async function mustKeepSecondFactor(db: Db, role: Role): Promise<boolean> {
  if (!isStaff(role)) return false;
  return ALWAYS.includes(role) || (await secondFactorForAllSince(db)) !== null;
}

// ---------------------------------------------------------------------------------------------
// Setting it up

export interface SecondFactorSetup {
  enabled: boolean;
  /** while not enabled: the secret to type in, its otpauth URI and its QR code */
  secret: string | null;
  uri: string | null;
  qr: { size: number; d: string } | null;
  recoveryCodesLeft: number;
}

/**
 * The account's second factor as its own page shows it. Not yet enabled: a secret is made (once, kept
 * until confirmed) and shown as a QR code and as text.
 */
export async function secondFactorSetup(db: Db, userId: number): Promise<SecondFactorSetup> {
  const user = await db.selectFrom("users").select(["email", "totp_enabled_at", "totp_pending_secret"]).where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.totp_enabled_at) {
    const left = await db
      .selectFrom("recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    return { enabled: true, secret: null, uri: null, qr: null, recoveryCodesLeft: Number(left.n) };
  }
  let secret = user.totp_pending_secret;
  if (!secret) {
    secret = generateSecret();
    await db.updateTable("users").set({ totp_pending_secret: secret }).where("id", "=", userId).where("totp_pending_secret", "is", null).execute();
    // Two tabs at once: the secret that was kept is the one shown.
    secret = (await db.selectFrom("users").select("totp_pending_secret").where("id", "=", userId).executeTakeFirstOrThrow()).totp_pending_secret!;
  }
  const uri = generateURI({ issuer: ISSUER, label: user.email, secret });
  return { enabled: false, secret, uri, qr: qrPath(uri), recoveryCodesLeft: 0 };
}

/** A typed code: digits only, spaces taken out; anything else is not a code. */
function totpCode(typed: string): string | null {
  const code = typed.replace(/\s+/g, "");
  return /^\d{6}$/.test(code) ? code : null;
}

/** The time step a code is valid for, or null; `after`: a step already used (never accepted again). */
export async function checkTotp(secret: string, typed: string, options: { after?: number | null; now?: number } = {}): Promise<number | null> {
  const token = totpCode(typed);
  if (!token) return null;
  const result = await verify({
    secret,
    token,
    epochTolerance: TOTP_WINDOW_SECONDS,
    epoch: Math.floor((options.now ?? Date.now()) / 1000),
    ...(options.after != null ? { afterTimeStep: options.after } : {}),
  });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

export type ConfirmSetupResult = { ok: true; recoveryCodes: string[] } | { ok: false; reason: "wrongCode" | "alreadyEnabled" };

/**
 * Turns the second factor on when the first code from the app matches the secret shown; answers the
 * ten recovery codes, shown once (only their hashes are kept). Audited.
 */
export async function confirmSecondFactor(db: Db, userId: number, typed: string, now = Date.now()): Promise<ConfirmSetupResult> {
  const user = await db.selectFrom("users").select(["email", "totp_enabled_at", "totp_pending_secret"]).where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.totp_enabled_at) return { ok: false, reason: "alreadyEnabled" };
  const secret = user.totp_pending_secret;
  const step = secret ? await checkTotp(secret, typed, { now }) : null;
  if (!secret || step === null) return { ok: false, reason: "wrongCode" };
  const codes = newCodes();
  const nowIso = new Date(now).toISOString();
  const done = await db.transaction().execute(async (trx) => {
    const set = await trx
      .updateTable("users")
      .set({ totp_secret: secret, totp_enabled_at: nowIso, totp_last_step: step, totp_pending_secret: null })
      .where("id", "=", userId)
      .where("totp_enabled_at", "is", null)
      .where("totp_pending_secret", "=", secret)
      .executeTakeFirst();
    if (Number(set.numUpdatedRows) !== 1) return false;
    await storeCodes(trx, userId, codes, nowIso);
    await recordAudit(trx, { actorId: userId, action: "update", entity: "user", entityId: userId, summary: user.email, changes: { secondFactor: [false, true] } });
    return true;
  });
  if (!done) return { ok: false, reason: "alreadyEnabled" };
  logSecurityEvent("second_factor_enabled", { userId });
  return { ok: true, recoveryCodes: codes };
}

/** Ten new recovery codes in place of the old ones (shown once). */
export async function replaceRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = newCodes();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    await storeCodes(trx, userId, codes, new Date().toISOString());
    const user = await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow();
    await recordAudit(trx, { actorId: userId, action: "update", entity: "user", entityId: userId, summary: user.email, changes: { recoveryCodes: ["old", "new"] } });
  });
  logSecurityEvent("recovery_codes_replaced", { userId });
  return codes;
}

/** Turns the second factor off, unless the account's role must keep it. Audited. */
export async function disableSecondFactor(db: Db, user: { id: number; role: Role }): Promise<{ ok: true } | { ok: false; reason: "required" }> {
  if (await mustKeepSecondFactor(db, user.role)) return { ok: false, reason: "required" };
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("users")
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, totp_pending_secret: null })
      .where("id", "=", user.id)
      .returning("email")
      .executeTakeFirstOrThrow();
    await trx.deleteFrom("recovery_codes").where("user_id", "=", user.id).execute();
    await recordAudit(trx, { actorId: user.id, action: "update", entity: "user", entityId: user.id, summary: row.email, changes: { secondFactor: [true, false] } });
  });
  logSecurityEvent("second_factor_disabled", { userId: user.id });
  return { ok: true };
}

// Recovery codes: 10 characters of an alphabet without look-alikes (0/o, 1/l/i), shown as xxxxx-xxxxx.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function newCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A typed recovery code as stored: lower case, without its dash or spaces; null when it cannot be one. */
function recoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]+/g, "");
  return code.length === 10 && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

async function storeCodes(db: Db, userId: number, codes: string[], nowIso: string): Promise<void> {
  await db
    .insertInto("recovery_codes")
    .values(codes.map((code) => ({ user_id: userId, code_hash: sha256(recoveryCode(code)!), used_at: null, created_at: nowIso })))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Checking a code

export type SecondFactorCheck = { ok: true; method: "totp" | "recovery" } | { ok: false };

/**
 * Checks a code from the app, or else a recovery code. A TOTP code's time step is claimed in the
 * statement that records it (only a later step than the last one used), so a code works once; a
 * recovery code is claimed (used_at set) in the statement that checks it, so it works once even when
 * sent twice at the same moment.
 */
export async function verifySecondFactor(db: Db, userId: number, typed: string, now = Date.now()): Promise<SecondFactorCheck> {
  const user = await db.selectFrom("users").select(["totp_secret", "totp_last_step"]).where("id", "=", userId).executeTakeFirst();
  if (!user?.totp_secret) return { ok: false };
  const step = await checkTotp(user.totp_secret, typed, { after: user.totp_last_step, now });
  if (step !== null) {
    const claimed = await db
      .updateTable("users")
      .set({ totp_last_step: step })
      .where("id", "=", userId)
      .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1 ? { ok: true, method: "totp" } : { ok: false };
  }
  const code = recoveryCode(typed);
  if (!code) return { ok: false };
  const used = await db
    .updateTable("recovery_codes")
    .set({ used_at: new Date(now).toISOString() })
    .where("user_id", "=", userId)
    .where("code_hash", "=", sha256(code))
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return { ok: false };
  logSecurityEvent("recovery_code_used", { userId });
  return { ok: true, method: "recovery" };
}

// ---------------------------------------------------------------------------------------------
// The sign-in step

type LimitContext = Pick<AppLoadContext, "db" | "engine"> & { clientIp: string };

/**
 * A second-factor guess, counted as a password guess is (docs/decisions/214): against the IP address
 * (signInIp), the account at that address (5 per 15 minutes) and, past SIGN_IN_FREE_ATTEMPTS from
 * anywhere, one code every 5 seconds for the account; throws TooManyAttempts when over.
 */
export async function checkSecondFactorPaced(context: LimitContext, userId: number, typed: string): Promise<SecondFactorCheck> {
  const account = `second-factor:${userId}`;
  const here = `${account}\n${context.clientIp}`;
  await consumeAttempt(context, "signInIp", context.clientIp);
  await consumeAttempt(context, "secondFactorAccountIp", here);
  const attempts = await countAttempt(context, "secondFactorAccount", account);
  if (attempts > SIGN_IN_FREE_ATTEMPTS) {
    const wait = await takeTurn(context, "secondFactorAccountPace", account);
    if (wait > 0) {
      await Promise.all([refundAttempt(context, "signInIp", context.clientIp), refundAttempt(context, "secondFactorAccountIp", here)]);
      logSecurityEvent("second_factor_paced", { userId, ip: context.clientIp, retryAfterSeconds: wait });
      throw new TooManyAttempts(wait);
    }
  }
  const result = await verifySecondFactor(context.db, userId, typed);
  if (!result.ok) {
    logSecurityEvent("second_factor_failed", { userId, ip: context.clientIp });
    return result;
  }
  await Promise.all([
    clearAttempts(context, "secondFactorAccountIp", here),
    refundAttempt(context, "signInIp", context.clientIp),
    refundAttempt(context, "secondFactorAccount", account),
  ]);
  return result;
}

/** Guesses this account has made in the window (for tests and the security log). */
export function secondFactorAttempts(context: Pick<AppLoadContext, "db" | "engine">, userId: number): Promise<number> {
  return attemptsMade(context, "secondFactorAccount", `second-factor:${userId}`);
}

/**
 * The password was right for an account with a second factor: no session yet, but a challenge that
 * the code must answer within CHALLENGE_TTL_MS. Answers its token, for the browser only
 * (app/http/second-factor.server.ts keeps it in a cookie).
 */
export async function startChallengeToken(db: Db, userId: number, redirectTo: string | null | undefined): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await db.deleteFrom("sign_in_challenges").where("expires_at", "<=", new Date(now).toISOString()).execute();
  await db
    .insertInto("sign_in_challenges")
    .values({
      token_hash: sha256(token),
      user_id: userId,
      redirect_to: safeRedirectPath(redirectTo),
      expires_at: new Date(now + CHALLENGE_TTL_MS).toISOString(),
      created_at: new Date(now).toISOString(),
    })
    .execute();
  return token;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The challenge of this token, still open, or null. */
export async function openChallengeOfToken(db: Db, token: string | undefined): Promise<{ tokenHash: string; userId: number; redirectTo: string } | null> {
  if (!token || !TOKEN.test(token)) return null;
  const row = await db
    .selectFrom("sign_in_challenges as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["c.token_hash", "c.user_id", "c.redirect_to", "c.expires_at", "u.suspended_at"])
    .where("c.token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row || row.expires_at <= new Date().toISOString() || row.suspended_at) return null;
  return { tokenHash: row.token_hash, userId: row.user_id, redirectTo: row.redirect_to };
}

/** Ends the challenge (answered, or given up): one use. Answers whether it was still there. */
export async function endChallenge(db: Db, tokenHash: string): Promise<boolean> {
  const gone = await db.deleteFrom("sign_in_challenges").where("token_hash", "=", tokenHash).executeTakeFirst();
  return Number(gone.numDeletedRows) === 1;
}
