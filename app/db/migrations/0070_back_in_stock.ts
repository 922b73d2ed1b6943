import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Back-in-stock requests (docs/decisions/133): a shopper's e-mail address waiting for a sold-out
// product, used up once the alert is queued. One waiting request per product and address.

export async function up(db: Kysely<unknown>): Promise<void> {
  const table = db.schema.createTable("back_in_stock_requests");
  await (isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("product_id", "integer", (col) => col.notNull().references("products.id").onDelete("cascade"))
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("locale", "text", (col) => col.notNull())
    .addColumn("token", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("notified_at", "text")
    .execute();
  await sql`create unique index back_in_stock_waiting on back_in_stock_requests (product_id, email) where notified_at is null`.execute(db);
  await sql`create index back_in_stock_email on back_in_stock_requests (email)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("back_in_stock_requests").ifExists().execute();
}
