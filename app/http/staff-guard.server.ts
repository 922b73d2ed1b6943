import { type AppLoadContext, data, redirect } from "react-router";
import type { SessionUser } from "~/domain/accounts/sessions.server";
import { secondFactorDueFor } from "~/domain/accounts/second-factor.server";
import { can, type Permission } from "~/domain/backoffice/permissions.server";
import { logSecurityEvent } from "~/platform/security-log.server";
import { changePasswordPath, requireUser } from "./session.server";

/** The admin area's guards: who may open a screen or take an action, by the permissions table (docs/decisions/218). */

type GuardContext = Pick<AppLoadContext, "db"> & { clientIp?: string };

function refuse(user: SessionUser, request: Request, context: GuardContext, permission: Permission): never {
  const url = new URL(request.url);
  logSecurityEvent("admin_forbidden", { userId: user.id, role: user.role, permission, method: request.method, path: url.pathname, ip: context.clientIp });
  throw data("Forbidden", { status: 403 });
}

/**
 * First line of every admin loader and action. Signed-out visitors sign in and come back; an account
 * whose role lacks the permission gets 403 (customers included); staff who must choose a new password
 * do that first. The role is read with the session on every request, so a change applies at once.
 */
export async function requirePermission(
  request: Request,
  context: GuardContext,
  permission: Permission,
  options: { settingUpSecondFactor?: boolean } = {},
): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (!can(user.role, permission)) refuse(user, request, context, permission);
  if (user.mustChangePassword) throw redirect(changePasswordPath(request));
  // A role that must sign in with a second factor sets it up before using the admin once its grace
  // is over (docs/decisions/222); the page where it is set up is the one exception.
  if (!options.settingUpSecondFactor && !user.secondFactor && (await secondFactorDueFor(context.db, user)).state === "required") {
    throw redirect(secondFactorSetupPath(request));
  }
  return user;
}

/** The staff member's own account page, where the second factor is set up, coming back to this request's page. */
export function secondFactorSetupPath(request: Request): string {
  const back = new URL(changePasswordPath(request), "http://x").searchParams.get("redirectTo") ?? "/admin";
  return `/admin/account?redirectTo=${encodeURIComponent(back)}`;
}

/** A further permission for one part of an action (a refund on the order page): 403 without it. */
export function assertPermission(user: SessionUser, request: Request, context: GuardContext, permission: Permission): void {
  if (!can(user.role, permission)) refuse(user, request, context, permission);
}
