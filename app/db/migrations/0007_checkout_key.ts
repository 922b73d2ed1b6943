import type { Kysely } from "kysely";

// A checkout form carries a random key; the order it places keeps it, so submitting the same form twice
// (a double click, a resend) finds the first order instead of placing a second.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("checkout_key", "text").execute();
  await db.schema.createIndex("orders_checkout_key_idx").on("orders").column("checkout_key").unique().execute();
}

export async function down(): Promise<void> {
  throw new Error("0007_checkout_key cannot be rolled back: it would drop order references");
}
