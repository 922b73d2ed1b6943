import { type AppLoadContext, redirect } from "react-router";
import { verifyPassword } from "~/platform/password.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { logSecurityEvent } from "~/platform/security-log.server";
import { clearAttempts, consumeAttempt } from "../operations/rate-limits.server";
import type { SessionUser } from "./sessions.server";

/**
 * Sensitive actions (a refund, a role change, a staff member suspended or removed, the customers'
 * export) ask for the password again when the session last proved it more than REAUTH_AFTER_MS ago
 * (docs/decisions/222). The time is kept on the session (sessions.authenticated_at): set at sign-in
 * and by the confirmation form.
 */
export const REAUTH_AFTER_MS = 15 * 60 * 1000;

export function recentlyAuthenticated(user: Pick<SessionUser, "authenticatedAt">, now = Date.now()): boolean {
  if (!user.authenticatedAt) return false;
  const at = Date.parse(user.authenticatedAt);
  return Number.isFinite(at) && now - at < REAUTH_AFTER_MS && at <= now + 60_000;
}

/** The page a request was made from or for: where the confirmation form returns. */
function pageOf(request: Request, back?: string): string {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  const path = url.pathname.replace(/\.data$/, "");
  return safeRedirectPath(back ?? path + url.search);
}

/**
 * Before a sensitive action: passes when the session proved its password in the last 15 minutes,
 * else sends the browser to confirm it, coming back to `back` (the page whose form asked; by default
 * the request's own address, which for a download is the download itself).
 */
export function requireRecentAuthentication(request: Request, user: Pick<SessionUser, "authenticatedAt" | "id">, back?: string): void {
  if (recentlyAuthenticated(user)) return;
  logSecurityEvent("reauthentication_asked", { userId: user.id, path: new URL(request.url).pathname });
  throw redirect(`/auth/confirm-password?redirectTo=${encodeURIComponent(pageOf(request, back))}`);
}

type ConfirmContext = Pick<AppLoadContext, "db" | "engine"> & { clientIp: string };

/**
 * The confirmation form: the password is checked as a sign-in's is, against the same limits (the
 * IP address and the account at that address), and on success the session's authentication time is
 * now. Throws TooManyAttempts when over a limit.
 */
export async function confirmPassword(context: ConfirmContext, user: Pick<SessionUser, "id" | "email" | "sessionId">, password: string): Promise<boolean> {
  const here = `${user.email}\n${context.clientIp}`;
  await consumeAttempt(context, "signInIp", context.clientIp);
  await consumeAttempt(context, "signInAccountIp", here);
  const row = await context.db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirst();
  if (!row || !(await verifyPassword(row.password_hash, password))) {
    logSecurityEvent("reauthentication_failed", { userId: user.id, ip: context.clientIp });
    return false;
  }
  await clearAttempts(context, "signInAccountIp", here);
  await context.db.updateTable("sessions").set({ authenticated_at: new Date().toISOString() }).where("id", "=", user.sessionId).execute();
  logSecurityEvent("reauthenticated", { userId: user.id, ip: context.clientIp });
  return true;
}
