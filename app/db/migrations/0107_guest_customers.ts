import { type Kysely, sql } from "kysely";

// Guests as customers (docs/decisions/217): an order keeps the language its shopper used, so a guest's
// status e-mails and messages speak it (an account's language stays on the account); and a guest's
// orders are found by their e-mail for the back office's customers list and a guest's page. Orders from
// before it have no language (English, as before).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("locale", "text").execute();
  await sql`create index if not exists orders_guest_email_idx on orders (email) where user_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists orders_guest_email_idx`.execute(db);
  await db.schema.alterTable("orders").dropColumn("locale").execute();
}
