// Recently viewed perfumes (docs/decisions/126). Signed-in shoppers' views are kept on the server;
// a visitor's are kept in this cookie by the browser. It is not one of the cookies that make a page
// personal to shared caches (`ub_session`, `ub_cart`: docs/decisions/216), so visitors' product pages
// stay shared.

export const RECENT_COOKIE = "recently_viewed";
/** at most this many perfumes in a strip, and asked of /api/products/cards at once */
export const RECENT_SHOWN = 8;

/** The ids in a visitor's cookie, latest first; anything that is not an id is skipped. */
export function cookieIds(cookie: string): number[] {
  const ids = (cookie.match(/(?:^|;\s*)recently_viewed=([^;]*)/)?.[1] ?? "").split(".").map(Number);
  return [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0 && id < 2 ** 31))];
}

/**
 * In the browser: puts `id` first in the visitor's cookie, keeping one more than a strip shows (the
 * page's own product is left out of it), and returns the ids viewed before it, latest first. Kept small
 * (it is part of the product page's script): the server checks every id it is sent.
 */
export function rememberView(id: number): string[] {
  const before = document.cookie.match(/(?:^|; )recently_viewed=([\d.]+)/)?.[1].split(".").filter((other) => other && other !== String(id)) ?? [];
  document.cookie = `${RECENT_COOKIE}=${[id, ...before].slice(0, RECENT_SHOWN + 1).join(".")};path=/;max-age=7776000;samesite=lax`;
  return before;
}

/**
 * The `ids` of /api/products/cards: up to RECENT_SHOWN product ids separated by commas, each a whole
 * number in the id range; repeats count once. Null for anything else.
 */
export function parseCardIds(value: string | null): number[] | null {
  if (!value || value.length > RECENT_SHOWN * 11) return null;
  const parts = value.split(",");
  if (parts.length > RECENT_SHOWN || !parts.every((part) => /^[1-9]\d{0,9}$/.test(part) && Number(part) < 2 ** 31)) return null;
  return [...new Set(parts.map(Number))];
}
