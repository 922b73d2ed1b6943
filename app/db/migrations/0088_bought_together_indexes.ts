import type { Kysely } from "kysely";

// 'Often bought together' on the product page (docs/decisions/126): from a product to its latest
// orders, then from each of those orders to the other products in it. Both steps read an index only.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("order_items_product_order_idx").ifNotExists().on("order_items").columns(["product_id", "order_id"]).execute();
  await db.schema.createIndex("order_items_order_product_idx").ifNotExists().on("order_items").columns(["order_id", "product_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("order_items_order_product_idx").ifExists().execute();
  await db.schema.dropIndex("order_items_product_order_idx").ifExists().execute();
}
