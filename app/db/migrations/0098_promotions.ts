import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Discount codes (docs/decisions/219): a promotion, what it is restricted to, and one row per order that
// used it. `uses` counts the orders holding a use now; it is raised by a conditional update inside the
// order's transaction (never above `usage_limit`) and lowered when the order is cancelled or expires.
// A cart remembers the code its shopper entered; an order keeps the code and the discount it was given.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const id = (table: ReturnType<Kysely<unknown>["schema"]["createTable"]>) =>
    table.addColumn("id", pg ? "serial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));
  await id(db.schema.createTable("promotions"))
    // As the owner typed it; `code_key` (lower case) is what shoppers' codes are matched on.
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("code_key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('percent', 'fixed', 'free_delivery')`))
    // whole per cent (1-100) for 'percent'; kobo for 'fixed'; 0 for 'free_delivery'
    .addColumn("value", "integer", (c) => c.notNull().check(sql`value >= 0`))
    .addColumn("min_subtotal", "integer")
    .addColumn("starts_at", "text")
    .addColumn("ends_at", "text")
    .addColumn("usage_limit", "integer", (c) => c.check(sql`usage_limit is null or usage_limit >= 1`))
    .addColumn("per_customer_limit", "integer", (c) => c.check(sql`per_customer_limit is null or per_customer_limit >= 1`))
    .addColumn("combines_with_sale", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("uses", "integer", (c) => c.notNull().defaultTo(0).check(sql`uses >= 0`))
    .addColumn("paused_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("promotion_targets")
    .addColumn("promotion_id", "integer", (c) => c.notNull().references("promotions.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('category', 'brand', 'product')`))
    .addColumn("target_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("promotion_targets_pk", ["promotion_id", "kind", "target_id"])
    .execute();
  await id(db.schema.createTable("promotion_uses"))
    .addColumn("promotion_id", "integer", (c) => c.notNull().references("promotions.id"))
    .addColumn("order_id", "integer", (c) => c.notNull().unique().references("orders.id").onDelete("cascade"))
    // who used it: the account, and the order's e-mail and phone (a guest is known by these)
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("email", "text")
    .addColumn("phone", "text")
    .addColumn("discount", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    // when the order was cancelled or expired and the use given back
    .addColumn("released_at", "text")
    .execute();
  await db.schema.createIndex("promotion_uses_promotion_idx").on("promotion_uses").columns(["promotion_id", "user_id"]).execute();
  await db.schema.alterTable("carts").addColumn("promotion_code", "text").execute();
  await db.schema.alterTable("orders").addColumn("discount", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("orders").addColumn("promotion_code", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("promotion_code").execute();
  await db.schema.alterTable("orders").dropColumn("discount").execute();
  await db.schema.alterTable("carts").dropColumn("promotion_code").execute();
  await db.schema.dropTable("promotion_uses").execute();
  await db.schema.dropTable("promotion_targets").execute();
  await db.schema.dropTable("promotions").execute();
}
