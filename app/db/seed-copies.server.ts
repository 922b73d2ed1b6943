import { sql } from "kysely";
import { type Db, isPostgres } from "./client.server";

/** Rows per INSERT: PostgreSQL takes up to 65,535 parameters a statement, SQLite 32,766 (15 a row here). */
const BATCH = { postgres: 2000, sqlite: 500 };

/**
 * Grows the demo catalogue to `productCount` products with copies of the demo perfumes (a numbered
 * name and slug, a slightly different price, one arrival a minute over the last 400 days, the same
 * picture), for measuring the shop at a large catalogue (npm run seed -- --products N, npm run bench).
 * Call it after seedDemoCatalogue, on a catalogue that holds only the demo.
 *
 * One transaction of multi-row INSERTs. Every copy gets its one size, its search entry and the
 * catalogue version by the triggers every writer of products goes through (migrations 0040, 0090),
 * its picture as its only photo, as the demo perfumes have (docs/decisions/124); then fresh planner
 * statistics, as a database that grew over time would have. Returns the number of copies added.
 */
export async function addDemoCopies(db: Db, productCount: number, now = Date.now()): Promise<number> {
  const demo = await db.selectFrom("products").selectAll().orderBy("id").execute();
  if (demo.length === 0 || productCount <= demo.length) return 0;
  const lastDemoId = demo[demo.length - 1].id;
  const start = now - 400 * 24 * 3600_000;
  const batch = isPostgres(db) ? BATCH.postgres : BATCH.sqlite;
  await db.transaction().execute(async (trx) => {
    for (let from = demo.length; from < productCount; from += batch) {
      const rows = [];
      for (let i = from; i < Math.min(productCount, from + batch); i++) {
        const source = demo[i % demo.length];
        const at = new Date(start + i * 60_000).toISOString();
        const price = source.price + (i % 97) * 100;
        rows.push({
          slug: `${source.slug}-${i}`,
          name: `${source.name} #${i}`,
          description: source.description,
          price,
          discount: source.discount,
          // one size, so the dearest size's price is the price (SQLite then has nothing to correct)
          price_max: price,
          stock: source.stock,
          image: source.image,
          concentration: source.concentration,
          family: source.family,
          category_id: source.category_id,
          brand_id: source.brand_id,
          created_at: at,
          updated_at: at,
        });
      }
      await trx.insertInto("products").values(rows).execute();
    }
    await sql`
      insert into product_photos (product_id, image, alt, position, created_at)
      select p.id, p.image, null, 1, p.created_at from products p where p.id > ${lastDemoId} and p.image is not null
    `.execute(trx);
  });
  await sql`analyze`.execute(db);
  return productCount - demo.length;
}
