import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Product reviews by customers who received the product (docs/decisions/134). Each product keeps the
// count and the sum of its visible ratings, so cards show stars without reading the reviews.

export async function up(db: Kysely<unknown>): Promise<void> {
  const table = db.schema.createTable("reviews");
  await (isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("rating", "integer", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    /** the name shown with it, as it was when written ("Chioma E.") */
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    /** hidden by the owner: kept, but not shown or counted */
    .addColumn("hidden_at", "text")
    .addColumn("hidden_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addUniqueConstraint("reviews_one_per_customer", ["product_id", "user_id"])
    .execute();
  await sql`create index reviews_product_visible on reviews (product_id, created_at) where hidden_at is null`.execute(db);
  await db.schema.alterTable("products").addColumn("review_count", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("products").addColumn("rating_total", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(): Promise<void> {
  throw new Error("0071_reviews cannot be rolled back: it would drop the customers' reviews");
}
