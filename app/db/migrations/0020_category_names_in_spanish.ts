import { type Kysely, sql } from "kysely";

// Categories get a name per language: `name` is the English one (and the fallback), `name_es` the
// Spanish one, shown on Spanish pages (docs/decisions/091). The demo catalogue's three categories are
// given theirs; any other category keeps showing its English name until the owner adds one.

const DEMO: [slug: string, english: string, spanish: string][] = [
  ["men", "Men", "Hombre"],
  ["women", "Women", "Mujer"],
  ["unisex", "Unisex", "Unisex"],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("categories").addColumn("name_es", "text").execute();
  for (const [slug, english, spanish] of DEMO) {
    await sql`update categories set name_es = ${spanish} where slug = ${slug} and name = ${english} and name_es is null`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error("0020_category_names_in_spanish cannot be rolled back: it would drop the Spanish names");
}
