import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_FILTERS, type ShopFilters, shopHref } from "~/lib/shop-url";
import { addBrand, addCategory, addProduct } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { countingStatements } from "../../../tests/support/statements";
import { listBrands, listCategories, listShopProducts, parseShopQuery, shopFacets, shopListing } from "./catalog.server";

const filters = (change: Partial<ShopFilters>): ShopFilters => ({ ...NO_FILTERS, ...change });

describe.each(ENGINES)("concentration and scent family filters on %s", (engine) => {
  let t: TestDatabase;
  let men = 0;
  let women = 0;
  const names = async (change: Partial<ShopFilters>) => (await listShopProducts(t.db, filters(change))).products.map((p) => p.name).sort();

  beforeAll(async () => {
    t = await freshDatabase(engine);
    men = (await addCategory(t.db, "Men")).id;
    women = (await addCategory(t.db, "Women")).id;
    const brand = (await addBrand(t.db, "Maison")).id;
    const rows: [string, number, string | null, string | null, number][] = [
      ["Cedar EDP", men, "edp", "woody", 5_000_000],
      ["Vetiver EDT", men, "edt", "woody", 3_000_000],
      ["Lemon EDT", men, "edt", "citrus", 2_000_000],
      ["Rose EDP", women, "edp", "floral", 6_000_000],
      ["Jasmine Parfum", women, "parfum", "floral", 9_000_000],
      ["Vanilla EDP", women, "edp", "gourmand", 4_000_000],
      ["Mystery", women, null, null, 1_000_000],
    ];
    for (const [name, categoryId, concentration, family, price] of rows) {
      const { id } = await addProduct(t.db, { name, categoryId, brandId: brand, price });
      await t.db.updateTable("products").set({ concentration, family }).where("id", "=", id).execute();
    }
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("filters by several values of a fact at once, and by both facts together with the other filters", async () => {
    expect(await names({ concentrations: ["edp"] })).toEqual(["Cedar EDP", "Rose EDP", "Vanilla EDP"]);
    expect(await names({ concentrations: ["parfum", "edt"] })).toEqual(["Jasmine Parfum", "Lemon EDT", "Vetiver EDT"]);
    expect(await names({ families: ["woody", "floral"] })).toEqual(["Cedar EDP", "Jasmine Parfum", "Rose EDP", "Vetiver EDT"]);
    expect(await names({ families: ["woody", "floral"], concentrations: ["edp"] })).toEqual(["Cedar EDP", "Rose EDP"]);
    expect(await names({ families: ["woody", "floral"], concentrations: ["edp"], category: women })).toEqual(["Rose EDP"]);
    expect(await names({ families: ["floral"], max: 70_000 })).toEqual(["Rose EDP"]);
    expect(await names({ families: ["floral"], q: "jasm" })).toEqual(["Jasmine Parfum"]);
    expect(await names({ families: ["leather"] })).toEqual([]);
  });

  it("lists a page with its filters' choices at one catalogue version, and a change to a category or brand is in the next", async () => {
    const query = new URLSearchParams({ category: String(women), q: "rose", page: "9" });
    const page = await shopListing(t.db, query, "es");
    expect(page.products.map((p) => p.name)).toEqual(["Rose EDP"]);
    expect(page.filters).toMatchObject({ category: women, q: "rose", page: 1 });
    expect(page.categories.map((c) => c.name)).toEqual(["Men", "Women"]);
    expect(page.brands.map((b) => b.name)).toContain("Maison");
    expect(page.facets.concentration.edp).toBe(1);
    // Read again at the same version, the choices are the same; renamed (in Spanish) or added, they change.
    expect((await shopListing(t.db, query, "es")).categories).toEqual(page.categories);
    await t.db.updateTable("categories").set({ name_es: "Mujer" }).where("id", "=", women).execute();
    expect((await shopListing(t.db, query, "es")).categories.map((c) => c.name)).toEqual(["Men", "Mujer"]);
    expect((await shopListing(t.db, query, "en")).categories.map((c) => c.name)).toEqual(["Men", "Women"]);
    const brand = await addBrand(t.db, "Atelier");
    const { id } = await addProduct(t.db, { name: "Fig Cologne", categoryId: men, brandId: brand.id });
    expect((await shopListing(t.db, new URLSearchParams(), "en")).brands.map((b) => b.name)).toContain("Atelier");
    await t.db.updateTable("brands").set({ name: "Atelier Paris" }).where("id", "=", brand.id).execute();
    expect((await shopListing(t.db, new URLSearchParams(), "en")).brands.map((b) => b.name)).toContain("Atelier Paris");
    await t.db.deleteFrom("products").where("id", "=", id).execute();
    await t.db.updateTable("categories").set({ name_es: null }).where("id", "=", women).execute();
    expect((await shopListing(t.db, new URLSearchParams(), "en")).brands.map((b) => b.name)).not.toContain("Atelier Paris");
    // An unknown category in the query is no filter.
    expect((await shopListing(t.db, new URLSearchParams({ category: "999999" }), "en")).filters.category).toBeNull();
  });

  it("takes one statement for a listing once the catalogue's version is known, and notices a change made elsewhere", async () => {
    const counted = countingStatements(t.db);
    const search = new URLSearchParams({ q: "edp" });
    const first = await shopListing(counted.db, search, "en");
    expect(first.products.map((p) => p.name).sort()).toEqual(["Cedar EDP", "Rose EDP", "Vanilla EDP"]);
    counted.statements.length = 0;
    expect(await shopListing(counted.db, search, "en")).toEqual(first);
    expect(counted.statements).toHaveLength(1);
    // A page without products reads the version alone (once its counts are known).
    const nothing = new URLSearchParams({ q: "no such scent" });
    expect((await shopListing(counted.db, nothing, "en")).total).toBe(0);
    counted.statements.length = 0;
    expect((await shopListing(counted.db, nothing, "en")).total).toBe(0);
    expect(counted.statements).toHaveLength(1);
    // Changed through another handle (another instance, a script): triggers raise the version, and the
    // next listing's rows say so; its counts and facets are then read at the new version.
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("name", "=", "Cedar EDP").execute();
    const after = await shopListing(counted.db, search, "en");
    expect(after.products.map((p) => p.name).sort()).toEqual(["Rose EDP", "Vanilla EDP"]);
    expect([after.total, after.facets.concentration.edp, after.facets.family.woody]).toEqual([2, 2, 0]);
    expect([first.total, first.facets.concentration.edp, first.facets.family.woody]).toEqual([3, 3, 1]);
    counted.statements.length = 0;
    expect(await shopListing(counted.db, search, "en")).toEqual(after);
    expect(counted.statements).toHaveLength(1);
    await t.db.updateTable("products").set({ archived_at: null }).where("name", "=", "Cedar EDP").execute();
    expect((await shopListing(counted.db, search, "en")).total).toBe(3);
  });

  it("counts each value with the other filters applied, its own choices aside", async () => {
    const all = await shopFacets(t.db, filters({}));
    expect(all.concentration).toEqual({ parfum: 1, edp: 3, edt: 2, edc: 0 });
    expect(all.family).toMatchObject({ woody: 2, floral: 2, citrus: 1, gourmand: 1, leather: 0, fresh: 0 });
    // Choosing EDP keeps the other concentrations' counts (they would add products) and narrows the families.
    const edp = await shopFacets(t.db, filters({ concentrations: ["edp"] }));
    expect(edp.concentration).toEqual({ parfum: 1, edp: 3, edt: 2, edc: 0 });
    expect(edp.family).toMatchObject({ woody: 1, floral: 1, gourmand: 1, citrus: 0 });
    const menWoody = await shopFacets(t.db, filters({ category: men, families: ["woody"] }));
    expect(menWoody.concentration).toEqual({ parfum: 0, edp: 1, edt: 1, edc: 0 });
    expect(menWoody.family).toMatchObject({ woody: 2, citrus: 1, floral: 0 });
  });

  it("recounts after a change to a product's facts, made anywhere", async () => {
    await t.db.updateTable("products").set({ family: "leather" }).where("name", "=", "Mystery").execute();
    expect((await shopFacets(t.db, filters({}))).family.leather).toBe(1);
    expect(await names({ families: ["leather"] })).toEqual(["Mystery"]);
  });

  it("reads several values from the URL, drops unknown ones, and writes them back in one order", async () => {
    const known = { categories: await listCategories(t.db), brands: await listBrands(t.db) };
    const parsed = parseShopQuery(new URLSearchParams("family=woody&concentration=edt&family=ORIENTAL&family=floral&concentration=edp&concentration=edt&family=<x>"), known);
    expect(parsed.concentrations).toEqual(["edp", "edt"]);
    expect(parsed.families).toEqual(["woody", "floral"]);
    expect(shopHref(parsed)).toBe("/shop?concentration=edp&concentration=edt&family=woody&family=floral");
    expect(shopHref(parsed, { families: [] })).toBe("/shop?concentration=edp&concentration=edt");
    const flood = parseShopQuery(new URLSearchParams(Array.from({ length: 5000 }, () => "family=woody").join("&")), known);
    expect(flood.families).toEqual(["woody"]);
  });
});

describe.each(ENGINES)("the admin sets a product's perfume facts on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };

  it("accepts a value from each list or none, refuses anything else with a message, and records the change", async () => {
    const { parseProductForm, updateProduct, getAdminProduct } = await import("./admin-products.server");
    const { addUser } = await import("../../../tests/support/catalogue");
    const admin = await addUser(t.db, "owner");
    const brand = await addBrand(t.db, "Maison");
    const category = await addCategory(t.db, "Unisex");
    const { id } = await addProduct(t.db, { name: "Oud", brandId: brand.id, categoryId: category.id });
    const ctx = { db: t.db, imagesDir: "/nonexistent" };

    expect(parseProductForm(form({ concentration: "edp", family: "woody" }), "update").input).toEqual({ concentration: "edp", family: "woody" });
    expect(parseProductForm(form({ concentration: " ", family: "" }), "update").input).toEqual({ concentration: null, family: null });
    const bad = parseProductForm(form({ concentration: "EDP'; drop table products", family: "oriental" }), "update");
    expect(bad.errors).toEqual({ concentration: "admin.products.errors.concentration", family: "admin.products.errors.family" });
    expect(await updateProduct(ctx, id, bad, null, admin.id)).toMatchObject({ ok: false });

    const result = await updateProduct(ctx, id, parseProductForm(form({ concentration: "parfum", family: "woody" }), "update"), null, admin.id);
    expect(result).toMatchObject({ ok: true, changed: ["concentration", "family"] });
    expect(await getAdminProduct(t.db, id)).toMatchObject({ concentration: "parfum", family: "woody" });
    const audit = await t.db.selectFrom("audit_log").select("changes").where("entity_id", "=", id).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(JSON.parse(String(audit.changes))).toMatchObject({ concentration: [null, "parfum"], family: [null, "woody"] });
    expect((await shopFacets(t.db, filters({}))).concentration.parfum).toBe(1);
  });
});
