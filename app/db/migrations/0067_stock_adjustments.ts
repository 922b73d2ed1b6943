import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// The owner's stock adjustments (goods received, damaged, a count corrected): one row per adjustment with
// who, when, why, the signed change and the stock before and after it. Stock taken by orders and put back
// by cancellations is not written here (docs/decisions/118).

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable("stock_adjustments")
    .addColumn("id", pg ? "serial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    // A product erased (never ordered) takes its history with it; the audit log keeps the adjustments.
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('received', 'damaged', 'correction')`))
    .addColumn("note", "text")
    .addColumn("change", "integer", (c) => c.notNull())
    .addColumn("stock_before", "integer", (c) => c.notNull())
    .addColumn("stock_after", "integer", (c) => c.notNull().check(sql`stock_after >= 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("stock_adjustments_product_idx").on("stock_adjustments").columns(["product_id", "id"]).execute();
}

export async function down(): Promise<void> {
  throw new Error("0067_stock_adjustments cannot be rolled back: it would drop the stock history");
}
