import type { Kysely } from "kysely";

// Paying online with Paystack: the hosted-checkout address of the order's latest transaction (the
// shopper is sent there, and back to it with 'Pay now' while it is open), and when the background
// check last asked Paystack about an order still unpaid.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("payment_url", "text").execute();
  await db.schema.alterTable("orders").addColumn("payment_checked_at", "text").execute();
}

export async function down(): Promise<void> {
  throw new Error("0031_online_payments cannot be rolled back: it would drop payment records");
}
