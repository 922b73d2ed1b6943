import type { Kysely } from "kysely";

// The language a customer last used in the shop, so the e-mails the shop sends them later (an order's
// status, for one) are written in it. Null until they visit signed in; then English is assumed.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("locale", "text").execute();
}

export async function down(): Promise<void> {
  throw new Error("0061_user_locale cannot be rolled back: it would drop the customers' languages");
}
