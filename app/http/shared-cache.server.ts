import { createHash } from "node:crypto";

/**
 * What a page tells browsers, nginx and CDNs about keeping it (docs/decisions/216). Only an anonymous
 * storefront page may be kept by a shared cache: asked without a session or a cart, answered 200
 * without setting a cookie (a toast, a language choice). Everything else is the shopper's own.
 */
export interface PageAnswer {
  /** the page's route says a shared cache may keep it (`handle.sharedCache`) */
  shareable: boolean;
  /** the request carries a session or a cart: the page shows the shopper's own parts */
  personal: boolean;
  setsCookie: boolean;
  status: number;
  method: string;
  /** how long a shared cache may answer it without asking (SHARED_CACHE_SECONDS) */
  seconds: number;
}

export const PRIVATE = "private, no-store";

export function isShared(answer: PageAnswer): boolean {
  return answer.shareable && !answer.personal && !answer.setsCookie && answer.status === 200 && (answer.method === "GET" || answer.method === "HEAD");
}

/**
 * Browsers always ask again (max-age=0) and get a 304 when nothing changed; a shared cache answers for
 * `seconds`, then for as long again sends the page it has while it fetches a new one.
 */
export function cacheControl(answer: PageAnswer): string {
  if (!isShared(answer)) return PRIVATE;
  if (answer.seconds === 0) return "public, no-cache";
  return `public, max-age=0, s-maxage=${answer.seconds}, stale-while-revalidate=${answer.seconds}`;
}

/** Cookies whose presence makes a page the shopper's own (the session's name may carry a __Host- prefix). */
const PERSONAL_COOKIE = /(?:^|;\s*)(?:__Host-)?(?:ub_session|ub_cart)=/;

export function carriesPersonalCookie(request: Request): boolean {
  return PERSONAL_COOKIE.test(request.headers.get("Cookie") ?? "");
}

/** A weak validator of a page's bytes: a browser that has them gets a 304 instead of the page again. */
export function pageEtag(bytes: Uint8Array): string {
  return `W/"${createHash("sha1").update(bytes).digest("base64url")}"`;
}

export function matchesEtag(request: Request, etag: string): boolean {
  const asked = request.headers.get("If-None-Match");
  if (!asked) return false;
  return asked.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*");
}
