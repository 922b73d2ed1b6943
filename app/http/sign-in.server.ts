import type { AppLoadContext } from "react-router";
import { recordSignIn } from "~/domain/accounts/accounts.server";
import { startChallenge } from "~/http/second-factor.server";
import { mergeVisitorViews } from "~/domain/shopper/recently-viewed.server";
import { RECENT_COOKIE } from "~/lib/recently-viewed";
import { safeRedirectPath } from "~/lib/safe-redirect";
import type { ToastInput } from "~/lib/toast";
import { mergeCartOnSignIn } from "./cart.server";
import { serializeCookie } from "./cookies.server";
import { createSession, destroySession } from "./session.server";
import { redirectWithToast } from "./toast.server";

/**
 * The one way a browser becomes signed in (sign-in form and registration): a new session id, the
 * browser's previous session ended, and a 303 to the same-site path it came for, with a toast.
 * Anything that must happen when a shopper signs in (such as adopting the cart they filled while
 * signed out) belongs here.
 */
export async function signIn(
  request: Request,
  context: Pick<AppLoadContext, "db" | "config">,
  userId: number,
  redirectTo: string | null | undefined,
  toast: ToastInput,
): Promise<Response> {
  await destroySession(request, context);
  const headers = new Headers({ "Set-Cookie": await createSession(context, userId) });
  // What the shopper put in the cart before signing in joins the account's cart.
  const clearGuestCart = await mergeCartOnSignIn(request, context, userId);
  if (clearGuestCart) headers.append("Set-Cookie", clearGuestCart);
  // So do the perfumes viewed as a visitor (docs/decisions/126).
  if (await mergeVisitorViews(context.db, userId, request.headers.get("Cookie") ?? "")) {
    headers.append("Set-Cookie", serializeCookie(RECENT_COOKIE, "", { maxAgeSeconds: 0 }));
  }
  const target = safeRedirectPath(redirectTo);
  if ((await recordSignIn(context.db, userId)).mustChangePassword) {
    // A password the owner did not choose (the demo admin's): a new one comes first.
    const choose = `/auth/change-password?redirectTo=${encodeURIComponent(target)}`;
    return redirectWithToast(context, choose, { type: "info", key: "auth.toast.choosePassword" }, { headers });
  }
  return redirectWithToast(context, target, toast, { headers });
}

/**
 * The password was right: an account with a second factor is asked for its code first (a challenge,
 * no session yet, docs/decisions/222); any other signs in now.
 */
export async function passwordAccepted(
  request: Request,
  context: Pick<AppLoadContext, "db" | "config">,
  result: { userId: number; secondFactor: boolean },
  redirectTo: string | null | undefined,
  toast: ToastInput,
): Promise<Response> {
  if (!result.secondFactor) return signIn(request, context, result.userId, redirectTo, toast);
  const cookie = await startChallenge(context, result.userId, redirectTo);
  return new Response(null, { status: 303, headers: { Location: "/auth/second-factor", "Set-Cookie": cookie } });
}
