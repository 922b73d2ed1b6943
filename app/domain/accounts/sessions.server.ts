import { createHash, randomBytes } from "node:crypto";
import type { Expression } from "kysely";
import { builtOnce } from "~/db/built-once.server";
import { type Db, PREPARED } from "~/db/client.server";
import type { Role } from "~/db/schema";

/**
 * Server-side sessions: the browser holds a random 256-bit token, the database holds only its hash,
 * so a copy of the table cannot be used to sign in. Sessions last 30 days and are renewed on use.
 * The cookie that carries the token, and the per-request sharing of a session read, are the web
 * edge's (app/http/session.server.ts); this module knows only tokens and rows.
 */

export const SESSION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
// Renewing at most once a day keeps ordinary page views free of writes.
const RENEW_AFTER_MS = DAY_MS;

export interface SessionUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  sessionId: string;
  /** must choose a new password before anything else in the admin area (docs/decisions/082) */
  mustChangePassword: boolean;
  /** the language the account last used, for the e-mails sent to it */
  locale: string | null;
  /** when this session last proved the password (sign-in or confirmation); null: never known (docs/decisions/222) */
  authenticatedAt: string | null;
  /** the account signs in with a second factor (TOTP) */
  secondFactor: boolean;
  /** when the account became staff (its second factor's grace counts from it) */
  staffSince: string;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether a value has the shape of a session token (before it is looked up). */
export function isSessionToken(token: string | undefined): token is string {
  return token !== undefined && TOKEN.test(token);
}

/** The stored id of a session token, or null for anything that is not a well-formed token. */
export function sessionIdOfToken(token: string | undefined): string | null {
  return isSessionToken(token) ? hashToken(token) : null;
}

/** Starts a new session (always a new id) for an account and returns its token, for the browser only. */
export async function startSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await db
    .insertInto("sessions")
    .values({
      id: hashToken(token),
      user_id: userId,
      expires_at: new Date(now + SESSION_DAYS * DAY_MS).toISOString(),
      created_at: new Date(now).toISOString(),
      // A session begins when its password (and second factor) were proved.
      authenticated_at: new Date(now).toISOString(),
    })
    .execute();
  return token;
}

const readSession = builtOnce((db, sessionId: Expression<string>) =>
  db.selectFrom("sessions as s").innerJoin("users as u", "u.id", "s.user_id").select(sessionColumns).where("s.id", "=", sessionId).modifyEnd(PREPARED),
);

/** The columns of `sessions as s` and `users as u` a session is judged by. */
export const sessionColumns = [
  "s.id",
  "s.expires_at",
  "s.authenticated_at",
  "u.id as userId",
  "u.email",
  "u.first_name",
  "u.last_name",
  "u.role",
  "u.must_change_password",
  "u.locale",
  "u.suspended_at",
  "u.totp_enabled_at",
  "u.staff_since",
  "u.created_at",
] as const;

export interface SessionRow {
  id: string;
  expires_at: string;
  userId: number;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  must_change_password: number;
  locale: string | null;
  authenticated_at: string | null;
  suspended_at: string | null;
  totp_enabled_at: string | null;
  staff_since: string | null;
  created_at: string;
}

/** The account signed in by this session id, or null when there is none or it has expired. */
export async function findSession(db: Db, sessionId: string): Promise<SessionUser | null> {
  const [row] = await readSession(db, sessionId);
  return settleSession(db, row);
}

/**
 * An expired session, or one of a suspended account (docs/decisions/222), is removed and counts as
 * none; one used a day or more after its last renewal is renewed.
 */
export async function settleSession(db: Db, row: SessionRow | undefined): Promise<SessionUser | null> {
  if (!row) return null;
  const id = row.id;
  const now = Date.now();
  const expires = Date.parse(row.expires_at);
  if (expires <= now || row.suspended_at) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
    return null;
  }
  if (expires - now < SESSION_DAYS * DAY_MS - RENEW_AFTER_MS) {
    await db
      .updateTable("sessions")
      .set({ expires_at: new Date(now + SESSION_DAYS * DAY_MS).toISOString() })
      .where("id", "=", id)
      .execute();
  }
  return {
    id: row.userId,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    sessionId: id,
    mustChangePassword: row.must_change_password === 1,
    locale: row.locale,
    authenticatedAt: row.authenticated_at,
    secondFactor: row.totp_enabled_at !== null,
    staffSince: row.staff_since ?? row.created_at,
  };
}

/** Ends the session of a token (sign-out). */
export async function endSession(db: Db, token: string | undefined): Promise<void> {
  const id = sessionIdOfToken(token);
  if (id) await db.deleteFrom("sessions").where("id", "=", id).execute();
}

/** Ends every session of a user, e.g. after a password reset. */
export async function destroyAllSessions(db: Db, userId: number): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/** Remembers the language a signed-in account is using, when it changed (one small write, then none). */
export async function rememberLocale(db: Db, user: Pick<SessionUser, "id" | "locale">, locale: string): Promise<void> {
  if (user.locale === locale) return;
  await db.updateTable("users").set({ locale }).where("id", "=", user.id).execute();
}
