import type { Db } from "~/db/client.server";
import { type ProductCard, productCards } from "./catalog.server";
import { getSessionUser } from "./sessions.server";

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

/** Which of these products the user has in the wishlist (for rendering hearts on a page of cards). */
export async function wishlistedAmong(db: Db, userId: number | null | undefined, productIds: number[]): Promise<Set<number>> {
  if (!userId || productIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("wishlist")
    .select("product_id")
    .where("user_id", "=", userId)
    .where("product_id", "in", productIds)
    .execute();
  return new Set(rows.map((r) => r.product_id));
}

/** For a page of product cards: the ids among them in this request's shopper's wishlist (none when signed out). */
export async function wishlistedForRequest(request: Request, db: Db, productIds: number[]): Promise<number[]> {
  const user = await getSessionUser(request, db);
  return [...(await wishlistedAmong(db, user?.id, productIds))];
}

/** The user's wishlist as product cards, most recently added first. */
export async function wishlistCards(db: Db, userId: number): Promise<ProductCard[]> {
  const rows = await db.selectFrom("wishlist").select("product_id").where("user_id", "=", userId).orderBy("created_at", "desc").execute();
  const cards = await productCards(db, rows.map((r) => r.product_id));
  return rows.flatMap((r) => cards.filter((c) => c.id === r.product_id));
}
