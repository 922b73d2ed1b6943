import type { Kysely } from "kysely";

// A catalogue CSV is checked and shown to the owner before anything is written. The file waits here
// between the preview and the owner's confirmation (so every app instance can apply it), and the row
// is removed in the same transaction that applies it: confirming twice cannot import twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("catalogue_imports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("create_missing", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("catalogue_imports_created_idx").on("catalogue_imports").column("created_at").execute();
}

// Files waiting for a confirmation for at most a day: dropping them loses nothing of value.
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("catalogue_imports").execute();
}
