import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// A real search index for the shop (docs/decisions/130), one per engine, behind one domain function:
//
// - SQLite: an FTS5 table with the trigram tokenizer (part-words: 'inten' finds 'Intense') that folds
//   case and accents ('creme' finds 'Crème'), holding each product's name and its brand's name, kept
//   in step by triggers so every writer of products and brands (admin, seed, imports, scripts) keeps it
//   right without knowing about it.
// - PostgreSQL: shop_fold(text), an immutable lower-case-and-unaccent function, and a pg_trgm GIN
//   index on shop_fold(name), which serves LIKE '%part%' queries. pg_trgm and unaccent are contrib
//   extensions that a database owner may create (both are "trusted"); where one is missing the
//   migration still succeeds: without unaccent shop_fold strips the common Latin accents with
//   translate(), without pg_trgm the search reads the table (correct, slower).
//
// And catalog_version: one row whose number goes up, by trigger, whenever a change could alter which
// products a shop listing holds (a product added, removed, renamed, moved, repriced or archived, a
// brand renamed). Cached listing counts carry the number they were read at, so they are exact
// whichever process or script made the change. Stock changes do not touch it.

/** Product columns that decide which listings a product appears in. */
export const LISTED_PRODUCT_COLUMNS = ["name", "brand_id", "category_id", "price", "archived_at"];

async function createVersionTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("catalog_version")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
  await sql`insert into catalog_version (id, version) values (1, 1)`.execute(db);
}

const LATIN_ACCENTED = "àáâãäåāăąçćčďèéêëēėęěìíîïīįłñńňòóôõöøōőŕřśšşťùúûüūůűųýÿźżž";
const LATIN_PLAIN = "aaaaaaaaacccdeeeeeeeeiiiiiilnnnoooooooorrssstuuuuuuuuyyzzz";

async function tryCreateExtension(db: Kysely<unknown>, name: string): Promise<string | null> {
  // A failed statement would abort the migration's transaction; a savepoint keeps it alive.
  await sql`savepoint shop_extension`.execute(db);
  try {
    await sql`create extension if not exists ${sql.raw(name)}`.execute(db);
    await sql`release savepoint shop_extension`.execute(db);
  } catch {
    await sql`rollback to savepoint shop_extension`.execute(db);
    return null;
  }
  const row = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${name}`.execute(db);
  return row.rows[0]?.schema ?? null;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  const unaccent = await tryCreateExtension(db, "unaccent");
  const trgm = await tryCreateExtension(db, "pg_trgm");
  const body = unaccent
    ? `select lower(${quoteIdent(unaccent)}.unaccent('${quoteIdent(unaccent)}.unaccent'::regdictionary, $1))`
    : `select translate(lower($1), '${LATIN_ACCENTED}', '${LATIN_PLAIN}')`;
  await sql
    .raw(`create or replace function shop_fold(text) returns text language sql immutable parallel safe strict as $fold$ ${body} $fold$`)
    .execute(db);
  await createVersionTable(db);
  await sql
    .raw(
      `create or replace function catalog_version_bump() returns trigger language plpgsql as $bump$
         begin update catalog_version set version = version + 1 where id = 1; return null; end $bump$`,
    )
    .execute(db);
  const columns = LISTED_PRODUCT_COLUMNS.join(", ");
  for (const [name, event] of [
    ["catalog_version_products", `insert or delete or update of ${columns} on products`],
    ["catalog_version_brands", "update of name on brands"],
  ]) {
    await sql.raw(`create trigger ${name} after ${event} for each statement execute function catalog_version_bump()`).execute(db);
  }
  if (trgm) {
    await sql
      .raw(`create index if not exists products_name_trgm_idx on products using gin (shop_fold(name) ${quoteIdent(trgm)}.gin_trgm_ops)`)
      .execute(db);
  }
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `create virtual table product_search using fts5(name, brand, tokenize = 'trigram remove_diacritics 1')`,
    `insert into product_search (rowid, name, brand)
       select p.id, p.name, b.name from products p join brands b on b.id = p.brand_id`,
    `create trigger product_search_insert after insert on products begin
       insert into product_search (rowid, name, brand)
         values (new.id, new.name, (select name from brands where id = new.brand_id));
     end`,
    `create trigger product_search_update after update of name, brand_id on products begin
       delete from product_search where rowid = old.id;
       insert into product_search (rowid, name, brand)
         values (new.id, new.name, (select name from brands where id = new.brand_id));
     end`,
    `create trigger product_search_delete after delete on products begin
       delete from product_search where rowid = old.id;
     end`,
    `create trigger product_search_brand after update of name on brands begin
       update product_search set brand = new.name where rowid in (select id from products where brand_id = new.id);
     end`,
    ...[
      ["catalog_version_product_insert", "insert on products"],
      ["catalog_version_product_delete", "delete on products"],
      ["catalog_version_product_update", `update of ${LISTED_PRODUCT_COLUMNS.join(", ")} on products`],
      ["catalog_version_brand_update", "update of name on brands"],
    ].map(([name, event]) => `create trigger ${name} after ${event} begin update catalog_version set version = version + 1 where id = 1; end`),
  ];
  await createVersionTable(db);
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists catalog_version_products on products`.execute(db);
    await sql`drop trigger if exists catalog_version_brands on brands`.execute(db);
    await sql`drop function if exists catalog_version_bump()`.execute(db);
    await sql`drop index if exists products_name_trgm_idx`.execute(db);
    await sql`drop function if exists shop_fold(text)`.execute(db);
  } else {
    for (const trigger of [
      "product_search_insert",
      "product_search_update",
      "product_search_delete",
      "product_search_brand",
      "catalog_version_product_insert",
      "catalog_version_product_delete",
      "catalog_version_product_update",
      "catalog_version_brand_update",
    ]) {
      await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    }
    await sql`drop table if exists product_search`.execute(db);
  }
  await db.schema.dropTable("catalog_version").ifExists().execute();
}
