import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Perfume facts the shop filters on (docs/decisions/132): concentration and scent family, one value
// each, set by the admin (null: not said). The values are checked by the app (lib/perfume-facts.ts).
// A product's concentration is usually in its name; existing products whose name says it get it now.
// Changing either raises the catalogue version (migration 0040), as they change listings and counts.

const FROM_NAME: [string, string][] = [
  ["%eau de parfum%", "edp"],
  ["%eau de toilette%", "edt"],
  ["%eau de cologne%", "edc"],
  ["%cologne%", "edc"],
  ["%extrait%", "parfum"],
  ["%parfum%", "parfum"],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("products").addColumn("concentration", "text").execute();
  await db.schema.alterTable("products").addColumn("family", "text").execute();
  for (const [pattern, value] of FROM_NAME) {
    await sql`update products set concentration = ${value} where concentration is null and lower(name) like ${pattern}`.execute(db);
  }
  await db.schema.createIndex("products_concentration_idx").on("products").columns(["concentration", "created_at"]).execute();
  await db.schema.createIndex("products_family_idx").on("products").columns(["family", "created_at"]).execute();
  if (isPostgres(db)) {
    await sql
      .raw(`create trigger catalog_version_products_facts after update of concentration, family on products
              for each statement execute function catalog_version_bump()`)
      .execute(db);
  } else {
    await sql
      .raw(`create trigger catalog_version_product_facts after update of concentration, family on products
              begin update catalog_version set version = version + 1 where id = 1; end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop trigger if exists catalog_version_products_facts on products`.execute(db);
  else await sql`drop trigger if exists catalog_version_product_facts`.execute(db);
  await db.schema.dropIndex("products_family_idx").ifExists().execute();
  await db.schema.dropIndex("products_concentration_idx").ifExists().execute();
  await db.schema.alterTable("products").dropColumn("family").execute();
  await db.schema.alterTable("products").dropColumn("concentration").execute();
}
