import type { Kysely } from "kysely";

// A registration waits here until its address is confirmed from the e-mailed link (docs/decisions/083):
// only then is the account created. Only the token's SHA-256 and the password's argon2 hash are kept.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("pending_registrations")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    /** the same-site page the shopper was going to when they registered */
    .addColumn("redirect_to", "text", (c) => c.notNull().defaultTo("/"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pending_registrations_email_idx").on("pending_registrations").column("email").execute();
  await db.schema.createIndex("pending_registrations_expires_idx").on("pending_registrations").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pending_registrations").execute();
}
