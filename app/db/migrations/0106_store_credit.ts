import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Store credit and gift cards (docs/decisions/224). A balance is never a stored number: it is the sum
// of its ledger rows (`credit_ledger`), one per movement (issued, refunded as credit, spent on an
// order, given back when that order was cancelled or expired), with who, when, why and which order.
// A customer's credit is the rows with their user_id; a gift card's balance the rows with its id.
// An order keeps what credit and a gift card paid of its total; the rest is due by the way it chose.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const id = (table: ReturnType<Kysely<unknown>["schema"]["createTable"]>) =>
    table.addColumn("id", pg ? "serial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));
  await id(db.schema.createTable("gift_cards"))
    // As printed; `code_key` (upper case, no spaces or dashes) is what a shopper's code is matched on.
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("code_key", "text", (c) => c.notNull().unique())
    // kobo it was issued with (the ledger's first row says the same)
    .addColumn("initial_amount", "integer", (c) => c.notNull().check(sql`initial_amount > 0`))
    .addColumn("expires_at", "text")
    .addColumn("recipient_name", "text", (c) => c.notNull())
    .addColumn("recipient_email", "text", (c) => c.notNull())
    .addColumn("message", "text")
    .addColumn("locale", "text", (c) => c.notNull().defaultTo("en"))
    // 1: the owner recorded a sale (money taken); 0: given away
    .addColumn("sold", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await id(db.schema.createTable("credit_ledger"))
    // exactly one of the two: a customer's store credit, or a gift card's balance
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("gift_card_id", "integer", (c) => c.references("gift_cards.id").onDelete("cascade"))
    // kobo: positive adds to the balance, negative takes from it
    .addColumn("amount", "integer", (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('issued', 'refund', 'spent', 'returned', 'adjusted')`))
    .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("set null"))
    // the staff member who made it; null when the shop did (a checkout, an expiry)
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("note", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("credit_ledger_one_holder", sql`(user_id is null) <> (gift_card_id is null)`)
    .execute();
  await db.schema.createIndex("credit_ledger_user_idx").on("credit_ledger").columns(["user_id", "id"]).execute();
  await db.schema.createIndex("credit_ledger_card_idx").on("credit_ledger").columns(["gift_card_id", "id"]).execute();
  await db.schema.createIndex("credit_ledger_order_idx").on("credit_ledger").column("order_id").execute();
  // What the shopper chose at checkout: spend the account's credit, and a gift card's code.
  await db.schema.alterTable("carts").addColumn("use_credit", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("carts").addColumn("gift_card_code", "text").execute();
  // kobo of the order's total paid by store credit and by a gift card; the rest is due
  await db.schema.alterTable("orders").addColumn("store_credit", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("orders").addColumn("gift_card", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("orders").addColumn("gift_card_code", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("gift_card_code").execute();
  await db.schema.alterTable("orders").dropColumn("gift_card").execute();
  await db.schema.alterTable("orders").dropColumn("store_credit").execute();
  await db.schema.alterTable("carts").dropColumn("gift_card_code").execute();
  await db.schema.alterTable("carts").dropColumn("use_credit").execute();
  await db.schema.dropTable("credit_ledger").execute();
  await db.schema.dropTable("gift_cards").execute();
}
