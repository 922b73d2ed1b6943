import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Order status history (who moved an order to which status, when) and the admin audit log.

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = isPostgres(db) ? ("serial" as const) : ("integer" as const);

  await db.schema
    .createTable("order_events")
    .addColumn("id", id, (c) => (isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("note", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_events_order_idx").on("order_events").columns(["order_id", "created_at"]).execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", id, (c) => (isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "integer")
    .addColumn("summary", "text", (c) => c.notNull())
    /** JSON of { field: [old, new] } for the fields that changed */
    .addColumn("changes", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").column("created_at").execute();
  await db.schema.createIndex("audit_log_entity_idx").on("audit_log").columns(["entity", "entity_id"]).execute();
}

export async function down(): Promise<void> {
  throw new Error("0002_order_history_and_audit cannot be rolled back: it would drop order history");
}
