/**
 * The shop's state lives in its URL (/shop?q=&category=&brand=&min=&max=&page=), so a filtered page
 * can be shared, reloaded and navigated with Back. This module is small on purpose: it runs in the
 * browser too (pagination and reset links). Parsing and clamping of untrusted input is on the server
 * (parseShopQuery in ~/domain/catalog.server).
 */

export const SHOP_PAGE_SIZE = 8;
/** The price slider's range and default, in whole naira. */
export const PRICE_MIN = 0;
export const PRICE_MAX = 600_000;
/** The longest search text that is looked up; longer input is cut, never refused. */
export const SEARCH_MAX_LENGTH = 100;

export interface ShopFilters {
  q: string;
  category: number | null;
  brand: number | null;
  /** whole naira */
  min: number;
  max: number;
  page: number;
}

export const NO_FILTERS: ShopFilters = { q: "", category: null, brand: null, min: PRICE_MIN, max: PRICE_MAX, page: 1 };

/**
 * The /shop URL for these filters with some of them changed. Defaults are left out, and any change
 * other than the page itself goes back to page 1.
 */
export function shopHref(filters: ShopFilters, change: Partial<ShopFilters> = {}): string {
  const next = { ...filters, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.category) params.set("category", String(next.category));
  if (next.brand) params.set("brand", String(next.brand));
  if (next.min > PRICE_MIN) params.set("min", String(next.min));
  if (next.max < PRICE_MAX) params.set("max", String(next.max));
  if (next.page > 1) params.set("page", String(next.page));
  const query = params.toString();
  return query ? `/shop?${query}` : "/shop";
}
