import type { IncomingMessage, ServerResponse } from "node:http";
import { type AppLoadContext, redirect } from "react-router";
import type { Db } from "~/db/client.server";
import {
  findSession,
  isSessionToken,
  SESSION_DAYS,
  type SessionRow,
  type SessionUser,
  sessionIdOfToken,
  settleSession,
  startSession,
  endSession,
} from "~/domain/accounts/sessions.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { readCookie, serializeCookie } from "./cookies.server";

/** The session as the web sees it: the cookie that carries its token, and the sign-in guards of loaders and actions. */

export const SESSION_COOKIE = "ub_session";
/**
 * The session's cookie when the shop is served over https (docs/decisions/212): with the `__Host-`
 * prefix a browser keeps it only if it is Secure, for Path=/ and without a Domain, so no other site
 * under the same domain can set or overwrite it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

function sessionCookie(token: string, secure: boolean, maxAgeSeconds = SESSION_DAYS * 24 * 3600): string {
  return serializeCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, { httpOnly: true, secure, maxAgeSeconds });
}

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
  if (readCookie(request, SECURE_SESSION_COOKIE) === undefined && isSessionToken(old)) moves.push(sessionCookie(old, true));
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
  return sessionCookie(await startSession(context.db, userId), isSecure(context));
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
 * (app/domain/shopper/personal.server.ts): the stored id of this request's session token, or null when there
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
  return keep(request, readsOfRequest, row.then((found) => settleSession(db, found)));
}

function sessionIdOf(request: Request): string | null {
  return sessionIdOfToken(sessionToken(request));
}

function lookUpSession(request: Request, db: Db): Promise<SessionUser | null> {
  const id = sessionIdOf(request);
  return id === null ? Promise.resolve(null) : findSession(db, id);
}

/** Ends this browser's session (if any) and returns the Set-Cookie header value that clears the cookie. */
export async function destroySession(request: Request, context: Pick<AppLoadContext, "db" | "config">): Promise<string> {
  await endSession(context.db, sessionToken(request));
  return sessionCookie("", isSecure(context), 0);
}

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
