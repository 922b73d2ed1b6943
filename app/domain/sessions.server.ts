import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AppLoadContext, redirect } from "react-router";
import type { Expression } from "kysely";
import { builtOnce } from "~/db/built-once.server";
import { type Db, PREPARED } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { readCookie, serializeCookie } from "~/lib/cookies.server";
import { safeRedirectPath } from "~/lib/safe-redirect";

/**
 * Server-side sessions: the cookie holds a random 256-bit token, the database holds only its hash,
 * so a copy of the table cannot be used to sign in. Sessions last 30 days and are renewed on use.
 */

export const SESSION_COOKIE = "ub_session";
/**
 * The session's cookie when the shop is served over https (docs/decisions/212): with the `__Host-`
 * prefix a browser keeps it only if it is Secure, for Path=/ and without a Domain, so no other site
 * under the same domain can set or overwrite it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
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

function sessionCookie(token: string, secure: boolean, maxAgeSeconds = SESSION_DAYS * 24 * 3600): string {
  return serializeCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, { httpOnly: true, secure, maxAgeSeconds });
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** This request's session token: the https cookie's, else the one a browser may still hold from before it. */
function sessionToken(request: Request): string | undefined {
  return readCookie(request, SECURE_SESSION_COOKIE) ?? readCookie(request, SESSION_COOKIE);
}

/**
 * Under https, the Set-Cookie values that move a session still sent under the cookie's old name to the
 * `__Host-` one (the same token: the shopper stays signed in) and clear the old name; none otherwise.
 */
export function sessionCookieMove(cookieHeader: string | undefined, secure: boolean): string[] {
  if (!secure || !cookieHeader) return [];
  const request = new Request("http://localhost/", { headers: { Cookie: cookieHeader } });
  const old = readCookie(request, SESSION_COOKIE);
  if (old === undefined) return [];
  const moves: string[] = [];
  if (readCookie(request, SECURE_SESSION_COOKIE) === undefined && TOKEN.test(old)) moves.push(sessionCookie(old, true));
  moves.push(serializeCookie(SESSION_COOKIE, "", { httpOnly: true, secure: true, maxAgeSeconds: 0 }));
  return moves;
}

/** The HTTP server's step that moves a session cookie to its https name (sessionCookieMove) on any answer. */
export function moveSessionCookie(publicUrl: string) {
  const secure = publicUrl.startsWith("https://");
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const moves = sessionCookieMove(req.headers.cookie, secure);
    if (moves.length) res.appendHeader("Set-Cookie", moves);
    next();
  };
}

function isSecure(context: Pick<AppLoadContext, "config">): boolean {
  return context.config.publicUrl.startsWith("https://");
}

/** Starts a new session (always a new id) and returns the Set-Cookie header value. */
export async function createSession(context: Pick<AppLoadContext, "db" | "config">, userId: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await context.db
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
  return sessionCookie(token, isSecure(context));
}

// Loaders of one request share the answer instead of each asking the database. The framework hands
// each loader a copy of the request, so on a GET the answer is also kept by the request's
// `readsOfRequest` (app/context.ts), which all its loaders are given.
const perRequest = new WeakMap<object, Promise<SessionUser | null>>();

/** This request's session read, if one was asked for, by the request or by its GET's shared object. */
function readFor(request: Request, readsOfRequest: object | undefined): Promise<SessionUser | null> | undefined {
  return perRequest.get(request) ?? (readsOfRequest && perRequest.get(readsOfRequest));
}

function keep(request: Request, readsOfRequest: object | undefined, pending: Promise<SessionUser | null>): Promise<SessionUser | null> {
  perRequest.set(request, pending);
  if (readsOfRequest) perRequest.set(readsOfRequest, pending);
  return pending;
}

/** The signed-in user for this request, or null. Expired, unknown or malformed tokens count as signed out. */
export function getSessionUser(request: Request, db: Db, readsOfRequest?: object): Promise<SessionUser | null> {
  return keep(request, readsOfRequest, readFor(request, readsOfRequest) ?? lookUpSession(request, db));
}

/**
 * For a read that fetches the session together with other rows in one statement
 * (app/domain/personal.server.ts): the stored id of this request's session token, or null when there
 * is no well-formed token or the session is already being read for this request (then getSessionUser
 * gives it).
 */
export function sessionToRead(request: Request, readsOfRequest?: object): string | null {
  if (readFor(request, readsOfRequest)) return null;
  return sessionIdOf(request);
}

/**
 * The session read by such a statement (`sessionColumns` of `sessions as s` joined with `users as u`),
 * judged as getSessionUser judges it; this request's loaders then share it (from the moment it is
 * asked, so none of them reads the session again).
 */
export function sessionFromRow(request: Request, db: Db, row: Promise<SessionRow | undefined>, readsOfRequest?: object): Promise<SessionUser | null> {
  return keep(request, readsOfRequest, row.then((found) => settle(db, found)));
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

function sessionIdOf(request: Request): string | null {
  const token = sessionToken(request);
  if (!token || !TOKEN.test(token)) return null;
  return hashToken(token);
}

async function lookUpSession(request: Request, db: Db): Promise<SessionUser | null> {
  const id = sessionIdOf(request);
  if (id === null) return null;
  const [row] = await readSession(db, id);
  return settle(db, row);
}

/**
 * An expired session, or one of a suspended account (docs/decisions/222), is removed and counts as
 * none; one used a day or more after its last renewal is renewed.
 */
async function settle(db: Db, row: SessionRow | undefined): Promise<SessionUser | null> {
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

/** Ends this browser's session (if any) and returns the Set-Cookie header value that clears the cookie. */
export async function destroySession(request: Request, context: Pick<AppLoadContext, "db" | "config">): Promise<string> {
  const token = sessionToken(request);
  if (token) await context.db.deleteFrom("sessions").where("id", "=", hashToken(token)).execute();
  return sessionCookie("", isSecure(context), 0);
}

/** Ends every session of a user, e.g. after a password reset. */
export async function destroyAllSessions(db: Db, userId: number): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

export { safeRedirectPath };

/** The page where an account chooses a new password, coming back to this request's page after. */
export function changePasswordPath(request: Request): string {
  const url = new URL(request.url);
  // A client-side navigation asks for /admin.data?_routes=…; the page is /admin.
  url.searchParams.delete("_routes");
  const path = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
  const back = safeRedirectPath(path + url.search);
  return `/auth/change-password?redirectTo=${encodeURIComponent(back)}`;
}

function signInRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = safeRedirectPath(url.pathname + url.search);
  throw redirect(`/auth?redirectTo=${encodeURIComponent(back)}`);
}

/** First line of every signed-in loader and action: sends signed-out visitors to sign in and back. */
export async function requireUser(request: Request, context: Pick<AppLoadContext, "db">): Promise<SessionUser> {
  const user = await getSessionUser(request, context.db);
  if (!user) signInRedirect(request);
  return user;
}

/** Remembers the language a signed-in account is using, when it changed (one small write, then none). */
export async function rememberLocale(db: Db, user: Pick<SessionUser, "id" | "locale">, locale: string): Promise<void> {
  if (user.locale === locale) return;
  await db.updateTable("users").set({ locale }).where("id", "=", user.id).execute();
}
