import type { Kysely } from "kysely";

// The shopper's rights over their data (docs/decisions/221).
// - `users.erased_at`: when an account's personal data was erased. The row stays (its orders, reviews
//   and the audit log point at it) but names no one and can never sign in again.
// - `privacy_requests`: a guest's request to see or erase what the shop holds under an e-mail address,
//   confirmed by a link sent to it. Only the SHA-256 of the link's token is kept; a link expires, and
//   erasing uses it up.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("erased_at", "text").execute();
  await db.schema
    .createTable("privacy_requests")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("privacy_requests_email_idx").on("privacy_requests").column("email").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("privacy_requests").execute();
  await db.schema.alterTable("users").dropColumn("erased_at").execute();
}
