import { type Expression, sql } from "kysely";
import { type Db, preparedLimit } from "~/db/client.server";
import { ascendingIds, jsonArray } from "~/db/json.server";
import { type ProductCard, productCards } from "../catalogue/catalog.server";

/** The wishlist: always the signed-in user's own rows (user id + product id, unique pair). */

/** Adds the product if it is not there, removes it if it is. Returns whether it is now in the wishlist. */
export async function toggleWishlist(db: Db, userId: number, productId: number): Promise<{ inWishlist: boolean } | null> {
  const product = await db.selectFrom("products").select("id").where("id", "=", productId).where("archived_at", "is", null).executeTakeFirst();
  if (!product) return null;
  const removed = await db.deleteFrom("wishlist").where("user_id", "=", userId).where("product_id", "=", productId).executeTakeFirst();
  if (Number(removed.numDeletedRows) > 0) return { inWishlist: false };
  await db
    .insertInto("wishlist")
    .values({ user_id: userId, product_id: productId, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(["user_id", "product_id"]).doNothing())
    .execute();
  return { inWishlist: true };
}

/** Hearts beyond this many (the most recently added) show empty on storefront pages. */
export const WISHLIST_SHOWN_LIMIT = 500;

/**
 * The ids in the user's wishlist (the most recent WISHLIST_SHOWN_LIMIT), ascending: every storefront
 * page's hearts are drawn from it.
 */
export async function wishlistIds(db: Db, userId: number): Promise<number[]> {
  const row = await db.selectNoFrom(wishlistIdsColumn(db, sql.val(userId)).as("ids")).executeTakeFirstOrThrow();
  return wishlistIdsFromColumn(row.ids);
}

/**
 * wishlistIds as one column of another statement (the session's, in app/domain/shopper/personal.server.ts),
 * for `userId` an expression of that statement. Read the column with `wishlistIdsFromColumn`.
 */
export function wishlistIdsColumn(db: Db, userId: Expression<number>) {
  const shown = db.selectFrom("wishlist").select("product_id").where("user_id", "=", userId).orderBy("created_at", "desc").limit(preparedLimit(WISHLIST_SHOWN_LIMIT));
  return db.selectFrom(shown.as("w")).select(jsonArray<number>(db, sql.ref("w.product_id")).as("ids"));
}

export function wishlistIdsFromColumn(value: unknown): number[] {
  return ascendingIds(value);
}

/** The user's wishlist as product cards, most recently added first. */
export async function wishlistCards(db: Db, userId: number): Promise<ProductCard[]> {
  const rows = await db.selectFrom("wishlist").select("product_id").where("user_id", "=", userId).orderBy("created_at", "desc").execute();
  const cards = await productCards(db, rows.map((r) => r.product_id));
  return rows.flatMap((r) => cards.filter((c) => c.id === r.product_id));
}
