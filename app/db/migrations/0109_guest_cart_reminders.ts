import type { Kysely } from "kysely";

// Guest cart reminders and the owner's code on reminders (docs/decisions/220). A guest's opt-in at
// checkout is kept on the visitor's cart (cart_id) with the name to greet them by (personal, removed with
// the consent on erasure); the owner may attach a discount code to reminders, and each reminder keeps
// the code it announced so its link applies that one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("marketing_consents").addColumn("cart_id", "text").execute();
  await db.schema.alterTable("marketing_consents").addColumn("contact_name", "text").execute();
  await db.schema.createIndex("marketing_consents_cart_idx").on("marketing_consents").column("cart_id").execute();
  await db.schema.alterTable("cart_reminder_settings").addColumn("promotion_code", "text").execute();
  await db.schema.alterTable("cart_reminders").addColumn("promotion_code", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("cart_reminders").dropColumn("promotion_code").execute();
  await db.schema.alterTable("cart_reminder_settings").dropColumn("promotion_code").execute();
  await db.schema.dropIndex("marketing_consents_cart_idx").execute();
  await db.schema.alterTable("marketing_consents").dropColumn("contact_name").execute();
  await db.schema.alterTable("marketing_consents").dropColumn("cart_id").execute();
}
