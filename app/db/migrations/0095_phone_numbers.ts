import type { Kysely } from "kysely";

// A Nigerian mobile number (E.164, `+2348031234567`) on the account, on each saved address and on each
// order (docs/decisions/217). Nullable: accounts, addresses and orders made before it stay valid, and
// the number is asked the next time they are used for an order.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("phone", "text").execute();
  await db.schema.alterTable("addresses").addColumn("phone", "text").execute();
  await db.schema.alterTable("orders").addColumn("phone", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("phone").execute();
  await db.schema.alterTable("addresses").dropColumn("phone").execute();
  await db.schema.alterTable("users").dropColumn("phone").execute();
}
