import type { Kysely } from "kysely";

// The owner's customers screen (docs/decisions/114): accounts newest first, a page at a time, and per
// account its number of orders, the total of its paid orders and its last order, summed by the database.
// The second index holds everything the sums read, so they never visit the orders' rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("users_created_idx").ifNotExists().on("users").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("orders_user_payment_idx").ifNotExists().on("orders").columns(["user_id", "payment_status", "total", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("orders_user_payment_idx").ifExists().execute();
  await db.schema.dropIndex("users_created_idx").ifExists().execute();
}
