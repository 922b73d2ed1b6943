import { type CreateTableBuilder, type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Written once for both engines: only types and constraints that SQLite and PostgreSQL share.
// Money columns are bigint (integer kobo); times are ISO-8601 text.

function withId<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("brands"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("categories"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("products"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("price", "bigint", (c) => c.notNull().check(sql`price >= 0`))
    .addColumn("discount", "bigint", (c) => c.check(sql`discount is null or discount >= 0`))
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock >= 0`))
    .addColumn("image", "text")
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id").onDelete("restrict"))
    .addColumn("brand_id", "integer", (c) => c.notNull().references("brands.id").onDelete("restrict"))
    .addColumn("archived_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The shop lists newest first, filtered by category, brand and price, and searches names.
  await db.schema.createIndex("products_created_at_idx").on("products").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("products_category_idx").on("products").columns(["category_id", "created_at"]).execute();
  await db.schema.createIndex("products_brand_idx").on("products").columns(["brand_id", "created_at"]).execute();
  await db.schema.createIndex("products_price_idx").on("products").column("price").execute();
  await db.schema.createIndex("products_name_lower_idx").on("products").expression(sql`lower(name)`).execute();
  await db.schema.createIndex("brands_name_lower_idx").on("brands").expression(sql`lower(name)`).execute();

  await withId(db, db.schema.createTable("users"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().defaultTo("customer").check(sql`role in ('customer', 'admin')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("password_resets")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("password_resets_user_idx").on("password_resets").column("user_id").execute();

  await withId(db, db.schema.createTable("addresses"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("street", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("addresses_user_idx").on("addresses").column("user_id").execute();

  await db.schema
    .createTable("carts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.unique().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("cart_lines")
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("cart_lines_pk", ["cart_id", "product_id"])
    .execute();

  await withId(db, db.schema.createTable("orders"))
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("channel", "text", (c) => c.notNull().check(sql`channel in ('checkout', 'whatsapp')`))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`status in ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn("ship_street", "text")
    .addColumn("ship_city", "text")
    .addColumn("ship_state", "text")
    .addColumn("ship_country", "text")
    .addColumn("address_id", "integer", (c) => c.references("addresses.id").onDelete("set null"))
    .addColumn("subtotal", "bigint", (c) => c.notNull().check(sql`subtotal >= 0`))
    .addColumn("shipping", "bigint", (c) => c.notNull().defaultTo(0).check(sql`shipping >= 0`))
    .addColumn("total", "bigint", (c) => c.notNull().check(sql`total >= 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("orders_user_idx").on("orders").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("orders_status_idx").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("orders_created_at_idx").on("orders").column("created_at").execute();

  await withId(db, db.schema.createTable("order_items"))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.references("products.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("unit_price", "bigint", (c) => c.notNull().check(sql`unit_price >= 0`))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .execute();
  await db.schema.createIndex("order_items_order_idx").on("order_items").column("order_id").execute();
  await db.schema.createIndex("order_items_product_idx").on("order_items").column("product_id").execute();

  await db.schema
    .createTable("wishlist")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("wishlist_pk", ["user_id", "product_id"])
    .execute();
  await db.schema.createIndex("wishlist_product_idx").on("wishlist").column("product_id").execute();
}

// Migrations never drop data, so there is no down migration that would.
export async function down(): Promise<void> {
  throw new Error("0001_initial cannot be rolled back: it would drop the shop's data");
}
