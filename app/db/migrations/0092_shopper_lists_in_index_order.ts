import type { Kysely } from "kysely";

// Every signed-in page reads the shopper's hearts, latest first, and every signed-in product page their
// latest views (docs/decisions/192). With the order's every column in an index, after the shopper's id,
// both are read from the index in order: no table rows, no sort. The views' index had only `seq`, which
// two views at once can share, so their `product_id` tie-break was sorted per page.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("recently_viewed_latest_idx").ifNotExists().on("recently_viewed").columns(["user_id", "seq", "product_id"]).execute();
  await db.schema.dropIndex("recently_viewed_user_seq_idx").ifExists().execute();
  await db.schema.createIndex("wishlist_latest_idx").ifNotExists().on("wishlist").columns(["user_id", "created_at", "product_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("wishlist_latest_idx").ifExists().execute();
  await db.schema.createIndex("recently_viewed_user_seq_idx").ifNotExists().on("recently_viewed").columns(["user_id", "seq"]).execute();
  await db.schema.dropIndex("recently_viewed_latest_idx").ifExists().execute();
}
