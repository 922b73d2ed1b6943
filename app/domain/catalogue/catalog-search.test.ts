import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_FILTERS, type ShopFilters } from "~/lib/shop-url";
import { addBrand, addCategory, addProduct } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { listShopProducts, searchWords } from "./catalog.server";

const filters = (change: Partial<ShopFilters>): ShopFilters => ({ ...NO_FILTERS, ...change });
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString();

describe.each(ENGINES)("shop search on %s", (engine) => {
  let t: TestDatabase;
  const names = async (q: string, change: Partial<ShopFilters> = {}) =>
    (await listShopProducts(t.db, filters({ q, ...change }))).products.map((p) => p.name);
  let category = 0;
  let dior = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    category = (await addCategory(t.db, "Unisex")).id;
    dior = (await addBrand(t.db, "Dior")).id;
    const maison = (await addBrand(t.db, "Maison Crème")).id;
    const products: [string, number][] = [
      ["Crème Brûlée Intense", dior],
      ["Limón Verde", dior],
      ["Piña Colada", maison],
      ["Sauvage Eau de Parfum", dior],
      ["Oud Wood", maison],
      ["Bois d'Argent", maison],
    ];
    for (const [i, [name, brandId]] of products.entries()) {
      await addProduct(t.db, { name, brandId, categoryId: category, createdAt: at(i) });
    }
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("ignores accents and case in both directions, in English and Spanish names", async () => {
    expect(await names("creme brulee")).toEqual(["Crème Brûlée Intense"]);
    expect(await names("CRÈME BRÛLÉE")).toEqual(["Crème Brûlée Intense"]);
    expect(await names("limon")).toEqual(["Limón Verde"]);
    expect(await names("LIMÓN")).toEqual(["Limón Verde"]);
    expect(await names("pina")).toEqual(["Piña Colada"]);
    expect(await names("piña")).toEqual(["Piña Colada"]);
  });

  it("finds parts of words, and words in any order across the name and the brand", async () => {
    expect(await names("inten")).toEqual(["Crème Brûlée Intense"]);
    expect(await names("parf sauv")).toEqual(["Sauvage Eau de Parfum"]);
    expect(await names("dior intense")).toEqual(["Crème Brûlée Intense"]);
    expect(await names("maison oud")).toEqual(["Oud Wood"]);
    expect(await names("d'arg")).toEqual(["Bois d'Argent"]);
    expect(await names('"argent')).toEqual([]);
    expect(await names("intense chanel")).toEqual([]);
    // Words shorter than three characters are compared directly.
    expect(await names("ea")).toEqual(["Sauvage Eau de Parfum"]);
    expect(await names("er")).toEqual(["Limón Verde"]);
    expect(await names("eau d")).toEqual(["Sauvage Eau de Parfum"]);
  });

  it("lists products whose own name matches before those found by their brand, across pages", async () => {
    // 'crème': one product by name (the oldest), three newer ones by their brand Maison Crème.
    const first = await listShopProducts(t.db, filters({ q: "creme" }));
    expect(first.total).toBe(4);
    expect(first.products.map((p) => p.name)).toEqual(["Crème Brûlée Intense", "Bois d'Argent", "Oud Wood", "Piña Colada"]);
    // Eleven more named 'Crème …' products: the name matches fill page 1 and spill onto page 2, the brand matches follow.
    const extra = await addBrand(t.db, "Other");
    for (let i = 0; i < 11; i++) await addProduct(t.db, { name: `Eau Crème ${i}`, brandId: extra.id, categoryId: category, createdAt: at(100 + i) });
    const page1 = await listShopProducts(t.db, filters({ q: "creme" }));
    const page2 = await listShopProducts(t.db, filters({ q: "creme", page: 2 }));
    expect(page1.total).toBe(15);
    expect(page1.products.map((p) => p.name)).toEqual([10, 9, 8, 7, 6, 5, 4, 3].map((i) => `Eau Crème ${i}`));
    expect(page2.products.map((p) => p.name)).toEqual([
      "Eau Crème 2",
      "Eau Crème 1",
      "Eau Crème 0",
      "Crème Brûlée Intense",
      "Bois d'Argent",
      "Oud Wood",
      "Piña Colada",
    ]);
    // With a category filter the same order holds over fewer products.
    const other = await addCategory(t.db, "Other");
    expect((await listShopProducts(t.db, filters({ q: "creme", category: other.id }))).total).toBe(0);
  });

  it("keeps counts right after changes made straight in the database, not only through the admin", async () => {
    expect((await listShopProducts(t.db, filters({ q: "vetiver" }))).total).toBe(0);
    const added = await addProduct(t.db, { name: "Vétiver Extraordinaire", brandId: dior, categoryId: category, createdAt: at(200) });
    expect(await names("vetiver")).toEqual(["Vétiver Extraordinaire"]);
    await t.db.updateTable("products").set({ name: "Encre Noire" }).where("id", "=", added.id).execute();
    expect((await listShopProducts(t.db, filters({ q: "vetiver" }))).total).toBe(0);
    expect(await names("encre")).toEqual(["Encre Noire"]);
    await t.db.updateTable("brands").set({ name: "Lalique" }).where("id", "=", dior).execute();
    expect((await listShopProducts(t.db, filters({ q: "lalique" }))).total).toBe(4);
    expect((await listShopProducts(t.db, filters({ q: "dior" }))).total).toBe(0);
    await t.db.updateTable("products").set({ archived_at: at(300) }).where("id", "=", added.id).execute();
    expect((await listShopProducts(t.db, filters({ q: "lalique" }))).total).toBe(3);
    await t.db.deleteFrom("products").where("name", "=", "Oud Wood").execute();
    expect((await listShopProducts(t.db, filters({ q: "oud" }))).total).toBe(0);
    const all = (await listShopProducts(t.db, filters({}))).total;
    await addProduct(t.db, { name: "Another", brandId: dior, categoryId: category });
    expect((await listShopProducts(t.db, filters({}))).total).toBe(all + 1);
  });

  it("does not count stock changes as catalogue changes", async () => {
    const before = await t.db.selectFrom("catalog_version").select("version").executeTakeFirstOrThrow();
    await t.db.updateTable("product_sizes").set({ stock: 0 }).execute();
    const after = await t.db.selectFrom("catalog_version").select("version").executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version);
    await t.db.updateTable("products").set({ price: 123_400 }).where("name", "=", "Another").execute();
    const repriced = await t.db.selectFrom("catalog_version").select("version").executeTakeFirstOrThrow();
    expect(Number(repriced.version)).toBeGreaterThan(Number(after.version));
  });

  it("answers from the engine's own index", async () => {
    if (engine === "sqlite") {
      const plan = await sql<{ detail: string }>`explain query plan select rowid from product_search where product_search match ${'"creme"'}`.execute(t.db);
      expect(plan.rows.map((r) => r.detail).join("\n")).toContain("VIRTUAL TABLE INDEX");
      const indexed = await sql<{ n: number }>`select count(*) as n from product_search`.execute(t.db);
      const products = await t.db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      expect(Number(indexed.rows[0].n)).toBe(Number(products.n));
    } else {
      const plan = await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return sql<{ "QUERY PLAN": string }>`explain select id from products where shop_fold(name) like '%' || shop_fold(${"crème"}) || '%'`.execute(trx);
      });
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("products_name_trgm_idx");
      const folded = await sql<{ f: string }>`select shop_fold(${"Crème Brûlée PIÑA Limón"}) as f`.execute(t.db);
      expect(folded.rows[0].f).toBe("creme brulee pina limon");
    }
  });

  it("cuts the text into at most eight distinct words", () => {
    expect(searchWords("a b a c")).toEqual(["a", "b", "c"]);
    expect(searchWords("1 2 3 4 5 6 7 8 9 10")).toHaveLength(8);
    expect(searchWords("")).toEqual([]);
  });
});
