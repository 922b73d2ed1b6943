import { type Expression, sql } from "kysely";
import { type Db, PREPARED, preparedLimit } from "~/db/client.server";
import { RecentlyUsed } from "~/lib/recently-used";
import { onCatalogChange, productCards, type ProductCard } from "./catalog.server";

/**
 * 'Often bought together' on the product page (docs/decisions/126): the products that share the most
 * orders with this one. Read from real orders only: cancelled orders do not count, archived products
 * are never offered (sold-out ones are, marked sold out like every card), and a product needs at least
 * BOUGHT_TOGETHER_MIN_ORDERS orders in common, so one shopper's basket is never shown to others.
 */

/** at most this many products in the row */
export const BOUGHT_TOGETHER_LIMIT = 5;
/** the fewest orders two products must share to be shown together */
export const BOUGHT_TOGETHER_MIN_ORDERS = 2;
/** only this product's latest orders are read, so the work per page stays the same however much it sold */
export const BOUGHT_TOGETHER_RECENT_ORDERS = 500;
/** answers are kept this long (the anonymous page cache keeps pages as long) */
export const BOUGHT_TOGETHER_TTL_MS = 60_000;
const CACHE_ENTRIES = 2_000;

interface Cached {
  at: number;
  cards: ProductCard[];
}

// Per database (tests open several), least recently used out first; emptied by any catalogue change
// (a product archived, renamed or repriced), and otherwise kept BOUGHT_TOGETHER_TTL_MS.
let caches = new WeakMap<Db, RecentlyUsed<number, Cached>>();
onCatalogChange(() => {
  caches = new WeakMap();
});

function cacheOf(db: Db): RecentlyUsed<number, Cached> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new RecentlyUsed(CACHE_ENTRIES);
    caches.set(db, cache);
  }
  return cache;
}

/** The product ids most often in the same orders as `productId`, with how many orders they share. */
export async function boughtTogetherCounts(
  db: Db,
  productId: number,
  limit = BOUGHT_TOGETHER_LIMIT,
  /** what `ordersOfProductColumn` read for this product in another statement, if it did */
  someOrders?: number,
): Promise<{ productId: number; orders: number }[]> {
  const orders = someOrders ?? (await db.selectNoFrom(ordersOfProductColumn(db, sql.val(productId)).as("orders")).modifyEnd(PREPARED).executeTakeFirstOrThrow()).orders;
  if (Number(orders) < BOUGHT_TOGETHER_MIN_ORDERS) return [];
  const latest = db
    .selectFrom("order_items as mine")
    .innerJoin("orders as o", "o.id", "mine.order_id")
    .select("mine.order_id")
    .distinct()
    .where("mine.product_id", "=", productId)
    .where("o.status", "<>", "cancelled")
    .orderBy("mine.order_id", "desc")
    .limit(preparedLimit(BOUGHT_TOGETHER_RECENT_ORDERS));
  const rows = await db
    .selectFrom(latest.as("latest"))
    .innerJoin("order_items as other", "other.order_id", "latest.order_id")
    .innerJoin("products as p", "p.id", "other.product_id")
    .select(["other.product_id as productId", sql<number>`count(distinct other.order_id)`.as("orders")])
    .where("other.product_id", "<>", productId)
    .where("p.archived_at", "is", null)
    .groupBy("other.product_id")
    .having(sql<number>`count(distinct other.order_id)`, ">=", sql.lit(BOUGHT_TOGETHER_MIN_ORDERS))
    .orderBy("orders", "desc")
    .orderBy("other.product_id", "desc")
    .limit(preparedLimit(limit))
    .execute();
  // (never null: the join to products drops order lines whose product was deleted)
  return rows.map((r) => ({ productId: Number(r.productId), orders: Number(r.orders) }));
}

/**
 * How many orders a product is in, counted only up to BOUGHT_TOGETHER_MIN_ORDERS, as a column of
 * another statement (the product page's, in productPage). Most products are in fewer orders than two
 * products must share: then nothing is shown, and asking costs an index lookup instead of the grouping
 * in boughtTogetherCounts, which was a product page's costliest statement. Cancelled orders are counted
 * here too: that can only let the grouping run, never skip a row it finds.
 */
export function ordersOfProductColumn(db: Db, productId: Expression<number>) {
  return db
    .selectFrom((eb) => eb.selectFrom("order_items").select("order_id").distinct().where("product_id", "=", productId).limit(preparedLimit(BOUGHT_TOGETHER_MIN_ORDERS)).as("some"))
    .select((eb) => eb.fn.countAll<number>().as("orders"));
}

/**
 * The cards of the row, most shared orders first; empty when there is not enough order data yet.
 * `someOrders`: what `ordersOfProductColumn` read for the product with the page's other data.
 */
export async function boughtTogether(db: Db, productId: number, now = Date.now(), someOrders?: number): Promise<ProductCard[]> {
  const cache = cacheOf(db);
  const hit = cache.get(productId);
  if (hit && now - hit.at < BOUGHT_TOGETHER_TTL_MS) return hit.cards;
  const counts = await boughtTogetherCounts(db, productId, BOUGHT_TOGETHER_LIMIT, someOrders);
  const cards = counts.length ? await productCards(db, counts.map((c) => c.productId)) : [];
  const byId = new Map(cards.map((c) => [c.id, c]));
  const ordered = counts.flatMap((c) => byId.get(c.productId) ?? []);
  cache.set(productId, { at: now, cards: ordered });
  return ordered;
}
