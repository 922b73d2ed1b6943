import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts } from "../../tests/support/catalogue";
import { freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { openDatabase } from "./client.server";
import { inlineShopFold } from "./migrations/0093_shop_fold_inlined";

// PostgreSQL's search folds names with shop_fold (docs/decisions/130); migration 0093 makes it a
// function PostgreSQL inlines into the query, so a search page no longer runs it as a statement of its
// own for every row it checks (docs/decisions/193).
describe("shop_fold on postgres", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase("postgres");
    await makeProducts(t.db, [
      { name: "Crème Brûlée Été", price: 5_000_000, stock: 3 },
      { name: "Intense Oud", price: 6_000_000, stock: 3 },
    ]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const plan = async (query: string) =>
    t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return (await sql<{ "QUERY PLAN": string }>`explain (verbose, costs off) ${sql.raw(query)}`.execute(trx)).rows.map((r) => r["QUERY PLAN"]).join("\n");
    });

  it("folds case and accents as before", async () => {
    const { rows } = await sql<{ folded: string }>`select shop_fold('Crème BRÛLÉE Été ñ') as folded`.execute(t.db);
    expect(rows[0].folded).toBe("creme brulee ete n");
  });

  it("is inlined into a search, which still reads the name's trigram index", async () => {
    const search = await plan(`select id from products where shop_fold(name) like '%' || shop_fold('creme') || '%'`);
    expect(search).toMatch(/products_name_trgm_idx/);
    expect(search).toMatch(/shop_unaccent\(/);
    expect(search).not.toMatch(/shop_fold\(/);
    const found = await sql<{ name: string }>`select name from products where shop_fold(name) like '%' || shop_fold('creme') || '%'`.execute(t.db);
    expect(found.rows.map((r) => r.name)).toEqual(["Crème Brûlée Été"]);
  });

  it("is left as it was, still folding, where the database user may not create it", async () => {
    const role = `shop_${randomBytes(4).toString("hex")}`;
    await sql.raw(`create role ${role} login`).execute(t.db);
    const url = new URL(t.url!);
    url.username = role;
    const limited = await openDatabase({ databaseUrl: url.toString(), sqlitePath: "" });
    try {
      expect(await limited.db.transaction().execute((trx) => inlineShopFold(trx as unknown as Kysely<unknown>))).toBe(false);
      const { rows } = await sql<{ folded: string }>`select shop_fold('Crème') as folded`.execute(limited.db);
      expect(rows[0].folded).toBe("creme");
    } finally {
      await limited.close();
      await sql.raw(`drop role ${role}`).execute(t.db);
    }
  });
});
