import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// The shop's filters list the categories and brands with a product on sale, read once per catalogue
// version (catalog.server.ts, shopListing). A product's category, brand or archiving already raises
// the version (migration 0040), and so does renaming a brand; renaming a category, in either language,
// now does too, as does adding or removing a category or brand, whoever makes the change.

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const [name, event] of [
      ["catalog_version_categories", "insert or delete or update of name, name_es on categories"],
      ["catalog_version_brands_added", "insert or delete on brands"],
    ]) {
      await sql.raw(`create trigger ${name} after ${event} for each statement execute function catalog_version_bump()`).execute(db);
    }
    return;
  }
  for (const [name, event] of [
    ["catalog_version_category_insert", "insert on categories"],
    ["catalog_version_category_delete", "delete on categories"],
    ["catalog_version_category_update", "update of name, name_es on categories"],
    ["catalog_version_brand_insert", "insert on brands"],
    ["catalog_version_brand_delete", "delete on brands"],
  ]) {
    await sql.raw(`create trigger ${name} after ${event} begin update catalog_version set version = version + 1 where id = 1; end`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists catalog_version_categories on categories`.execute(db);
    await sql`drop trigger if exists catalog_version_brands_added on brands`.execute(db);
    return;
  }
  for (const name of ["category_insert", "category_delete", "category_update", "brand_insert", "brand_delete"]) {
    await sql.raw(`drop trigger if exists catalog_version_${name}`).execute(db);
  }
}
