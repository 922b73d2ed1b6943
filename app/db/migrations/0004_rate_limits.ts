import type { Kysely } from "kysely";

// Abuse limits (failed sign-ins, password-reset requests, registrations) shared by every app
// instance on PostgreSQL. The columns are the ones rate-limiter-flexible's PostgreSQL store reads
// and writes, in its order: key, points used in the window, window end in epoch milliseconds.
// One machine on SQLite keeps these counters in memory instead; the table exists there unused,
// so both engines keep one schema.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "varchar(255)", (c) => c.primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", "bigint")
    .execute();
  await db.schema.createIndex("rate_limits_expire_idx").on("rate_limits").column("expire").execute();
}

// Counters that expire within the hour: dropping them loses nothing of value.
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limits").execute();
}
