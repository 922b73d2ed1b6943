import { type Compilable, CompiledQuery, type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPostgres } from "~/db/client.server";
import type { Database } from "~/db/schema";
import { latestViews } from "~/domain/shopper/recently-viewed.server";
import { wishlistIdsColumn } from "~/domain/shopper/wishlist.server";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";

// Every signed-in page reads the shopper's hearts latest first, and every signed-in product page their
// latest views (docs/decisions/192): both are read from an index in that order, never sorted per page.
describe.each(ENGINES)("a shopper's lists on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** The plan's lines. On PostgreSQL, scans and sorts are made dearer than anything else, so the plan sorts only when no index gives the order. */
  async function plan(query: Compilable<unknown>): Promise<string[]> {
    const { sql: text, parameters } = query.compile();
    const explain = async (db: Kysely<Database>, prefix: string) => (await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${text}`, [...parameters]))).rows;
    if (!isPostgres(t.db)) return (await explain(t.db, "explain query plan")).map((r) => r.detail);
    return t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_sort = off`.execute(trx);
      return (await explain(trx, "explain")).map((r) => r["QUERY PLAN"]);
    });
  }
  const sorts = (lines: string[]) => lines.filter((line) => /TEMP B-TREE|Sort/.test(line));

  it("reads the latest views from an index, in order", async () => {
    const lines = await plan(latestViews(t.db, sql.val(1)));
    expect(lines.join("\n")).toMatch(/recently_viewed_latest_idx/);
    expect(sorts(lines)).toEqual([]);
  });

  it("reads the hearts from an index, in order", async () => {
    const lines = await plan(t.db.selectNoFrom(wishlistIdsColumn(t.db, sql.val(1)).as("ids")));
    expect(lines.join("\n")).toMatch(/wishlist_latest_idx/);
    expect(sorts(lines)).toEqual([]);
  });
});
