import { type Expression, sql, type Transaction } from "kysely";
import { type Db, PREPARED } from "~/db/client.server";
import { fromJson, jsonArray, jsonTuple } from "~/db/json.server";
import type { Database } from "~/db/schema";

/**
 * Sizes of a product (docs/decisions/121): each its own label, SKU, price, discount and stock. The
 * product's price, discount, price_max and stock are summaries kept by triggers (migration 0080), so
 * stock is always taken and returned here, per size, and the product's figures follow in the same
 * statement.
 */

export interface ProductSize {
  id: number;
  productId: number;
  label: string;
  ml: number | null;
  sku: string | null;
  /** kobo */
  price: number;
  /** kobo off, or null */
  discount: number | null;
  stock: number;
  position: number;
  /** when the automatic sale holding this size ends, in Lagos time as shown (docs/decisions/225), or null */
  saleEnds: string | null;
}

type Reader = Db | Transaction<Database>;

const COLUMNS = ["id", "product_id", "label", "ml", "sku", "price", "discount", "stock", "position", "sale_ends_at"] as const;

function toSize(r: {
  id: number;
  product_id: number;
  label: string;
  ml: number | null;
  sku: string | null;
  price: number;
  discount: number | null;
  stock: number;
  position: number;
  sale_ends_at: string | null;
}): ProductSize {
  return {
    id: r.id,
    productId: r.product_id,
    label: r.label,
    ml: r.ml,
    sku: r.sku,
    price: Number(r.price),
    discount: r.discount === null ? null : Number(r.discount),
    stock: r.stock,
    position: r.position,
    saleEnds: r.sale_ends_at ?? null,
  };
}

/** A product's sizes in the order the owner gave them. */
export async function listSizes(db: Reader, productId: number): Promise<ProductSize[]> {
  const rows = await db.selectFrom("product_sizes").select(COLUMNS).where("product_id", "=", productId).orderBy("position").orderBy("id").modifyEnd(PREPARED).execute();
  return rows.map(toSize);
}

/**
 * A product's sizes as one column of another statement (the product's own, in productDetail): one
 * round trip fewer on PostgreSQL. Read it with `sizesFromColumn`.
 */
export function sizesColumn(db: Db, productId: Expression<number>) {
  return db
    .selectFrom("product_sizes as z")
    .select(jsonArray(db, jsonTuple(db, COLUMNS.map((column) => sql.ref(`z.${column}`)))).as("sizes"))
    .where("z.product_id", "=", productId);
}

/** Sizes read by `sizesColumn`, in the order the owner gave them (as listSizes). */
export function sizesFromColumn(value: unknown): ProductSize[] {
  return fromJson<unknown[][]>(value)
    .map((tuple) => toSize(Object.fromEntries(COLUMNS.map((column, i) => [column, tuple[i]])) as Parameters<typeof toSize>[0]))
    .sort((a, b) => a.position - b.position || a.id - b.id);
}

/** Sizes of several products at once, by product. */
export async function sizesOf(db: Reader, productIds: number[]): Promise<Map<number, ProductSize[]>> {
  const bySize = new Map<number, ProductSize[]>();
  if (productIds.length === 0) return bySize;
  const rows = await db.selectFrom("product_sizes").select(COLUMNS).where("product_id", "in", productIds).orderBy("position").orderBy("id").execute();
  for (const row of rows) {
    const list = bySize.get(row.product_id) ?? [];
    list.push(toSize(row));
    bySize.set(row.product_id, list);
  }
  return bySize;
}

/**
 * The size a request means: the one named (it must belong to the product), or, when none is named,
 * the first size in stock (the cheapest of those, as the card's "from" price says), else the first.
 * Null when the product has no such size.
 */
export async function resolveSize(db: Reader, productId: number, sizeId?: number | null): Promise<ProductSize | null> {
  if (sizeId != null) {
    const row = await db.selectFrom("product_sizes").select(COLUMNS).where("id", "=", sizeId).where("product_id", "=", productId).executeTakeFirst();
    return row ? toSize(row) : null;
  }
  const sizes = await listSizes(db, productId);
  if (sizes.length === 0) return null;
  const inStock = sizes.filter((s) => s.stock > 0).sort((a, b) => a.price - b.price || a.position - b.position || a.id - b.id);
  return inStock[0] ?? sizes[0];
}

/**
 * Locks the size's product row first. Every writer of sizes takes the product's row, then the size's
 * (the size's trigger writes the product's summaries): two orders of different sizes of one perfume
 * then wait for each other on PostgreSQL instead of deadlocking.
 */
async function lockProductOf(trx: Reader, sizeId: number, at: string): Promise<void> {
  await trx
    .updateTable("products")
    .set({ updated_at: at })
    .where("id", "=", (eb) => eb.selectFrom("product_sizes").select("product_id").where("id", "=", sizeId))
    .execute();
}

/**
 * Takes `quantity` of a size, only if that many are there (one conditional statement: two orders at
 * once can never take it below zero, on either engine). False when the stock is short.
 */
export async function takeSizeStock(trx: Reader, sizeId: number, quantity: number, at: string): Promise<boolean> {
  await lockProductOf(trx, sizeId, at);
  const taken = await trx
    .updateTable("product_sizes")
    .set((eb) => ({ stock: eb("stock", "-", quantity), updated_at: at }))
    .where("id", "=", sizeId)
    .where("stock", ">=", quantity)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Puts `quantity` of a size back (a cancelled or expired order). A size removed since gets nothing. */
export async function returnSizeStock(trx: Reader, sizeId: number, quantity: number, at: string): Promise<void> {
  await lockProductOf(trx, sizeId, at);
  await trx
    .updateTable("product_sizes")
    .set((eb) => ({ stock: eb("stock", "+", quantity), updated_at: at }))
    .where("id", "=", sizeId)
    .execute();
}

/** The stock of one size now (0 when it is gone). */
export async function sizeStock(db: Reader, sizeId: number): Promise<number> {
  const row = await db.selectFrom("product_sizes").select("stock").where("id", "=", sizeId).executeTakeFirst();
  return row?.stock ?? 0;
}

/** How an order item, a cart line or an e-mail names a product in one of several sizes: "Sauvage (100 ml)". */
export function sizedName(name: string, sizeLabel: string | null): string {
  return sizeLabel ? `${name} (${sizeLabel})` : name;
}
