import { type Kysely, sql } from "kysely";

// WhatsApp orders remember which cart they came from, so pressing the button again with the same
// cart finds the same pending order instead of recording another. Abandoned anonymous carts are
// found by their last change.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("cart_id", "text").execute();
  /** SHA-256 of the cart id and its lines (product, quantity, unit price) at the time of the order */
  await db.schema.alterTable("orders").addColumn("cart_fingerprint", "text").execute();
  // At most one pending order per cart content: two presses at once cannot record two orders.
  await db.schema
    .createIndex("orders_pending_fingerprint_idx")
    .on("orders")
    .column("cart_fingerprint")
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema.createIndex("carts_updated_at_idx").on("carts").columns(["updated_at"]).execute();
}

export async function down(): Promise<void> {
  throw new Error("0005_cart_orders cannot be rolled back: it would drop order references");
}
