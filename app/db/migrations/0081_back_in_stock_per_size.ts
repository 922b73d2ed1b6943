import { type Kysely, sql } from "kysely";

// Back-in-stock requests per size (docs/decisions/121, 133): a shopper waits for the 30 ml while the
// 100 ml is on sale. Every request made before sizes was for a product with one size: it now names that
// size. One waiting request per size and address.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("back_in_stock_requests")
    .addColumn("size_id", "integer", (c) => c.references("product_sizes.id").onDelete("cascade"))
    .execute();
  await sql`update back_in_stock_requests set size_id = (
      select s.id from product_sizes s where s.product_id = back_in_stock_requests.product_id order by s.position, s.id limit 1)`.execute(db);
  await sql`drop index back_in_stock_waiting`.execute(db);
  await sql`create unique index back_in_stock_waiting on back_in_stock_requests (size_id, email) where notified_at is null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("0081_back_in_stock_per_size cannot be rolled back");
}
