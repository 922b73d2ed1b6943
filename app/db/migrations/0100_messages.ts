import type { Kysely } from "kysely";
import { isPostgres } from "../client.server";

// WhatsApp and SMS messages, marketing consent and cart reminders (docs/decisions/220).
// Personal fields are in columns named for what they hold (to_phone, contact_email, contact_phone),
// so an erasure can clear them without reading anything else.

export async function up(db: Kysely<unknown>): Promise<void> {
  const withId = (name: string) => {
    const table = db.schema.createTable(name);
    return isPostgres(db) ? table.addColumn("id", "serial", (c) => c.primaryKey()) : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  };

  // The message outbox: one row per message and channel, sent by a worker like mail_outbox's.
  await withId("message_outbox")
    /** whatsapp or sms */
    .addColumn("channel", "text", (c) => c.notNull())
    /** order-placed, payment-received, order-shipped, ..., cart-reminder, new-order-alert */
    .addColumn("kind", "text", (c) => c.notNull())
    /** unique: the same event queued twice is one message */
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    /** the recipient's number, E.164 (personal) */
    .addColumn("to_phone", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    /** WhatsApp template name (null for SMS) */
    .addColumn("template", "text")
    /** JSON array of the template's body parameters (may hold the recipient's first name) */
    .addColumn("template_params", "text", (c) => c.notNull())
    /** the text an SMS carries (may hold the recipient's first name) */
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("order_id", "integer")
    .addColumn("user_id", "integer")
    /** pending, sent, delivered, read or failed */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    /** the provider's error code (131026, 130429, insufficient-balance, ...) */
    .addColumn("error_code", "text")
    .addColumn("provider_message_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .addColumn("delivered_at", "text")
    .execute();
  await db.schema.createIndex("message_outbox_due_idx").on("message_outbox").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("message_outbox_order_idx").on("message_outbox").column("order_id").execute();
  await db.schema.createIndex("message_outbox_provider_idx").on("message_outbox").column("provider_message_id").execute();

  // The owner's choice of channels per message (no row: the default of messages.server.ts).
  await db.schema
    .createTable("message_settings")
    .addColumn("kind", "text", (c) => c.primaryKey())
    .addColumn("whatsapp", "integer", (c) => c.notNull())
    .addColumn("sms", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // One row (id 1): how long a cart waits before its reminder.
  await db.schema
    .createTable("cart_reminder_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("delay_minutes", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Marketing consent: each opt-in with its time and the words the shopper saw; withdrawn_at ends it.
  await withId("marketing_consents")
    .addColumn("user_id", "integer")
    /** a guest's contact (personal); null for an account's consent */
    .addColumn("contact_email", "text")
    .addColumn("contact_phone", "text")
    /** registration, checkout or profile */
    .addColumn("source", "text", (c) => c.notNull())
    /** the checkbox's label exactly as shown */
    .addColumn("wording", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    /** for the one-click stop link in every marketing message */
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("granted_at", "text", (c) => c.notNull())
    .addColumn("withdrawn_at", "text")
    /** profile or link */
    .addColumn("withdrawn_via", "text")
    .execute();
  await db.schema.createIndex("marketing_consents_user_idx").on("marketing_consents").column("user_id").execute();

  // At most one reminder per cart: the cart id is the key.
  await db.schema
    .createTable("cart_reminders")
    .addColumn("cart_id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer")
    .addColumn("contact_email", "text")
    .addColumn("contact_phone", "text")
    /** whatsapp, sms or email */
    .addColumn("channel", "text", (c) => c.notNull())
    /** for the link that restores the cart on any device */
    .addColumn("restore_token", "text", (c) => c.notNull().unique())
    .addColumn("consent_id", "integer")
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addColumn("restored_at", "text")
    .addColumn("order_id", "integer")
    /** kobo: the order's total when the cart came back as an order */
    .addColumn("order_total", "integer")
    .addColumn("recovered_at", "text")
    .execute();
  await db.schema.createIndex("cart_reminders_user_idx").on("cart_reminders").column("user_id").execute();

  // A registration waiting for its e-mail confirmation keeps the opt-in it was given.
  await db.schema.alterTable("pending_registrations").addColumn("marketing_wording", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("pending_registrations").dropColumn("marketing_wording").execute();
  for (const table of ["cart_reminders", "marketing_consents", "cart_reminder_settings", "message_settings", "message_outbox"]) {
    await db.schema.dropTable(table).execute();
  }
}
