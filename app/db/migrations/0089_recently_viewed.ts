import type { Kysely } from "kysely";

// The perfumes a signed-in shopper looked at last (docs/decisions/126): one row per shopper and
// product, the latest view numbered highest; each view keeps only the newest 12 of the shopper.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("recently_viewed")
    .ifNotExists()
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    /** the shopper's views counted up: the highest is the latest */
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("viewed_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("recently_viewed_pk", ["user_id", "product_id"])
    .execute();
  await db.schema.createIndex("recently_viewed_user_seq_idx").ifNotExists().on("recently_viewed").columns(["user_id", "seq"]).execute();
}

export async function down(): Promise<void> {
  throw new Error("0089_recently_viewed cannot be rolled back: it would drop the shoppers' recently viewed perfumes");
}
