import { type Kysely, sql } from "kysely";

// Guest checkout (docs/decisions/217): an order placed without an account keeps who placed it (name and
// e-mail; the phone is already on every order), and the SHA-256 of its private link's token, so the
// link can be checked and revoked (set to null) without the database ever holding the link itself.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("email", "text").execute();
  await db.schema.alterTable("orders").addColumn("customer_name", "text").execute();
  await db.schema.alterTable("orders").addColumn("access_token_hash", "text").execute();
  await db.schema.createIndex("orders_access_token_hash_idx").ifNotExists().on("orders").column("access_token_hash").unique().execute();
  // Open guest orders are counted per e-mail and per phone inside the order's transaction.
  await sql`create index if not exists orders_pending_email_idx on orders (email) where status = 'pending'`.execute(db);
  await sql`create index if not exists orders_pending_phone_idx on orders (phone) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists orders_pending_phone_idx`.execute(db);
  await sql`drop index if exists orders_pending_email_idx`.execute(db);
  await sql`drop index if exists orders_access_token_hash_idx`.execute(db);
  await db.schema.alterTable("orders").dropColumn("access_token_hash").execute();
  await db.schema.alterTable("orders").dropColumn("customer_name").execute();
  await db.schema.alterTable("orders").dropColumn("email").execute();
}
