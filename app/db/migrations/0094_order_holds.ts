import { type Kysely, sql } from "kysely";

// Unpaid orders hold a bounded number of units (docs/decisions/213): each order keeps the address it
// was placed from, so the units held by one address's unpaid orders can be summed inside the order's
// transaction, and when the owner was warned that a pay-on-delivery order is waiting for confirmation.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("placed_from", "text").execute();
  await db.schema.alterTable("orders").addColumn("hold_warned_at", "text").execute();
  // Only pending orders are summed, so only they are indexed.
  await sql`create index if not exists orders_pending_placed_from_idx on orders (placed_from) where status = 'pending'`.execute(db);
  await sql`create index if not exists orders_pending_user_idx on orders (user_id) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists orders_pending_user_idx`.execute(db);
  await sql`drop index if exists orders_pending_placed_from_idx`.execute(db);
  await db.schema.alterTable("orders").dropColumn("hold_warned_at").execute();
  await db.schema.alterTable("orders").dropColumn("placed_from").execute();
}
