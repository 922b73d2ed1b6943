import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Staff roles with limited permissions (docs/decisions/218): an account is a customer or one of four
// staff roles. Every admin becomes an owner, who may do everything the admin could.

const ROLES_BEFORE = "role in ('customer', 'admin')";
const ROLES_AFTER = "role in ('customer', 'owner', 'manager', 'fulfilment', 'support')";

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceRoleCheck(db, ROLES_BEFORE, ROLES_AFTER, "case when role = 'admin' then 'owner' else role end");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Staff of any role were admins or customers before: only owners keep the admin area.
  await replaceRoleCheck(db, ROLES_AFTER, ROLES_BEFORE, "case when role = 'owner' then 'admin' else 'customer' end");
}

async function replaceRoleCheck(db: Kysely<unknown>, before: string, after: string, newRole: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table users drop constraint users_role_check`.execute(db);
    await sql.raw(`update users set role = ${newRole}`).execute(db);
    await sql.raw(`alter table users add constraint users_role_check check (${after})`).execute(db);
    return;
  }
  // SQLite cannot change a CHECK in place: the table is copied into one with the new check (SQLite's
  // own twelve-step procedure), its indexes and triggers made again, and the references of every other
  // table checked before the foreign keys are enforced again. Migrations on SQLite run outside a
  // transaction (Kysely runs no DDL transaction there), so foreign_keys can be switched off.
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'users'`.execute(db);
  const create = table.rows[0]?.sql;
  if (!create?.includes(before)) throw new Error("users.role does not hold the expected check");
  const others = await sql<{ sql: string }>`select sql from sqlite_master where tbl_name = 'users' and type in ('index', 'trigger') and sql is not null`.execute(db);
  const columns = (await sql<{ name: string }>`select name from pragma_table_info('users')`.execute(db)).rows.map((r) => `"${r.name}"`).join(", ");
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      await sql.raw(create.replace(/^CREATE TABLE "?users"?/i, 'create table "users_new"').replace(before, after)).execute(db);
      await sql.raw(`insert into users_new (${columns}) select ${columns.replace('"role"', `${newRole} as role`)} from users`).execute(db);
      await sql`drop table users`.execute(db);
      await sql`alter table users_new rename to users`.execute(db);
      for (const row of others.rows) await sql.raw(row.sql).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`the new users table breaks ${broken.rows.length} references`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
