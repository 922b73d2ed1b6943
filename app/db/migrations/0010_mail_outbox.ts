import type { Kysely } from "kysely";
import { isPostgres } from "../client.server";

// Every e-mail the shop sends is first written here, in the same transaction as what it reports (an
// order placed, a status changed, a password reset asked for). A worker in the server sends the rows
// and marks them sent; a mail server that is down only delays them (docs/decisions/060).

export async function up(db: Kysely<unknown>): Promise<void> {
  const table = db.schema.createTable("mail_outbox");
  await (isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text")
    /** pending, sent or failed */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    /** not sent before this time (retries back off) */
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    /** a worker that claimed the row owns it until then; after a crash another takes it */
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("mail_outbox_due_idx").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
}

export async function down(): Promise<void> {
  throw new Error("0010_mail_outbox cannot be rolled back: it would drop e-mails not yet sent");
}
