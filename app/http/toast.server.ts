import { randomBytes } from "node:crypto";
import { type AppLoadContext, createCookie, redirect } from "react-router";
import { safeRedirectPath } from "../lib/safe-redirect";
import type { Toast, ToastInput } from "../lib/toast";

/**
 * Toasts travel as a one-time signed cookie ("flash"): an action sets it and redirects, and the next
 * page's root loader reads and clears it. The same path serves forms without JavaScript (a normal
 * redirect) and fetchers (React Router follows the redirect and revalidates without a reload).
 */

function flashCookie(context: Pick<AppLoadContext, "config">) {
  return createCookie("ub_toast", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60,
    secure: context.config.publicUrl.startsWith("https://"),
    secrets: [context.config.sessionSecret],
  });
}

export async function toastCookie(context: Pick<AppLoadContext, "config">, toast: ToastInput): Promise<string> {
  const value: Toast = { ...toast, id: randomBytes(6).toString("hex") };
  return flashCookie(context).serialize(value);
}

/** Reads this request's toast, if any, and the Set-Cookie value that clears it. */
export async function readToast(
  request: Request,
  context: Pick<AppLoadContext, "config">,
): Promise<{ toast: Toast | null; clear: string | null }> {
  const cookie = flashCookie(context);
  const value = (await cookie.parse(request.headers.get("Cookie"))) as Toast | null;
  if (!value || typeof value.key !== "string" || !["success", "info", "error"].includes(value.type)) {
    return { toast: null, clear: null };
  }
  return { toast: value, clear: await cookie.serialize("", { maxAge: 0 }) };
}

/**
 * The same-origin page the form was on (from Referer), else the fallback. The path passes the same
 * check as a redirect after sign-in: `http://shop//evil.example/x` is not a way off the site.
 */
export function backTo(request: Request, fallback: string): string {
  const referer = request.headers.get("Referer");
  if (!referer) return fallback;
  try {
    const from = new URL(referer);
    const self = new URL(request.url);
    return from.host === self.host ? safeRedirectPath(from.pathname + from.search, fallback) : fallback;
  } catch {
    return fallback;
  }
}

/** Redirect (303, so a reload never re-posts) with a toast for the next page. */
export async function redirectWithToast(
  context: Pick<AppLoadContext, "config">,
  url: string,
  toast: ToastInput,
  init: { headers?: HeadersInit; status?: number } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(context, toast));
  return redirect(url, { status: init.status ?? 303, headers });
}
