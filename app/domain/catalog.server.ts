import { type ExpressionBuilder, sql } from "kysely";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import type { Database } from "~/db/schema";
import { NO_FILTERS, PRICE_MAX, PRICE_MIN, SEARCH_MAX_LENGTH, SHOP_PAGE_SIZE, type ShopFilters } from "~/lib/shop-url";

/** What a product card needs: everything is read fresh from the catalogue. */
export interface ProductCard {
  id: number;
  slug: string;
  name: string;
  price: number;
  discount: number | null;
  stock: number;
  image: string | null;
  brandName: string;
}

export interface ProductDetail extends ProductCard {
  description: string;
  brandId: number;
  categoryId: number;
  categoryName: string;
  updatedAt: string;
}

export interface NamedRow {
  id: number;
  name: string;
}

function cardQuery(db: Db) {
  return db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select(["p.id", "p.slug", "p.name", "p.price", "p.discount", "p.stock", "p.image", "b.name as brandName"])
    .where("p.archived_at", "is", null);
}

/** The newest products in the shop, newest first. */
export async function newestProducts(db: Db, limit: number): Promise<ProductCard[]> {
  return cardQuery(db).orderBy("p.created_at", "desc").orderBy("p.id", "desc").limit(limit).execute();
}

/** Cards for the given products that are still in the shop, in no particular order. */
export async function productCards(db: Db, ids: number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  return cardQuery(db).where("p.id", "in", ids).execute();
}

export async function countProducts(db: Db): Promise<number> {
  const row = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The newest products of a category picked by its slug (the home page's Mens and Womens carousels). */
export async function productsInCategory(db: Db, categorySlug: string, limit: number): Promise<ProductCard[]> {
  return cardQuery(db)
    .innerJoin("categories as c", "c.id", "p.category_id")
    .where("c.slug", "=", categorySlug)
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
}

export async function listCategories(db: Db): Promise<NamedRow[]> {
  return db.selectFrom("categories").select(["id", "name"]).orderBy("name").orderBy("id").execute();
}

export async function listBrands(db: Db): Promise<NamedRow[]> {
  return db.selectFrom("brands").select(["id", "name"]).orderBy("name").orderBy("id").execute();
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
  page: wholeNumber.min(1).optional().catch(undefined),
});

/**
 * The shop's filters from a query string. Anything malformed is ignored or clamped, so every query
 * string reaches a valid page: unknown categories and brands are dropped, prices are clamped to the
 * slider's range (and swapped when max is below min), the page is at least 1 (the listing clamps the top).
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
    page: Math.min(raw.page ?? 1, 1_000_000),
  };
}

/** `%`, `_` and `\` in the shopper's text match themselves, not patterns. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type ProductScope = ExpressionBuilder<Database & { p: Database["products"]; b: Database["brands"] }, "p" | "b">;

function matching(filters: ShopFilters) {
  return (eb: ProductScope) => {
    const conditions = [eb("p.archived_at", "is", null)];
    if (filters.category) conditions.push(eb("p.category_id", "=", filters.category));
    if (filters.brand) conditions.push(eb("p.brand_id", "=", filters.brand));
    if (filters.min > PRICE_MIN) conditions.push(eb("p.price", ">=", filters.min * 100));
    if (filters.max < PRICE_MAX) conditions.push(eb("p.price", "<=", filters.max * 100));
    if (filters.q) {
      const pattern = likePattern(filters.q);
      conditions.push(
        eb.or([
          sql<boolean>`lower(${eb.ref("p.name")}) like ${pattern} escape '\\'`,
          sql<boolean>`lower(${eb.ref("b.name")}) like ${pattern} escape '\\'`,
        ]),
      );
    }
    return eb.and(conditions);
  };
}

export interface ShopPage {
  products: ProductCard[];
  total: number;
  /** the page shown: the one asked for, clamped to 1..pageCount */
  page: number;
  pageCount: number;
}

/** One page of the shop, newest first, with the exact number of matching products. */
export async function listShopProducts(db: Db, filters: ShopFilters): Promise<ShopPage> {
  const where = matching(filters);
  const row = await db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(where)
    .executeTakeFirstOrThrow();
  const total = Number(row.n);
  const pageCount = Math.max(1, Math.ceil(total / SHOP_PAGE_SIZE));
  const page = Math.min(Math.max(1, filters.page), pageCount);
  const products =
    total === 0
      ? []
      : await db
          .selectFrom("products as p")
          .innerJoin("brands as b", "b.id", "p.brand_id")
          .select(["p.id", "p.slug", "p.name", "p.price", "p.discount", "p.stock", "p.image", "b.name as brandName"])
          .where(where)
          .orderBy("p.created_at", "desc")
          .orderBy("p.id", "desc")
          .limit(SHOP_PAGE_SIZE)
          .offset((page - 1) * SHOP_PAGE_SIZE)
          .execute();
  return { products, total, page, pageCount };
}

// ---------------------------------------------------------------------------------------------
// One product

/** A product id from the URL: digits only, within the id range; anything else is no product. */
export function parseProductId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

/** A product on sale in the shop, or null (unknown or taken out of the shop). */
export async function productDetail(db: Db, id: number): Promise<ProductDetail | null> {
  const row = await db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select([
      "p.id",
      "p.slug",
      "p.name",
      "p.price",
      "p.discount",
      "p.stock",
      "p.image",
      "p.description",
      "p.brand_id as brandId",
      "p.category_id as categoryId",
      "p.updated_at as updatedAt",
      "b.name as brandName",
      "c.name as categoryName",
    ])
    .where("p.id", "=", id)
    .where("p.archived_at", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

export const RELATED_LIMIT = 5;

/** Up to five other products of the same category, newest first. */
export async function relatedProducts(db: Db, product: Pick<ProductDetail, "id" | "categoryId">): Promise<ProductCard[]> {
  return cardQuery(db)
    .where("p.category_id", "=", product.categoryId)
    .where("p.id", "!=", product.id)
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(RELATED_LIMIT)
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

// ---------------------------------------------------------------------------------------------
// Change notifications

// Anything that caches what the shop shows (e.g. rendered pages) listens here; every change to
// products, brands or categories calls catalogChanged() after it commits. The listeners live on
// globalThis because server.ts and the app's server build each load their own copy of this module.
const LISTENERS = Symbol.for("unboxed.catalogListeners");
const registry = globalThis as typeof globalThis & { [LISTENERS]?: Set<() => void> };
const catalogListeners = (registry[LISTENERS] ??= new Set<() => void>());

export function onCatalogChange(listener: () => void): () => void {
  catalogListeners.add(listener);
  return () => catalogListeners.delete(listener);
}

export function catalogChanged(): void {
  for (const listener of catalogListeners) listener();
}
