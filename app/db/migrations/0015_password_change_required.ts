import type { Kysely } from "kysely";

// An account whose password was not chosen by its owner (the demo admin, whose password is printed on
// the console) must choose a new one at its first sign-in. 1 = must change, 0 = nothing to do.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("must_change_password", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("must_change_password").execute();
}
