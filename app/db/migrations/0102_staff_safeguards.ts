import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// The staff's safeguards (docs/decisions/222): invitations, suspension, last sign-in, a TOTP second
// factor with recovery codes, the sign-in step that asks for it, and when a session last proved its
// password. Every column is nullable or defaulted: accounts and sessions made before it stay valid.

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const id = (t: ReturnType<Kysely<unknown>["schema"]["createTable"]>) =>
    t.addColumn("id", pg ? "serial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));

  for (const column of ["suspended_at", "last_sign_in_at", "staff_since", "totp_secret", "totp_pending_secret", "totp_enabled_at"]) {
    await db.schema.alterTable("users").addColumn(column, "text").execute();
  }
  await db.schema.alterTable("users").addColumn("totp_last_step", "integer").execute();
  await db.schema.alterTable("sessions").addColumn("authenticated_at", "text").execute();
  // Sessions from before it proved their password when they began.
  await sql`update sessions set authenticated_at = created_at`.execute(db);
  // Staff accounts from before it have their grace for the second factor from now.
  await sql`update users set staff_since = ${new Date().toISOString()} where role <> 'customer'`.execute(db);

  await id(db.schema.createTable("staff_invitations"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('owner', 'manager', 'fulfilment', 'support')`))
    .addColumn("invited_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("accepted_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("staff_invitations_email").on("staff_invitations").column("email").execute();

  await id(db.schema.createTable("recovery_codes"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("recovery_codes_user").on("recovery_codes").columns(["user_id", "code_hash"]).execute();

  await db.schema
    .createTable("sign_in_challenges")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("redirect_to", "text", (c) => c.notNull().defaultTo("/"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("staff_settings")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    /** when the owner required a second factor of every staff role; null: owners and managers only */
    .addColumn("second_factor_all_since", "text")
    .execute();
  await sql`insert into staff_settings (id, second_factor_all_since) values (1, null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["staff_settings", "sign_in_challenges", "recovery_codes", "staff_invitations"]) await db.schema.dropTable(table).execute();
  await db.schema.alterTable("sessions").dropColumn("authenticated_at").execute();
  for (const column of ["totp_last_step", "totp_enabled_at", "totp_pending_secret", "totp_secret", "staff_since", "last_sign_in_at", "suspended_at"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
}
