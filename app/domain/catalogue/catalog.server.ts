import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import { z } from "zod";
import { builtOnce } from "~/db/built-once.server";
import { type Db, isPostgres, PREPARED, preparedLimit } from "~/db/client.server";
import { fromJson, jsonArray, jsonTuple } from "~/db/json.server";
import type { Database } from "~/db/schema";
import { DISCOUNT_PER_MILLE } from "~/db/migrations/0041_product_sorting";
import { CONCENTRATIONS, type Concentration, FAMILIES, type Family, knownValues } from "~/lib/perfume-facts";
import { effectiveSort, NO_FILTERS, PRICE_MAX, PRICE_MIN, SEARCH_MAX_LENGTH, SHOP_PAGE_SIZE, SHOP_SORTS, type ShopFilters, type ShopSort } from "~/lib/shop-url";
import type { Locale } from "~/lib/i18n";
import { RecentlyUsed } from "~/lib/recently-used";
import { type ProductSize, sizesColumn, sizesFromColumn } from "./product-sizes.server";

// ---------------------------------------------------------------------------------------------
// Change notifications

// Anything that caches what the shop shows (e.g. rendered pages, kept cards) listens here; every
// change to products, brands or categories calls catalogChanged() after it commits, and a change
// another instance announced (app/domain/catalogue/catalog-broadcast.server.ts) calls catalogChanged("elsewhere").
// The listeners live on globalThis because server.ts and the app's server build each load their own
// copy of this module.
const LISTENERS = Symbol.for("unboxed.catalogListeners");
/** where the catalogue changed: on this instance, or on another one sharing its database */
export type CatalogChange = "here" | "elsewhere";
/**
 * What a change may have altered (docs/decisions/205): anything, or only what an order of these
 * products that sold none out alters (their own pages, and what sorts by sales: page-cache.server.ts,
 * orderTiesOf). A product that sold out changes every card of it, so its order alters anything.
 */
export type CatalogScope = "anything" | { ordered: readonly number[] };
type CatalogListener = (where: CatalogChange, scope: CatalogScope) => void;
const registry = globalThis as typeof globalThis & { [LISTENERS]?: Set<CatalogListener> };
const catalogListeners = (registry[LISTENERS] ??= new Set<CatalogListener>());

export function onCatalogChange(listener: CatalogListener): () => void {
  catalogListeners.add(listener);
  return () => catalogListeners.delete(listener);
}

/**
 * Tells every listener of a change. Called after the change committed, so nothing a listener does may
 * fail its caller (a shopper's order placed would show an error, and be placed again): a listener that
 * throws on a narrow change is told of the whole one instead, which is always safe, and one that fails
 * at that too is logged. The others are told in any case.
 */
export function catalogChanged(where: CatalogChange = "here", scope: CatalogScope = "anything"): void {
  for (const listener of catalogListeners) {
    try {
      listener(where, scope);
    } catch (error) {
      try {
        if (scope === "anything") throw error;
        listener(where, "anything");
      } catch (failed) {
        console.error("a catalogue change listener failed:", failed);
      }
    }
  }
}

/**
 * What taking stock from these products altered, read in the transaction that took it, after taking it
 * (each product's summary row is then locked: a later order waits, an earlier one is counted): only
 * their stock, unless one of them sold out.
 */
export async function stockTakenScope(trx: Db, productIds: readonly number[]): Promise<CatalogScope> {
  // Stock taken from a product that had it: its card changes only if none is left, whatever was taken.
  return stockMovedScope(trx, new Map(productIds.map((id) => [id, -1])));
}

/**
 * What moving these products' stock altered (an order placed, cancelled, expired or confirmed, an
 * owner's count), read in the transaction that moved it, after moving it: what an order of them
 * alters, unless one of them sold out or came back into stock, which changes every card of it.
 * `moved`: each product's change of stock, more than 0 for stock added or given back.
 */
export async function stockMovedScope(trx: Db, moved: ReadonlyMap<number, number>): Promise<CatalogScope> {
  if (moved.size === 0) return "anything";
  const rows = await trx.selectFrom("products").select(["id", "stock"]).where("id", "in", [...moved.keys()]).execute();
  const cardChanged = (row: { id: number; stock: number }) => (Number(row.stock) > 0) !== (Number(row.stock) - (moved.get(row.id) ?? 0) > 0);
  return rows.length === moved.size && !rows.some(cardChanged) ? { ordered: [...moved.keys()] } : "anything";
}

/** Each product's change of stock when these order items are given back (1) or taken (-1). */
export function stockMoves(items: readonly { product_id: number | null; quantity: number }[], direction: 1 | -1): Map<number, number> {
  const moved = new Map<number, number>();
  for (const item of items) if (item.product_id !== null) moved.set(item.product_id, (moved.get(item.product_id) ?? 0) + direction * item.quantity);
  return moved;
}

/** Two changes told as one (several orders expired in one run). */
export function bothChanges(first: CatalogScope | null, second: CatalogScope): CatalogScope {
  if (first === null) return second;
  if (first === "anything" || second === "anything") return "anything";
  return { ordered: [...new Set([...first.ordered, ...second.ordered])] };
}

/** What a product card needs: everything is read fresh from the catalogue. */
export interface ProductCard {
  id: number;
  slug: string;
  name: string;
  /** the cheapest size's price and discount (docs/decisions/121) */
  price: number;
  discount: number | null;
  /** the dearest size's price: above `price`, the card says "from" */
  priceMax: number;
  /**
   * 1 when none of its sizes has stock, else 0: all a card says of its stock. Not the number of
   * bottles, so an order that sells none out changes no card (docs/decisions/205).
   */
  soldOut: 0 | 1;
  image: string | null;
  brandName: string;
  /** visible reviews and the sum of their ratings: the average is ratingTotal / reviewCount */
  reviewCount: number;
  ratingTotal: number;
  /** when the automatic sale on the price shown ends, in Lagos time as shown (docs/decisions/225), or null */
  saleEnds: string | null;
}

export interface ProductDetail extends Omit<ProductCard, "soldOut"> {
  /** of all its sizes */
  stock: number;
  description: string;
  concentration: string | null;
  family: string | null;
  brandId: number;
  categoryId: number;
  categoryName: string;
  updatedAt: string;
  /** its sizes in the owner's order; always at least one */
  sizes: ProductSize[];
}

export interface NamedRow {
  id: number;
  name: string;
}

/** A card's soldOut, from products `p`. */
const SOLD_OUT = sql<0 | 1>`case when p.stock > 0 then 0 else 1 end`;

function cardQuery(db: Db) {
  return db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select(["p.id", "p.slug", "p.name", "p.price", "p.discount", "p.price_max as priceMax", SOLD_OUT.as("soldOut"), "p.image", "b.name as brandName", "p.review_count as reviewCount", "p.rating_total as ratingTotal", "p.sale_ends_at as saleEnds"])
    .where("p.archived_at", "is", null);
}

// A card's fields in cardQuery's order, and the columns they come from.
const CARD_FIELDS = [
  ["id", "p.id"],
  ["slug", "p.slug"],
  ["name", "p.name"],
  ["price", "p.price"],
  ["discount", "p.discount"],
  ["priceMax", "p.price_max"],
  ["soldOut", SOLD_OUT],
  ["image", "p.image"],
  ["brandName", "b.name"],
  ["reviewCount", "p.review_count"],
  ["ratingTotal", "p.rating_total"],
  ["saleEnds", "p.sale_ends_at"],
] as const satisfies readonly (readonly [keyof ProductCard, string | Expression<unknown>])[];

/**
 * productCards as one column of another statement (a product page's related perfumes, in
 * app/domain/catalogue/product-page.server.ts): the cards of the products whose ids the subquery `ids` selects
 * that are still in the shop, `after` each card's fields, in no particular order. Read it with
 * `newestFirst` (with the date after) or `cardAt`.
 */
export function productCardsColumn<DB, TB extends keyof DB>(db: Db, ids: SelectQueryBuilder<DB, TB, { product_id: number }>, after: Expression<unknown>[] = []) {
  return db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select(jsonArray(db, jsonTuple(db, [...CARD_COLUMNS, ...after])).as("cards"))
    .where("p.archived_at", "is", null)
    .where("p.id", "in", ids);
}

/** A card from a JSON tuple of CARD_FIELDS (and perhaps more values after them). */
const cardOf = (tuple: unknown[]) => cardAt(tuple, 0);

/**
 * A card from a JSON tuple holding CARD_FIELDS from index `at` on. Written out field by field, in
 * CARD_FIELDS' order (the home carousels' test in app/domain/catalogue/catalog.test.ts holds them to it), so
 * that every card has one shape: such objects are quicker to read and to write as JSON than ones
 * made from entries.
 */
export const cardAt = (tuple: unknown[], at: number): ProductCard => ({
  id: tuple[at] as number,
  slug: tuple[at + 1] as string,
  name: tuple[at + 2] as string,
  price: tuple[at + 3] as number,
  discount: tuple[at + 4] as number | null,
  priceMax: tuple[at + 5] as number,
  soldOut: tuple[at + 6] as 0 | 1,
  image: tuple[at + 7] as string | null,
  brandName: tuple[at + 8] as string,
  reviewCount: tuple[at + 9] as number,
  ratingTotal: tuple[at + 10] as number,
  saleEnds: tuple[at + 11] as string | null,
});

/** A card's columns in a tuple read with `cardAt`, from products `p` joined with brands `b`. */
export const CARD_COLUMNS: Expression<unknown>[] = CARD_FIELDS.map(([, column]) => (typeof column === "string" ? sql.ref(column) : column));

/** The newest products in the shop, newest first. */
export async function newestProducts(db: Db, limit: number): Promise<ProductCard[]> {
  return cardQuery(db).orderBy("p.created_at", "desc").orderBy("p.id", "desc").limit(preparedLimit(limit)).modifyEnd(PREPARED).execute();
}

/** Cards for the given products that are still in the shop, in no particular order. */
export async function productCards(db: Db, ids: number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  return cardQuery(db).where("p.id", "in", ids).execute();
}

/** cards kept in memory per database, and how long a kept card is used before it is read again */
const CARDS_KEPT = 5_000;
export const CARD_KEPT_MS = 60_000;
interface KeptCard {
  at: number;
  /** null: the product is not in the shop (archived or deleted) */
  card: ProductCard | null;
}
// By database (tests open several), whatever Kysely instance reaches it (a transaction, a plugin).
// Emptied by every catalogue change, here or on another instance (docs/decisions/196): a read that
// began before a change keeps what it read in the emptied map, not in the new one.
let keptCards = new WeakMap<object, RecentlyUsed<number, KeptCard>>();
onCatalogChange(() => {
  keptCards = new WeakMap();
});

/**
 * Cards for these ids in the order given, without products no longer in the shop, from memory where
 * kept (docs/decisions/196): a signed-in shopper's recently viewed row is on every product page they
 * open, and is made of the same few cards page after page. Only the cards not kept are read.
 */
export async function productCardsInOrder(db: Db, ids: readonly number[]): Promise<ProductCard[]> {
  const database = db.getExecutor().adapter;
  let kept = keptCards.get(database);
  if (kept === undefined) keptCards.set(database, (kept = new RecentlyUsed(CARDS_KEPT)));
  const now = Date.now();
  const missing = [...new Set(ids)].filter((id) => !((kept.get(id)?.at ?? -Infinity) > now - CARD_KEPT_MS));
  if (missing.length) {
    const read = new Map((await productCards(db, missing)).map((card) => [card.id, card]));
    for (const id of missing) kept.set(id, { at: now, card: read.get(id) ?? null });
  }
  const cards: ProductCard[] = [];
  for (const id of ids) {
    const card = kept.get(id)?.card;
    if (card) cards.push(card);
  }
  return cards;
}

export async function countProducts(db: Db): Promise<number> {
  const row = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The home page's carousels: the newest arrivals, and the newest of the men's and women's categories. */
export const HOME_NEWEST = 5;
export const HOME_PER_CATEGORY = 10;

export interface HomeCarousels {
  newest: ProductCard[];
  mens: ProductCard[];
  womens: ProductCard[];
}

/**
 * The home page's three carousels, newest first, in one statement: on PostgreSQL each statement is a
 * round trip, and the home page is the largest page rendered.
 */
export async function homeCarousels(db: Db): Promise<HomeCarousels> {
  const [row] = await readHomeCarousels(db);
  return { newest: newestFirst(row.newest), mens: newestFirst(row.mens), womens: newestFirst(row.womens) };
}

const readHomeCarousels = builtOnce((db) => {
  // The newest cards, of one category or all, as one JSON column: each card's fields, then its date.
  const newestIn = (categorySlug: string | null, limit: number) => {
    let newest = cardQuery(db).select("p.created_at");
    if (categorySlug !== null) newest = newest.innerJoin("categories as c", "c.id", "p.category_id").where("c.slug", "=", categorySlug);
    const rows = newest.orderBy("p.created_at", "desc").orderBy("p.id", "desc").limit(preparedLimit(limit)).as("n");
    const fields = [...CARD_FIELDS.map(([field]) => sql.ref(`n.${field}`)), sql.ref("n.created_at")];
    return db.selectFrom(rows).select(jsonArray(db, jsonTuple(db, fields)).as("cards"));
  };
  return db
    .selectNoFrom([newestIn(null, HOME_NEWEST).as("newest"), newestIn("men", HOME_PER_CATEGORY).as("mens"), newestIn("women", HOME_PER_CATEGORY).as("womens")])
    .modifyEnd(PREPARED);
});

/** Cards read with their dates after them (readHomeCarousels, productCardsColumn), newest first: a JSON array comes in no particular order. */
export function newestFirst(value: unknown): ProductCard[] {
  const at = CARD_FIELDS.length;
  const byDate = (a: unknown[], b: unknown[]) => (String(a[at]) < String(b[at]) ? 1 : String(a[at]) > String(b[at]) ? -1 : 0);
  return fromJson<unknown[][]>(value)
    .sort((a, b) => byDate(a, b) || Number(b[0]) - Number(a[0]))
    .map(cardOf);
}

/** A category's name in the shopper's language: the Spanish one when there is one, else the English. */
export function categoryName(locale: Locale) {
  return locale === "es" ? sql<string>`coalesce(c.name_es, c.name)` : sql<string>`c.name`;
}

/**
 * The categories the shop's filters offer, by name in the shopper's language: only those with a
 * product on sale (one whose products are all archived would lead to an empty page).
 */
export async function listCategories(db: Db, locale: Locale = "en"): Promise<NamedRow[]> {
  const name = categoryName(locale);
  return db
    .selectFrom("categories as c")
    .select(["c.id", name.as("name")])
    .where(({ exists, selectFrom }) =>
      exists(selectFrom("products as p").select("p.id").whereRef("p.category_id", "=", "c.id").where("p.archived_at", "is", null)),
    )
    .orderBy(name)
    .orderBy("c.id")
    .execute();
}

/** The brands the shop's filters offer: only those with a product on sale. */
export async function listBrands(db: Db): Promise<NamedRow[]> {
  return db
    .selectFrom("brands as b")
    .select(["b.id", "b.name"])
    .where(({ exists, selectFrom }) =>
      exists(selectFrom("products as p").select("p.id").whereRef("p.brand_id", "=", "b.id").where("p.archived_at", "is", null)),
    )
    .orderBy("b.name")
    .orderBy("b.id")
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The shop listing

const firstValue = (params: URLSearchParams, name: string) => params.get(name) ?? undefined;
const wholeNumber = z.coerce.number().int().finite();
const optionalId = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number)
  .optional()
  .catch(undefined);
const naira = z
  .string()
  .regex(/^\d{1,12}$/)
  .transform((v) => Math.min(PRICE_MAX, Math.max(PRICE_MIN, Number(v))))
  .optional()
  .catch(undefined);

const shopQuerySchema = z.object({
  // Cut, never refused: a pasted paragraph still searches for its start.
  q: z
    .string()
    .transform((v) => v.replace(/\s+/g, " ").trim().slice(0, SEARCH_MAX_LENGTH).trim())
    .optional()
    .catch(undefined),
  category: optionalId,
  brand: optionalId,
  min: naira,
  max: naira,
  sort: z.enum([...SHOP_SORTS, "relevance"]).optional().catch(undefined),
  page: wholeNumber.min(1).optional().catch(undefined),
});

/**
 * The shop's filters from a query string. Anything malformed is ignored or clamped, so every query
 * string reaches a valid page: unknown categories and brands are dropped, prices are clamped to the
 * slider's range (and swapped when max is below min), an unknown order is the default one, the page
 * is at least 1 (the listing clamps the top).
 */
export function parseShopQuery(
  params: URLSearchParams,
  known: { categories: readonly NamedRow[]; brands: readonly NamedRow[] },
): ShopFilters {
  const raw = shopQuerySchema.parse({
    q: firstValue(params, "q"),
    category: firstValue(params, "category"),
    brand: firstValue(params, "brand"),
    min: firstValue(params, "min"),
    max: firstValue(params, "max"),
    sort: firstValue(params, "sort"),
    page: firstValue(params, "page"),
  });
  let min = raw.min ?? PRICE_MIN;
  let max = raw.max ?? PRICE_MAX;
  if (max < min) [min, max] = [max, min];
  return {
    ...NO_FILTERS,
    q: raw.q ?? "",
    category: known.categories.some((c) => c.id === raw.category) ? raw.category! : null,
    brand: known.brands.some((b) => b.id === raw.brand) ? raw.brand! : null,
    min,
    max,
    // Several values each; unknown ones are dropped, and the rest put in their list's order.
    concentrations: knownValues(params.getAll("concentration").slice(0, 20), CONCENTRATIONS),
    families: knownValues(params.getAll("family").slice(0, 40), FAMILIES),
    sort: raw.sort ?? null,
    page: Math.min(raw.page ?? 1, 1_000_000),
  };
}

// ---------------------------------------------------------------------------------------------
// Search (docs/decisions/130)
//
// The shopper's text is cut into words; a product matches when every word is part of its name or of
// its brand's name, ignoring case and accents. Each engine uses its own index, built by migration
// 0040: SQLite an FTS5 trigram table (product_search), PostgreSQL a pg_trgm index on shop_fold(name).
// Products whose own name holds every word come first.

/** At most this many words are looked up; the rest of a pasted paragraph is ignored. */
const SEARCH_MAX_WORDS = 8;
/** The trigram index finds parts of words from three characters; shorter words are compared directly. */
const TRIGRAM = 3;

export function searchWords(q: string): string[] {
  const words = q.split(" ").filter(Boolean);
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS);
}

/** `%`, `_` and `\\` in the shopper's text match themselves, not patterns. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** An FTS5 query: each word a quoted string (quotes doubled), all of them required. */
function ftsWords(words: string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"`).join(" AND ");
}

/**
 * Which products of a search a query reads: all of them, those whose own name holds every word, or
 * those found only through their brand's name. Words shorter than the trigram are a plain filter on
 * the name or the brand in every part.
 */
type SearchPart = "all" | "name" | "brand";

type ProductScope = ExpressionBuilder<Database & { p: Database["products"]; b: Database["brands"] }, "p" | "b">;
type Condition = Expression<SqlBool>;
type ListingQuery = SelectQueryBuilder<Database & { p: Database["products"]; b: Database["brands"] }, "p" | "b", object>;

interface Listing {
  query: ListingQuery;
  /** SQLite search: the FTS table drives the query, and its rowid order is the cheap one */
  fts: boolean;
}

function listing(db: Db, filters: ShopFilters, part: SearchPart): Listing {
  const postgres = isPostgres(db);
  const words = searchWords(filters.q);
  const indexed = words.filter((w) => [...w].length >= TRIGRAM);
  const short = words.filter((w) => [...w].length < TRIGRAM);
  // SQLite: the FTS table drives the query, read newest (highest id) first, so a page of a search
  // that matches most of the catalogue reads only as far as that page.
  const fts = !postgres && indexed.length > 0;
  let query: ListingQuery = fts
    ? (db
        .selectFrom("product_search as s")
        .innerJoin("products as p", "p.id", "s.rowid")
        .innerJoin("brands as b", "b.id", "p.brand_id") as unknown as ListingQuery)
    : db.selectFrom("products as p").innerJoin("brands as b", "b.id", "p.brand_id");
  if (fts) {
    const all = ftsWords(indexed);
    const match = part === "all" ? all : part === "name" ? `name : (${all})` : `(${all}) NOT (name : (${all}))`;
    query = query.where(sql<boolean>`product_search match ${match}`);
  }
  query = query.where((eb) => {
    const conditions: Condition[] = [eb("p.archived_at", "is", null)];
    if (filters.category) conditions.push(eb("p.category_id", "=", filters.category));
    if (filters.brand) conditions.push(eb("p.brand_id", "=", filters.brand));
    if (filters.concentrations.length > 0) conditions.push(eb("p.concentration", "in", filters.concentrations));
    if (filters.families.length > 0) conditions.push(eb("p.family", "in", filters.families));
    if (filters.min > PRICE_MIN) conditions.push(eb("p.price", ">=", filters.min * 100));
    if (filters.max < PRICE_MAX) conditions.push(eb("p.price", "<=", filters.max * 100));
    for (const word of short) conditions.push(inNameOrBrand(eb, postgres, word));
    if (postgres && indexed.length > 0) {
      const inAll = eb.and(indexed.map((w) => inNameOrBrand(eb, true, w)));
      const inName = eb.and(indexed.map((w) => inProductName(eb, true, w)));
      conditions.push(part === "all" ? inAll : part === "name" ? inName : eb.and([inAll, eb.not(inName)]));
    }
    return eb.and(conditions);
  });
  return { query, fts };
}

/** PostgreSQL folds case and accents with shop_fold (the pg_trgm index is on it); SQLite's LIKE folds ASCII case. */
function contains(postgres: boolean, column: Expression<string>, word: string): Condition {
  if (postgres) return sql<boolean>`shop_fold(${column}) like '%' || shop_fold(${escapeLike(word)}) || '%' escape '\\'`;
  return sql<boolean>`lower(${column}) like ${`%${escapeLike(word.toLowerCase())}%`} escape '\\'`;
}

function inProductName(eb: ProductScope, postgres: boolean, word: string): Condition {
  return contains(postgres, eb.ref("p.name"), word);
}

function inNameOrBrand(eb: ProductScope, postgres: boolean, word: string): Condition {
  if (!postgres) return eb.or([contains(false, eb.ref("p.name"), word), contains(false, eb.ref("b.name"), word)]);
  // The brands are few: their matching ids are read once (= any(array(...)) is computed before the
  // scan, where "in (select ...)" would be checked row by row), so both sides stay index lookups.
  const brands = sql`array(select id from brands where ${contains(true, sql.ref("brands.name"), word)})`;
  return eb.or([contains(true, eb.ref("p.name"), word), sql<boolean>`${eb.ref("p.brand_id")} = any(${brands})`]);
}

// ---------------------------------------------------------------------------------------------
// Counts, cached (docs/decisions/130)
//
// The number of products matching a set of filters is read once per catalogue version: a number in
// catalog_version that triggers raise on every change that could alter a listing, whoever makes it
// (this process, another instance, a script). Reading it is one tiny row; the cache is bounded and
// kept per database.

const COUNT_CACHE_ENTRIES = 2_000;
const countCaches = new WeakMap<Db, RecentlyUsed<string, unknown>>();

/** The version this process last read, per database: what a listing assumes (shopListing). */
const lastVersions = new WeakMap<Db, number>();

/** The catalogue's current version, read fresh: a cached count is only used at the version it was read. */
async function catalogVersion(db: Db): Promise<number> {
  const row = await db.selectFrom("catalog_version").select("version").where("id", "=", 1).modifyEnd(PREPARED).executeTakeFirst();
  const version = Number(row?.version ?? 0);
  lastVersions.set(db, version);
  return version;
}

/** The catalogue's version as a column of a listing's statement, read in the same snapshot as its rows. */
function catalogVersionColumn(db: Db) {
  return db.selectFrom("catalog_version").select("version").where("id", "=", sql.lit(1)).as("catalogVersion");
}

function cachedCount(db: Db, key: string, count: () => Promise<number>): Promise<number> {
  return cachedValue(db, key, count);
}

async function cachedValue<T>(db: Db, key: string, read: () => Promise<T>): Promise<T> {
  let cache = countCaches.get(db);
  if (!cache) countCaches.set(db, (cache = new RecentlyUsed(COUNT_CACHE_ENTRIES)));
  const hit = cache.get(key) as T | undefined;
  if (hit !== undefined) return hit;
  const value = await read();
  cache.set(key, value);
  return value;
}

function countMatching(db: Db, version: number, filters: ShopFilters, part: SearchPart): Promise<number> {
  const { page: _page, ...key } = filters;
  return cachedCount(db, `${version}|${part}|${JSON.stringify(key)}`, async () => {
    const row = await listing(db, filters, part)
      .query.select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
}

export interface ShopPage {
  products: ProductCard[];
  total: number;
  /** the page shown: the one asked for, clamped to 1..pageCount */
  page: number;
  pageCount: number;
}

/** `seen`, when given, is told the catalogue's version as the page's rows were read (unless there are none). */
async function pageOfProducts(db: Db, filters: ShopFilters, part: SearchPart, offset: number, limit: number, seen?: (version: number) => void): Promise<ProductCard[]> {
  const { query, fts } = listing(db, filters, part);
  const selected = query.select(["p.id", "p.slug", "p.name", "p.price", "p.discount", "p.price_max as priceMax", SOLD_OUT.as("soldOut"), "p.image", "b.name as brandName", "p.review_count as reviewCount", "p.rating_total as ratingTotal", "p.sale_ends_at as saleEnds"]);
  const ordered = ORDERS[effectiveSort(filters)](selected, fts).limit(limit).offset(offset);
  if (!seen) return ordered.execute();
  const rows = (await ordered.select(catalogVersionColumn(db)).execute()) as (ProductCard & { catalogVersion: unknown })[];
  if (rows.length) seen(Number(rows[0].catalogVersion));
  return rows.map(({ catalogVersion: _version, ...card }) => card);
}

type CardQuery = ReturnType<ListingQuery["select"]>;

/** Each order, with the most recently added first among equals; each has an index (migrations 0001, 0041). */
const ORDERS: Record<ShopSort, (query: CardQuery, fts: boolean) => CardQuery> = {
  newest: (q) => q.orderBy("p.created_at", "desc").orderBy("p.id", "desc"),
  // Within each part of a search (name matches, then brand matches), the most recently added first,
  // in the FTS table's own order on SQLite.
  relevance: (q, fts) => q.orderBy(fts ? sql`s.rowid` : sql`p.id`, "desc"),
  "price-asc": (q) => q.orderBy("p.price", "asc").orderBy("p.id", "desc"),
  "price-desc": (q) => q.orderBy("p.price", "desc").orderBy("p.id", "desc"),
  "best-selling": (q) => q.orderBy("p.sold", "desc").orderBy("p.created_at", "desc").orderBy("p.id", "desc"),
  discount: (q) => q.orderBy(sql.raw(DISCOUNT_PER_MILLE), "desc").orderBy("p.created_at", "desc").orderBy("p.id", "desc"),
};

/**
 * One page of the shop with the exact number of matching products, in the order asked for. The
 * default for a search is best match: the products whose own name holds every word first, then those
 * found by their brand's name, each most recently added first.
 */
export async function listShopProducts(db: Db, filters: ShopFilters, atVersion?: number, seen?: (version: number) => void): Promise<ShopPage> {
  const version = atVersion ?? (await catalogVersion(db));
  const total = await countMatching(db, version, filters, "all");
  const pageCount = Math.max(1, Math.ceil(total / SHOP_PAGE_SIZE));
  const page = Math.min(Math.max(1, filters.page), pageCount);
  const offset = (page - 1) * SHOP_PAGE_SIZE;
  if (total === 0) return { products: [], total, page, pageCount };
  const ranked = effectiveSort(filters) === "relevance" && searchWords(filters.q).some((w) => [...w].length >= TRIGRAM);
  if (!ranked) return { products: await pageOfProducts(db, filters, "all", offset, SHOP_PAGE_SIZE, seen), total, page, pageCount };
  // Name matches, then brand-only matches: each part is read in index order, only as far as this page.
  const byName = await countMatching(db, version, filters, "name");
  const products = offset < byName ? await pageOfProducts(db, filters, "name", offset, SHOP_PAGE_SIZE, seen) : [];
  if (products.length < SHOP_PAGE_SIZE && total > byName) {
    products.push(...(await pageOfProducts(db, filters, "brand", Math.max(0, offset - byName), SHOP_PAGE_SIZE - products.length, seen)));
  }
  return { products, total, page, pageCount };
}

export interface ShopFacets {
  concentration: Record<Concentration, number>;
  family: Record<Family, number>;
}

/**
 * How many products each concentration and scent family would show: counted with every other filter
 * applied but not the facet's own choices (values of one facet add up, facets narrow each other).
 * Cached like the listing's counts, per catalogue version.
 */
export async function shopFacets(db: Db, filters: ShopFilters, atVersion?: number): Promise<ShopFacets> {
  const version = atVersion ?? (await catalogVersion(db));
  const facet = async <T extends string>(column: "concentration" | "family", values: readonly T[], without: Partial<ShopFilters>) => {
    const rest = { ...filters, ...without, sort: null, page: 1 };
    const counts = await cachedValue(db, `${version}|facet:${column}|${JSON.stringify(rest)}`, async () => {
      const rows = await listing(db, rest, "all")
        .query.select([`p.${column} as value`, (eb) => eb.fn.countAll<number>().as("n")])
        .groupBy(`p.${column}`)
        .execute();
      return Object.fromEntries(rows.map((r) => [String(r.value), Number(r.n)]));
    });
    return Object.fromEntries(values.map((v) => [v, counts[v] ?? 0])) as Record<T, number>;
  };
  const [concentration, family] = await Promise.all([
    facet("concentration", CONCENTRATIONS, { concentrations: [] }),
    facet("family", FAMILIES, { families: [] }),
  ]);
  return { concentration, family };
}

export interface ShopListing extends ShopPage {
  /** what the shopper asked for, understood (parseShopQuery), its page the one shown */
  filters: ShopFilters;
  categories: NamedRow[];
  brands: NamedRow[];
  facets: ShopFacets;
}

/**
 * The shop page for a query string: its products, counts, facets and the filters' choices, all at one
 * catalogue version, read once. The choices change only with the catalogue, so they are read once per
 * version and language, like the counts: a listing reads only its page of products (#14).
 */
export async function shopListing(db: Db, params: URLSearchParams, locale: Locale): Promise<ShopListing> {
  // The version last read is assumed, and read again with the page's rows: a listing takes one
  // statement, not two. Only after a catalogue change is it read over, at the new version.
  const assumed = lastVersions.get(db);
  if (assumed !== undefined) {
    const listing = await shopListingAt(db, params, locale, assumed);
    if (listing) return listing;
  }
  return (await shopListingAt(db, params, locale, await catalogVersion(db), false))!;
}

/**
 * The listing at `version`. When `checked`, the version is read again with the rows (or alone, for a
 * page without any) and null is returned unless it is still `version`: the counts and choices used are
 * then those of the rows' snapshot. What was read and kept meanwhile at a version gone by is never used
 * again, for that version is never read again.
 */
async function shopListingAt(db: Db, params: URLSearchParams, locale: Locale, version: number, checked = true): Promise<ShopListing | null> {
  const [categories, brands] = await Promise.all([
    cachedValue(db, `${version}|categories|${locale}`, () => listCategories(db, locale)),
    cachedValue(db, `${version}|brands`, () => listBrands(db)),
  ]);
  const asked = parseShopQuery(params, { categories, brands });
  const seen: number[] = [];
  const [result, facets] = await Promise.all([listShopProducts(db, asked, version, checked ? (v) => seen.push(v) : undefined), shopFacets(db, asked, version)]);
  if (checked && seen.length === 0) seen.push(await catalogVersion(db));
  if (seen.some((v) => v !== version)) return null;
  return { ...result, filters: { ...asked, page: result.page }, categories, brands, facets };
}

// ---------------------------------------------------------------------------------------------
// One product

/** A product id from the URL: digits only, within the id range; anything else is no product. */
export function parseProductId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

/** A product on sale in the shop, or null (unknown or taken out of the shop); its category named in `locale`. */
export async function productDetail(db: Db, id: number, locale: Locale = "en"): Promise<ProductDetail | null> {
  const row = await productDetailQuery(db, locale).where("p.id", "=", id).modifyEnd(PREPARED).executeTakeFirst();
  return row ? productFromRow(row) : null;
}

/** A row of productDetailQuery as a product. */
export function productFromRow<Row extends { sizes: unknown }>(row: Row): Omit<Row, "sizes"> & { sizes: ProductSize[] } {
  return { ...row, sizes: sizesFromColumn(row.sizes) };
}

/** A product on sale: its own columns, its brand's and category's names, and its sizes as one JSON column. */
export function productDetailQuery(db: Db, locale: Locale) {
  return db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select([
      "p.id",
      "p.slug",
      "p.name",
      "p.price",
      "p.discount",
      "p.price_max as priceMax",
      "p.stock",
      "p.image",
      "p.description",
      "p.concentration",
      "p.family",
      "p.brand_id as brandId",
      "p.category_id as categoryId",
      "p.updated_at as updatedAt",
      "p.review_count as reviewCount",
      "p.rating_total as ratingTotal",
      "p.sale_ends_at as saleEnds",
      "b.name as brandName",
      categoryName(locale).as("categoryName"),
      sizesColumn(db, sql.ref("p.id")).as("sizes"),
    ])
    .where("p.archived_at", "is", null);
}

export const RELATED_LIMIT = 5;

/** Up to five other products of the same category, newest first. */
export async function relatedProducts(db: Db, product: Pick<ProductDetail, "id" | "categoryId">): Promise<ProductCard[]> {
  return cardQuery(db)
    .where("p.category_id", "=", product.categoryId)
    .where("p.id", "!=", product.id)
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(preparedLimit(RELATED_LIMIT))
    .modifyEnd(PREPARED)
    .execute();
}

/** Every product on sale, for the sitemap. */
export async function sitemapProducts(db: Db): Promise<{ id: number; updatedAt: string }[]> {
  return db
    .selectFrom("products")
    .select(["id", "updated_at as updatedAt"])
    .where("archived_at", "is", null)
    .orderBy("id")
    .execute();
}
