import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// PostgreSQL's search folds a product's name with shop_fold (0040) for every row it checks: up to
// hundreds per search page, as the pg_trgm index only narrows the candidates (docs/decisions/193).
// unaccent() is declared STABLE, so the IMMUTABLE shop_fold around it could not be inlined: each
// call ran as a statement of its own, about 2 µs. The same C function declared IMMUTABLE (for the shop
// it is: the dictionary is named in the call) lets PostgreSQL inline shop_fold into the query, index
// expression included: about 0.8 µs. Creating a C-language function takes a superuser; without one (a
// managed database) shop_fold is left as it was, and search works as before.

/** The unaccent extension's schema, or null when it is not installed (shop_fold then uses translate(), already inlined). */
async function unaccentSchema(db: Kysely<unknown>): Promise<string | null> {
  const row = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
  return row.rows[0]?.schema ?? null;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** True when shop_fold is now the inlined one. Exported for its test, which also runs it as a user who may not. */
export async function inlineShopFold(db: Kysely<unknown>): Promise<boolean> {
  const schema = await unaccentSchema(db);
  if (schema === null) return false;
  const dictionary = `${quoteIdent(schema)}.unaccent`;
  // Named with the schema it is made in, as shop_fold names unaccent's: the body is read with the
  // search path of each query that uses it.
  const current = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema;
  const wrapper = `${quoteIdent(current)}.shop_unaccent`;
  await sql`savepoint shop_fold_inlined`.execute(db);
  try {
    await sql
      .raw(`create or replace function ${wrapper}(regdictionary, text) returns text language c immutable parallel safe strict as '$libdir/unaccent', 'unaccent_dict'`)
      .execute(db);
    await sql
      .raw(`create or replace function shop_fold(text) returns text language sql immutable parallel safe strict as $fold$ select lower(${wrapper}('${dictionary}'::regdictionary, $1)) $fold$`)
      .execute(db);
    await sql`release savepoint shop_fold_inlined`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint shop_fold_inlined`.execute(db);
    return false;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await inlineShopFold(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const schema = await unaccentSchema(db);
  const exists = await sql<{ n: number }>`select count(*)::int as n from pg_proc where proname = 'shop_unaccent'`.execute(db);
  if (schema === null || exists.rows[0].n === 0) return;
  await sql
    .raw(`create or replace function shop_fold(text) returns text language sql immutable parallel safe strict as $fold$ select lower(${quoteIdent(schema)}.unaccent('${quoteIdent(schema)}.unaccent'::regdictionary, $1)) $fold$`)
    .execute(db);
  await sql`drop function shop_unaccent(regdictionary, text)`.execute(db);
}
