import type { Concentration, Family } from "./perfume-facts";

/**
 * The shop's state lives in its URL (/shop?q=&category=&brand=&concentration=&family=&min=&max=&sort=&page=), so a filtered page
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

/** The orders a shopper can choose; "relevance" (best match) only means something with a search. */
export const SHOP_SORTS = ["newest", "price-asc", "price-desc", "best-selling", "discount"] as const;
export type ShopSort = (typeof SHOP_SORTS)[number] | "relevance";

export interface ShopFilters {
  q: string;
  category: number | null;
  brand: number | null;
  /** any of these (none: all), in CONCENTRATIONS order; several values repeat the parameter */
  concentrations: Concentration[];
  /** any of these scent families (none: all), in FAMILIES order */
  families: Family[];
  /** whole naira */
  min: number;
  max: number;
  /** null: the default order, best match for a search and newest first otherwise */
  sort: ShopSort | null;
  page: number;
}

export const NO_FILTERS: ShopFilters = { q: "", category: null, brand: null, concentrations: [], families: [], min: PRICE_MIN, max: PRICE_MAX, sort: null, page: 1 };

/** The order a listing is shown in: best match only while searching, newest first by default. */
export function effectiveSort(filters: Pick<ShopFilters, "q" | "sort">): ShopSort {
  const searching = filters.q.trim() !== "";
  if (filters.sort === "relevance" || filters.sort === null) return searching ? "relevance" : "newest";
  return filters.sort;
}

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
  for (const value of next.concentrations) params.append("concentration", value);
  for (const value of next.families) params.append("family", value);
  if (next.min > PRICE_MIN) params.set("min", String(next.min));
  if (next.max < PRICE_MAX) params.set("max", String(next.max));
  // The default order stays out of the URL; so does best match once the search is cleared.
  const sort = effectiveSort(next);
  if (sort !== (next.q ? "relevance" : "newest")) params.set("sort", sort);
  if (next.page > 1) params.set("page", String(next.page));
  const query = params.toString();
  return query ? `/shop?${query}` : "/shop";
}
