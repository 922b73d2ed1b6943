import { type RawBuilder, sql } from "kysely";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listShopProducts, productDetail, shopFacets } from "~/domain/catalogue/catalog.server";
import { CONCENTRATIONS, FAMILIES } from "~/lib/perfume-facts";
import { NO_FILTERS } from "~/lib/shop-url";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { addDemoCopies } from "./seed-copies.server";
import { seedDemoCatalogue } from "./seed.server";

// The large catalogue's bulk path (docs/decisions/156): copies of the demo perfumes written by
// multi-row INSERTs, their sizes, summaries, search entries and counts by the same triggers as every
// other writer. 2,600 products cross the batch size on both engines (500 on SQLite, 2,000 on PostgreSQL).

const imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-images-"));
afterAll(() => fs.rmSync(imagesDir, { recursive: true, force: true }));

const TOTAL = 2600;

describe.each(ENGINES)("a large demo catalogue on %s", (engine) => {
  let t: TestDatabase;
  let demoCount: number;
  let versionBefore: number;
  let added: number;

  const version = async () => Number((await t.db.selectFrom("catalog_version").select("version").executeTakeFirstOrThrow()).version);
  const count = async (query: RawBuilder<unknown>) => Number(((await query.execute(t.db)).rows[0] as { n: number | string }).n);

  beforeAll(async () => {
    t = await freshDatabase(engine);
    demoCount = (await seedDemoCatalogue(t.db, { imagesDir })).products;
    versionBefore = await version();
    added = await addDemoCopies(t.db, TOTAL);
  }, 180_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("adds copies up to the number asked for, each in one size made from its own figures", async () => {
    expect(added).toBe(TOTAL - demoCount);
    expect(await count(sql`select count(*) as n from products`)).toBe(TOTAL);
    const demoMax = await count(sql`select max(id) as n from products where name not like '%#%'`);
    const copies = await t.db
      .selectFrom("products as p")
      .innerJoin("product_sizes as s", "s.product_id", "p.id")
      .select(["p.id", "p.price", "p.discount", "p.stock", "p.price_max", "s.label", "s.price as sizePrice", "s.discount as sizeDiscount", "s.stock as sizeStock", "s.position"])
      .where("p.id", ">", demoMax)
      .execute();
    expect(copies).toHaveLength(TOTAL - demoCount);
    for (const c of copies) {
      expect([c.label, c.position, c.sizePrice, c.sizeDiscount, c.sizeStock, c.price_max]).toEqual(["Standard", 0, c.price, c.discount, c.stock, c.price]);
    }
    // A copy is a demo perfume with a number, another price and an arrival a minute apart.
    const [late] = await t.db.selectFrom("products").select(["name", "slug", "price"]).where("name", "like", "%#2599").execute();
    expect(late.slug).toMatch(/-2599$/);
    expect(await addDemoCopies(t.db, TOTAL)).toBe(0);
  });

  it("keeps every product's stock the sum of its sizes and its prices those of its cheapest and dearest size", async () => {
    const wrong = await count(sql`
      select count(*) as n from products p where
        p.stock <> (select sum(s.stock) from product_sizes s where s.product_id = p.id)
        or p.price <> (select s.price from product_sizes s where s.product_id = p.id order by s.price, s.position, s.id limit 1)
        or coalesce(p.discount, -1) <> coalesce((select s.discount from product_sizes s where s.product_id = p.id order by s.price, s.position, s.id limit 1), -1)
        or p.price_max <> (select max(s.price) from product_sizes s where s.product_id = p.id)
        or not exists (select 1 from product_sizes s where s.product_id = p.id)`);
    expect(wrong).toBe(0);
    // The demo's perfumes in several sizes kept theirs.
    expect(await count(sql`select count(*) as n from products p where (select count(*) from product_sizes s where s.product_id = p.id) > 1`)).toBeGreaterThan(0);
    // Stock figures the shop shows: the copies' total is their demo perfumes' stock, once per copy.
    const demoStock = await t.db.selectFrom("products").select(["id", "stock"]).orderBy("id").limit(demoCount).execute();
    const expected = Array.from({ length: TOTAL }, (_, i) => demoStock[i % demoCount].stock).reduce((a, b) => a + b, 0);
    expect(await count(sql`select sum(stock) as n from products`)).toBe(expected);
  });

  it("gives each copy its picture as its only photo", async () => {
    expect(await count(sql`select count(*) as n from products p where not exists (select 1 from product_photos f where f.product_id = p.id and f.image = p.image and f.position = 1)`)).toBe(0);
    expect(await count(sql`select count(*) as n from product_photos`)).toBe(TOTAL);
    const detail = await productDetail(t.db, await count(sql`select max(id) as n from products`));
    expect(detail!.name).toMatch(/#2599$/);
    expect(detail!.sizes).toHaveLength(1);
  });

  it("finds the copies by search, accents and case folded, and counts the listing and its facets exactly", async () => {
    expect(await version()).toBeGreaterThan(versionBefore);
    const all = await listShopProducts(t.db, NO_FILTERS);
    expect(all.total).toBe(TOTAL);

    const ombre = await count(sql`select count(*) as n from products where name like 'Ombré Leather%'`);
    expect(ombre).toBeGreaterThan(TOTAL / demoCount - 1);
    const found = await listShopProducts(t.db, { ...NO_FILTERS, q: "ombre LEATHER" });
    expect(found.total).toBe(ombre);
    expect(found.products.every((p) => p.name.startsWith("Ombré Leather"))).toBe(true);
    const one = await listShopProducts(t.db, { ...NO_FILTERS, q: "#2599" });
    expect(one.products.map((p) => p.name)).toEqual([expect.stringMatching(/#2599$/)]);
    if (engine === "sqlite") expect(await count(sql`select count(*) as n from product_search`)).toBe(TOTAL);

    const hermes = await t.db.selectFrom("brands").select("id").where("name", "=", "Hermès").executeTakeFirstOrThrow();
    const byBrand = await count(sql`select count(*) as n from products where brand_id = ${hermes.id} or name like '%Hermès%'`);
    expect((await listShopProducts(t.db, { ...NO_FILTERS, q: "HERMES" })).total).toBe(byBrand);

    const facets = await shopFacets(t.db, NO_FILTERS);
    const grouped = async (column: "concentration" | "family") =>
      Object.fromEntries((await t.db.selectFrom("products").select([column, (eb) => eb.fn.countAll<number>().as("n")]).groupBy(column).execute()).map((r) => [String(r[column]), Number(r.n)]));
    const concentrations = await grouped("concentration");
    const families = await grouped("family");
    for (const c of CONCENTRATIONS) expect(facets.concentration[c]).toBe(concentrations[c] ?? 0);
    for (const f of FAMILIES) expect(facets.family[f]).toBe(families[f] ?? 0);
    expect(Object.values(facets.family).reduce((a, b) => a + b, 0)).toBeGreaterThan(TOTAL / 2);

    const filtered = { ...NO_FILTERS, brand: hermes.id, families: [FAMILIES[0]] };
    const expectedFiltered = await count(sql`select count(*) as n from products where brand_id = ${hermes.id} and family = ${FAMILIES[0]}`);
    expect((await listShopProducts(t.db, filtered)).total).toBe(expectedFiltered);
  });
});
