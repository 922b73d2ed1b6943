import { createHash, randomBytes } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import type { Role } from "~/db/schema";
import type { Translate } from "~/lib/i18n";
import { logSecurityEvent } from "~/platform/security-log.server";
import { hashPassword, verifyPassword } from "~/platform/password.server";
import { parseNigerianMobile, type PhoneProblem } from "~/lib/phone";
import { accountExistsEmail, confirmRegistrationEmail, passwordResetEmail } from "./account-mail.server";
import { queueMail } from "../operations/mail-outbox.server";
import { grantConsent } from "../messages/consent.server";
import { passwordWeakness } from "./password-strength.server";
import {
  attemptsMade,
  clearAttempts,
  consumeAttempt,
  countAttempt,
  refundAttempt,
  SIGN_IN_FREE_ATTEMPTS,
  takeTurn,
  TooManyAttempts,
  withinLimit,
} from "../operations/rate-limits.server";
import { destroyAllSessions } from "./sessions.server";
import { safeRedirectPath } from "~/lib/safe-redirect";

/**
 * Customer accounts: registration, sign-in, password reset. Self-registration only ever creates
 * customers; admins come from `npm run admin:create`.
 */

/** E-mail addresses are compared trimmed and case-insensitively; this is the stored form. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** New passwords: 8 characters at least (docs/decisions/020). */
export const MIN_PASSWORD_LENGTH = 8;
/** argon2 takes any length; a bound keeps a form post from making the server hash megabytes. */
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_NAME_LENGTH = 100;
/** the longest address SMTP can deliver to */
export const MAX_EMAIL_LENGTH = 254;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Form rules. Every message is a translation key, shown next to its field.

const email = z
  .string()
  .trim()
  .min(1, "auth.errors.emailRequired")
  .max(MAX_EMAIL_LENGTH, "auth.errors.emailInvalid")
  .pipe(z.email("auth.errors.emailInvalid"));

const name = (required: string, tooLong: string) =>
  z
    .string()
    .trim()
    .min(1, required)
    .max(MAX_NAME_LENGTH, tooLong)
    // eslint-disable-next-line no-control-regex -- control characters in a name are never typed by a person
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), required);

const newPassword = (required: string) =>
  z
    .string()
    .min(1, required)
    .min(MIN_PASSWORD_LENGTH, "auth.errors.passwordTooShort")
    .max(MAX_PASSWORD_LENGTH, "auth.errors.passwordTooLong");

/** Refuses a new password that is easy to guess (docs/decisions/082), saying why, next to the field. */
function strongEnough(password: string, personal: string[], ctx: z.RefinementCtx): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) return;
  const reason = passwordWeakness(password, personal);
  if (reason) ctx.addIssue({ code: "custom", path: ["password"], message: reason });
}

export const loginSchema = z.object({
  email,
  // Any stored password is at least 8 characters; the sign-in form only asks for one.
  password: z.string().min(1, "auth.errors.passwordRequired").max(MAX_PASSWORD_LENGTH, "auth.errors.passwordTooLong"),
});

export const registerSchema = z
  .object({
    firstName: name("auth.errors.firstNameRequired", "auth.errors.firstNameTooLong"),
    lastName: name("auth.errors.lastNameRequired", "auth.errors.lastNameTooLong"),
    email,
    password: newPassword("auth.errors.passwordRequired"),
  })
  .superRefine((v, ctx) => strongEnough(v.password, [v.email, v.firstName, v.lastName], ctx));

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string().max(200),
    password: newPassword("auth.errors.passwordTooShort"),
    confirmPassword: z.string().max(MAX_PASSWORD_LENGTH, "auth.errors.passwordsDontMatch"),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "auth.errors.passwordsDontMatch" })
  .superRefine((v, ctx) => strongEnough(v.password, [], ctx));

/** The password a signed-in account must choose (the demo admin at first sign-in); `personal`: its e-mail and names. */
export const changePasswordSchema = (personal: string[]) =>
  z
    .object({
      password: newPassword("auth.errors.passwordRequired"),
      confirmPassword: z.string().max(MAX_PASSWORD_LENGTH, "auth.errors.passwordsDontMatch"),
    })
    .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "auth.errors.passwordsDontMatch" })
    .superRefine((v, ctx) => strongEnough(v.password, personal, ctx));

// ---------------------------------------------------------------------------------------------
// Registration and sign-in

type AccountContext = Pick<AppLoadContext, "db" | "engine" | "config" | "clientIp">;

export type RegisterResult = { ok: true; userId: number; firstName: string } | { ok: false; reason: "emailTaken" };

/**
 * Creates a customer account from a password hash. The role is always `customer`: there is no input
 * that could set it. Two creations of one address at the same moment: the unique index decides.
 */
async function createCustomer(
  db: Db,
  input: { email: string; passwordHash: string; firstName: string; lastName: string },
): Promise<RegisterResult> {
  const address = normaliseEmail(input.email);
  const taken = () => db.selectFrom("users").select("id").where("email", "=", address).executeTakeFirst();
  if (await taken()) return { ok: false, reason: "emailTaken" };
  const role: Role = "customer";
  try {
    const row = await db
      .insertInto("users")
      .values({
        email: address,
        password_hash: input.passwordHash,
        first_name: input.firstName.trim(),
        last_name: input.lastName.trim(),
        role,
        created_at: new Date().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, userId: row.id, firstName: input.firstName.trim() };
  } catch (error) {
    if (await taken()) return { ok: false, reason: "emailTaken" };
    throw error;
  }
}

/** Creates a customer account at once (tests and tools; shoppers register with startRegistration). */
export async function registerCustomer(
  context: Pick<AccountContext, "db">,
  input: { firstName: string; lastName: string; email: string; password: string },
): Promise<RegisterResult> {
  return createCustomer(context.db, { ...input, passwordHash: await hashPassword(input.password) });
}

export const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Starts a registration (docs/decisions/083). The answer is the same whether or not the address has an
 * account, and costs the same (a password hash and one e-mail queued either way): a new address gets
 * a link that creates the account when opened, valid for 24 hours; an address that has an account
 * gets an e-mail saying so, with links to sign in and to reset the password. Counts against the
 * per-IP registration limit (throws TooManyAttempts); past the per-address limit nothing is sent.
 */
export async function startRegistration(
  context: AccountContext,
  input: { firstName: string; lastName: string; email: string; password: string; redirectTo?: string | null; t: Translate; marketingWording?: string | null },
): Promise<void> {
  await consumeAttempt(context, "registerIp", context.clientIp);
  const address = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const mayMail = await withinLimit(context, "registerAddress", address);
  const existing = await context.db.selectFrom("users").select(["first_name"]).where("email", "=", address).executeTakeFirst();
  logSecurityEvent("registration_started", { email: address, ip: context.clientIp, existingAccount: Boolean(existing), sent: mayMail });
  if (!mayMail) return;
  const publicUrl = context.config.publicUrl;
  if (existing) {
    const message = accountExistsEmail(input.t, {
      firstName: existing.first_name,
      signInLink: `${publicUrl}/auth`,
      resetLink: `${publicUrl}/auth/forgot-password`,
    });
    await queueMail(context.db, { to: address, ...message, kind: "registration-existing-account" });
    return;
  }
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  const message = confirmRegistrationEmail(input.t, { firstName: input.firstName.trim(), link: `${publicUrl}/auth/register/confirm?token=${token}` });
  await context.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("pending_registrations").where("expires_at", "<=", nowIso).execute();
    await trx
      .insertInto("pending_registrations")
      .values({
        token_hash: hashToken(token),
        email: address,
        password_hash: passwordHash,
        first_name: input.firstName.trim(),
        last_name: input.lastName.trim(),
        redirect_to: safeRedirectPath(input.redirectTo),
        // The marketing opt-in ticked on the form, kept until the account exists (docs/decisions/220).
        marketing_wording: input.marketingWording ?? null,
        expires_at: new Date(now + REGISTRATION_TTL_MS).toISOString(),
        created_at: nowIso,
      })
      .execute();
    await queueMail(trx, { to: address, ...message, kind: "registration-confirm" });
  });
}

export type ConfirmationState = { state: "valid"; firstName: string } | { state: "expired" | "invalid" };

/** What a registration link is worth now. */
export async function registrationState(db: Db, token: string | null | undefined): Promise<ConfirmationState> {
  if (!token || !TOKEN_PATTERN.test(token)) return { state: "invalid" };
  const row = await db.selectFrom("pending_registrations").select(["first_name", "expires_at"]).where("token_hash", "=", hashToken(token)).executeTakeFirst();
  if (!row) return { state: "invalid" };
  if (row.expires_at <= new Date().toISOString()) return { state: "expired" };
  return { state: "valid", firstName: row.first_name };
}

export type ConfirmResult =
  | { ok: true; userId: number; firstName: string; redirectTo: string }
  | { ok: false; reason: "expired" | "invalid" | "emailTaken" };

/**
 * Creates the account a registration link stands for. The pending row is claimed (deleted) in the
 * statement that checks it, so the link works once even when opened twice at the same moment; the
 * address's other pending registrations go with it.
 */
export async function confirmRegistration(context: Pick<AccountContext, "db">, token: string): Promise<ConfirmResult> {
  const state = await registrationState(context.db, token);
  if (state.state !== "valid") return { ok: false, reason: state.state };
  const nowIso = new Date().toISOString();
  const claimed = await context.db
    .deleteFrom("pending_registrations")
    .where("token_hash", "=", hashToken(token))
    .where("expires_at", ">", nowIso)
    .returning(["email", "password_hash", "first_name", "last_name", "redirect_to", "marketing_wording"])
    .executeTakeFirst();
  if (!claimed) return { ok: false, reason: "invalid" };
  const made = await createCustomer(context.db, {
    email: claimed.email,
    passwordHash: claimed.password_hash,
    firstName: claimed.first_name,
    lastName: claimed.last_name,
  });
  await context.db.deleteFrom("pending_registrations").where("email", "=", claimed.email).execute();
  if (!made.ok) return { ok: false, reason: "emailTaken" };
  if (claimed.marketing_wording) await grantConsent(context.db, { userId: made.userId, source: "registration", locale: null, wording: claimed.marketing_wording });
  return { ok: true, userId: made.userId, firstName: made.firstName, redirectTo: claimed.redirect_to };
}

let dummyHash: Promise<string> | null = null;
/** Unknown addresses are checked against this, so timing does not tell them from wrong passwords. */
function hashForUnknownAddress(): Promise<string> {
  return (dummyHash ??= hashPassword(randomBytes(18).toString("base64")));
}

export type AuthenticateResult = { ok: true; userId: number; firstName: string; secondFactor: boolean } | { ok: false };

/** The counter key of one account at one IP address. */
const accountAtIp = (address: string, ip: string) => `${address}\n${ip}`;

/**
 * A sign-in refused because its account is being tried too often from anywhere: it was not checked, and
 * may be tried again in a few seconds (or the owner signs in by a password-reset link).
 */
export class SignInPaced extends TooManyAttempts {
  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds);
    this.name = "SignInPaced";
  }
}

/**
 * Checks an e-mail and password (docs/decisions/080, 214). Every attempt counts against the IP address
 * (20 failures per 15 minutes) and the account at that IP address (5 per 15 minutes) before the password
 * is checked, so parallel guesses cannot slip past the limits; over either it throws TooManyAttempts.
 *
 * The account's attempts from everywhere are paced, not counted down to a lock-out: past
 * SIGN_IN_FREE_ATTEMPTS in 15 minutes, a password is checked only when the attempt takes the account's
 * turn (one every 5 seconds, reserved atomically in the store); an attempt without one throws SignInPaced
 * at once, unchecked, with the seconds until the next turn, and its per-IP counts are given back. However
 * many addresses and however parallel, one account is tried at most 5 + 1 every 5 seconds. Its owner
 * is never locked out: a password reset lets the address that made it sign in without waiting for a
 * turn, and every window ends on its own. A successful sign-in clears the account's count at its IP
 * address and gives its attempts back.
 */
export async function authenticate(context: AccountContext, input: { email: string; password: string }): Promise<AuthenticateResult> {
  const address = normaliseEmail(input.email);
  const here = accountAtIp(address, context.clientIp);
  await consumeAttempt(context, "signInIp", context.clientIp);
  await consumeAttempt(context, "signInAccountIp", here);
  const attempts = await countAttempt(context, "signInAccount", address);
  if (attempts > SIGN_IN_FREE_ATTEMPTS && !(await attemptsMade(context, "signInAfterReset", here))) {
    const wait = await takeTurn(context, "signInAccountPace", address);
    if (wait > 0) {
      // Not a guess: nothing was checked, so the address keeps its own attempts.
      await Promise.all([refundAttempt(context, "signInIp", context.clientIp), refundAttempt(context, "signInAccountIp", here)]);
      logSecurityEvent("sign_in_paced", { email: address, ip: context.clientIp, retryAfterSeconds: wait });
      throw new SignInPaced(wait);
    }
  }
  const user = await context.db
    .selectFrom("users")
    .select(["id", "password_hash", "first_name", "suspended_at", "totp_enabled_at"])
    .where("email", "=", address)
    .executeTakeFirst();
  const valid = await verifyPassword(user?.password_hash ?? (await hashForUnknownAddress()), input.password);
  if (!user || !valid) {
    logSecurityEvent("sign_in_failed", { email: address, ip: context.clientIp });
    return { ok: false };
  }
  // A suspended staff member is answered as a wrong password is (docs/decisions/222).
  if (user.suspended_at) {
    logSecurityEvent("sign_in_suspended", { userId: user.id, ip: context.clientIp });
    return { ok: false };
  }
  await Promise.all([
    clearAttempts(context, "signInAccountIp", here),
    refundAttempt(context, "signInIp", context.clientIp),
    refundAttempt(context, "signInAccount", address),
  ]);
  return { ok: true, userId: user.id, firstName: user.first_name, secondFactor: user.totp_enabled_at !== null };
}

/**
 * A browser has just signed in to this account: the owner sees when each staff member last signed in
 * (docs/decisions/222). Whether the account must choose a new password before anything else (a
 * password the owner did not choose) is the answer.
 */
export async function recordSignIn(db: Db, userId: number): Promise<{ mustChangePassword: boolean }> {
  const account = await db
    .updateTable("users")
    .set({ last_sign_in_at: new Date().toISOString() })
    .where("id", "=", userId)
    .returning("must_change_password")
    .executeTakeFirst();
  return { mustChangePassword: !!account?.must_change_password };
}

export type ChangePasswordResult = { ok: true } | { ok: false; reason: "unchanged" };

/**
 * A signed-in account sets a new password (the demo admin at first sign-in): the new one must differ
 * from the current one. Every session of the account ends; the caller signs this browser in again.
 */
export async function changePassword(context: Pick<AccountContext, "db" | "clientIp">, userId: number, password: string): Promise<ChangePasswordResult> {
  const current = await context.db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
  if (await verifyPassword(current.password_hash, password)) return { ok: false, reason: "unchanged" };
  const passwordHash = await hashPassword(password);
  await context.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash, must_change_password: 0 }).where("id", "=", userId).execute();
    await trx.updateTable("password_resets").set({ used_at: new Date().toISOString() }).where("user_id", "=", userId).where("used_at", "is", null).execute();
    await destroyAllSessions(trx, userId);
  });
  logSecurityEvent("password_changed", { userId, ip: context.clientIp });
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Password reset

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Starts a password reset. Counts against the per-IP limit (throws TooManyAttempts) and the per-address
 * limit (never refused: past it no new link is sent) whether or not the address has an account, and
 * answers the same either way. When it has one, a
 * single-use link valid for one hour is e-mailed in the shopper's language (`t`); only the token's hash is
 * stored. The link and its e-mail are written in one transaction after the answer (`written` settles
 * when they are); the mail outbox sends it. So the answer never waits for a mail server or a write,
 * and takes as long for unknown addresses as for known ones.
 */
export async function requestPasswordReset(context: AccountContext, input: { email: string; t: Translate }): Promise<{ written: Promise<void> }> {
  const address = normaliseEmail(input.email);
  await consumeAttempt(context, "resetIp", context.clientIp);
  // Past the address's limit the answer is the same but no new link is sent: the ones already sent work.
  const mayMail = await withinLimit(context, "resetAddress", address);
  const user = await context.db.selectFrom("users").select(["id", "email", "first_name"]).where("email", "=", address).executeTakeFirst();
  logSecurityEvent("password_reset_requested", { email: address, ip: context.clientIp, sent: Boolean(user && mayMail) });
  if (!user || !mayMail) return { written: Promise.resolve() };

  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  const link = `${context.config.publicUrl}/auth/reset-password?token=${token}`;
  const message = passwordResetEmail(input.t, { firstName: user.first_name, link });
  // The link and its e-mail are written after the answer (`written`), so the shopper waits as long
  // for an address with an account as for one without (docs/decisions/083).
  const written = context.db.transaction().execute(async (trx) => {
    // Tidy this account's spent links; links still valid keep working until one is used.
    await trx
      .deleteFrom("password_resets")
      .where("user_id", "=", user.id)
      .where((eb) => eb.or([eb("used_at", "is not", null), eb("expires_at", "<=", nowIso)]))
      .execute();
    await trx
      .insertInto("password_resets")
      .values({
        token_hash: hashToken(token),
        user_id: user.id,
        expires_at: new Date(now + RESET_TOKEN_TTL_MS).toISOString(),
        used_at: null,
        created_at: nowIso,
      })
      .execute();
    await queueMail(trx, { to: user.email, ...message, kind: "password-reset" });
  });
  return { written };
}

export type ResetTokenState = "valid" | "expired" | "used" | "invalid";

/** What a reset link is worth now: valid, expired, already used, or not one of ours. */
export async function resetTokenState(db: Db, token: string | null | undefined): Promise<ResetTokenState> {
  if (!token || !TOKEN_PATTERN.test(token)) return "invalid";
  const row = await db.selectFrom("password_resets").select(["used_at", "expires_at"]).where("token_hash", "=", hashToken(token)).executeTakeFirst();
  if (!row) return "invalid";
  if (row.used_at) return "used";
  if (row.expires_at <= new Date().toISOString()) return "expired";
  return "valid";
}

export type ResetResult = { ok: true } | { ok: false; reason: Exclude<ResetTokenState, "valid"> };

/**
 * Sets a new password with a reset token. The token is claimed in the same statement that checks it,
 * so it works once even when submitted twice at the same moment. Every session of the account ends,
 * every other reset link of the account stops working, and the account's sign-in count is cleared.
 */
export async function resetPassword(context: AccountContext, input: { token: string; password: string }): Promise<ResetResult> {
  const state = await resetTokenState(context.db, input.token);
  if (state !== "valid") return { ok: false, reason: state };
  const passwordHash = await hashPassword(input.password);
  const nowIso = new Date().toISOString();
  const account = await context.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("password_resets")
      .set({ used_at: nowIso })
      .where("token_hash", "=", hashToken(input.token))
      .where("used_at", "is", null)
      .where("expires_at", ">", nowIso)
      .returning("user_id")
      .executeTakeFirst();
    if (!claimed) return null;
    const user = await trx
      .updateTable("users")
      .set({ password_hash: passwordHash })
      .where("id", "=", claimed.user_id)
      .returning(["id", "email"])
      .executeTakeFirstOrThrow();
    await trx.updateTable("password_resets").set({ used_at: nowIso }).where("user_id", "=", user.id).where("used_at", "is", null).execute();
    await destroyAllSessions(trx, user.id);
    return user;
  });
  if (!account) {
    const now = await resetTokenState(context.db, input.token);
    return { ok: false, reason: now === "valid" ? "used" : now };
  }
  // The owner proved who they are: their count is cleared, and the address they reset from signs in
  // without waiting for the account's turn while others keep guessing (docs/decisions/214).
  await Promise.all([
    clearAttempts(context, "signInAccount", account.email),
    clearAttempts(context, "signInAccountIp", accountAtIp(account.email, context.clientIp)),
    countAttempt(context, "signInAfterReset", accountAtIp(account.email, context.clientIp)),
  ]);
  logSecurityEvent("password_reset_done", { userId: account.id, ip: context.clientIp });
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Admins

/**
 * Creates an owner, or makes an existing account an owner (its password is replaced, and its
 * sessions end). Used by `npm run admin:create`; no form can reach it.
 */
export async function createOrPromoteAdmin(
  db: Db,
  input: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<{ created: boolean; userId: number }> {
  const address = normaliseEmail(input.email);
  const role: Role = "owner";
  const passwordHash = await hashPassword(input.password);
  const existing = await db.selectFrom("users").select("id").where("email", "=", address).executeTakeFirst();
  if (existing) {
    await db.updateTable("users").set({ role, password_hash: passwordHash, suspended_at: null }).where("id", "=", existing.id).execute();
    await destroyAllSessions(db, existing.id);
    return { created: false, userId: existing.id };
  }
  const row = await db
    .insertInto("users")
    .values({
      email: address,
      password_hash: passwordHash,
      first_name: input.firstName?.trim() || "Shop",
      last_name: input.lastName?.trim() || "Admin",
      role,
      staff_since: new Date().toISOString(),
      created_at: new Date().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { created: true, userId: row.id };
}

/** The account's mobile number (E.164), or null when none was given. */
export async function accountPhone(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom("users").select("phone").where("id", "=", userId).executeTakeFirst();
  return row?.phone ?? null;
}

/** Sets the account's number as typed, or clears it when left empty; anything not a Nigerian mobile is refused. */
export async function setAccountPhone(db: Db, userId: number, typed: string): Promise<{ ok: true; phone: string | null } | { ok: false; error: PhoneProblem }> {
  let phone: string | null = null;
  if (typed.trim() !== "") {
    const parsed = parseNigerianMobile(typed);
    if (!parsed.ok) return parsed;
    phone = parsed.phone;
  }
  await db.updateTable("users").set({ phone }).where("id", "=", userId).execute();
  return { ok: true, phone };
}
