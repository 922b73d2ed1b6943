import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NO_FILTERS, type ShopFilters } from "~/lib/shop-url";
import { addBrand, addCategory, addProduct } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { countingStatements } from "../../../tests/support/statements";
import {
  CARD_KEPT_MS,
  catalogChanged,
  HOME_NEWEST,
  HOME_PER_CATEGORY,
  homeCarousels,
  listBrands,
  listCategories,
  listShopProducts,
  newestProducts,
  onCatalogChange,
  parseProductId,
  parseShopQuery,
  productCards,
  productCardsInOrder,
  productDetail,
  relatedProducts,
  sitemapProducts,
} from "./catalog.server";

const filters = (change: Partial<ShopFilters>): ShopFilters => ({ ...NO_FILTERS, ...change });
const query = (text: string) => new URLSearchParams(text);

describe.each(ENGINES)("the shop's catalogue on %s", (engine) => {
  let t: TestDatabase;
  const ids = { men: 0, women: 0, dior: 0, chanel: 0, pure: 0 };
  const productIds: Record<string, number> = {};

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString();
    const [men, women] = await t.db
      .insertInto("categories")
      .values([
        { name: "Men", slug: "men", created_at: at(0) },
        { name: "Women", slug: "women", created_at: at(0) },
      ])
      .returning("id")
      .execute();
    const [dior, chanel, pure] = await t.db
      .insertInto("brands")
      .values([
        { name: "Dior", slug: "dior", created_at: at(0) },
        { name: "Chanel", slug: "chanel", created_at: at(0) },
        { name: "100% Pure_Oils", slug: "pure", created_at: at(0) },
      ])
      .returning("id")
      .execute();
    Object.assign(ids, { men: men.id, women: women.id, dior: dior.id, chanel: chanel.id, pure: pure.id });
    // 18 products: minute i, so product 17 is the newest. Prices ₦10,000 + i × ₦10,000.
    const rows = Array.from({ length: 18 }, (_, i) => ({
      slug: `p-${i}`,
      name: i === 5 ? "Sauvage Eau de Parfum" : i === 6 ? "Coco 50% Off_Edition" : `Perfume ${i}`,
      description: `Description ${i}`,
      price: (10_000 + i * 10_000) * 100,
      discount: i % 4 === 0 ? 500_000 : null,
      stock: i === 3 ? 0 : 5,
      image: null,
      category_id: i % 2 === 0 ? men.id : women.id,
      brand_id: i < 6 ? dior.id : i < 12 ? chanel.id : pure.id,
      archived_at: i === 16 ? at(100) : null,
      created_at: at(i),
      updated_at: at(i),
    }));
    const inserted = await t.db.insertInto("products").values(rows).returning(["id", "slug"]).execute();
    for (const row of inserted) productIds[row.slug] = row.id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("lists 8 products a page, newest first, with the exact count, leaving archived products out", async () => {
    const first = await listShopProducts(t.db, filters({}));
    expect(first.total).toBe(17);
    expect(first.pageCount).toBe(3);
    expect(first.products.map((p) => p.id)).toEqual([17, 15, 14, 13, 12, 11, 10, 9].map((i) => productIds[`p-${i}`]));
    const last = await listShopProducts(t.db, filters({ page: 3 }));
    expect(last.page).toBe(3);
    expect(last.products.map((p) => p.id)).toEqual([productIds["p-0"]]);
    expect(first.products[0]).toMatchObject({ name: "Perfume 17", brandName: "100% Pure_Oils", price: 18_000_000, soldOut: 0 });
  });

  it("clamps the page to the last one, and to 1 when nothing matches", async () => {
    expect((await listShopProducts(t.db, filters({ page: 99_999 }))).page).toBe(3);
    const none = await listShopProducts(t.db, filters({ q: "no such perfume", page: 4 }));
    expect(none).toEqual({ products: [], total: 0, page: 1, pageCount: 1 });
  });

  it("filters by category, brand and price range (in naira) together", async () => {
    const men = await listShopProducts(t.db, filters({ category: ids.men }));
    expect(men.total).toBe(8); // the even ones, without the archived 16
    const chanelWomen = await listShopProducts(t.db, filters({ category: ids.women, brand: ids.chanel }));
    expect(chanelWomen.products.map((p) => p.name)).toEqual(["Perfume 11", "Perfume 9", "Perfume 7"]);
    const priced = await listShopProducts(t.db, filters({ min: 40_000, max: 60_000 }));
    expect(priced.products.map((p) => p.price / 100).sort()).toEqual([40_000, 50_000, 60_000]);
  });

  it("searches product and brand names, ignoring case; % and _ match only themselves", async () => {
    const sauvage = await listShopProducts(t.db, filters({ q: "sAuVaGe" }));
    expect(sauvage.products.map((p) => p.name)).toEqual(["Sauvage Eau de Parfum"]);
    const byBrand = await listShopProducts(t.db, filters({ q: "DIOR" }));
    expect(byBrand.total).toBe(6);
    expect((await listShopProducts(t.db, filters({ q: "50%" }))).products.map((p) => p.name)).toEqual(["Coco 50% Off_Edition"]);
    // The brand with a % in its name (5 products on sale) and Coco.
    expect((await listShopProducts(t.db, filters({ q: "%" }))).total).toBe(6);
    // As a pattern, "o_f" would match "Off"; as text it matches nothing.
    expect((await listShopProducts(t.db, filters({ q: "o_f" }))).total).toBe(0);
    expect((await listShopProducts(t.db, filters({ q: "f_e" }))).products.map((p) => p.name)).toEqual(["Coco 50% Off_Edition"]);
    expect((await listShopProducts(t.db, filters({ q: "'; drop table products; --" }))).total).toBe(0);
    expect((await listShopProducts(t.db, filters({}))).total).toBe(17);
  });

  it("reads filters from any query string: ignores or clamps what is wrong", async () => {
    const known = { categories: await listCategories(t.db), brands: await listBrands(t.db) };
    expect(known.categories.map((c) => c.name)).toEqual(["Men", "Women"]);
    expect(known.brands.map((b) => b.name)).toEqual(["100% Pure_Oils", "Chanel", "Dior"]);

    expect(parseShopQuery(query(""), known)).toEqual(NO_FILTERS);
    expect(parseShopQuery(query(`q=%20Dior%20&category=${ids.men}&brand=${ids.dior}&min=1000&max=2000&page=2`), known)).toEqual({
      q: "Dior",
      category: ids.men,
      brand: ids.dior,
      concentrations: [],
      families: [],
      min: 1000,
      max: 2000,
      sort: null,
      page: 2,
    });
    const bad = parseShopQuery(query("page=-3&min=abc&max=-5&category=999&brand=<script>"), known);
    expect(bad).toEqual({ ...NO_FILTERS, min: 0, max: 600_000 });
    expect(parseShopQuery(query("page=abc"), known).page).toBe(1);
    expect(parseShopQuery(query("page=1.5"), known).page).toBe(1);
    expect(parseShopQuery(query("min=500000&max=100"), known)).toMatchObject({ min: 100, max: 500_000 });
    expect(parseShopQuery(query("min=99999999999&max=9"), known)).toMatchObject({ min: 9, max: 600_000 });
    expect(parseShopQuery(query(`q=${"x".repeat(5000)}`), known).q).toHaveLength(100);
    expect(parseShopQuery(query(`category=${ids.women}&category=${ids.men}`), known).category).toBe(ids.women);
  });

  it("finds one product on sale, with its brand and category; anything else is none", async () => {
    const product = await productDetail(t.db, productIds["p-5"]);
    expect(product).toMatchObject({ name: "Sauvage Eau de Parfum", brandName: "Dior", categoryName: "Women", categoryId: ids.women, description: "Description 5" });
    expect(await productDetail(t.db, productIds["p-16"])).toBeNull(); // archived
    expect(await productDetail(t.db, 999_999)).toBeNull();

    expect(parseProductId("12")).toBe(12);
    for (const bad of [undefined, "", "0", "012", "-1", "1.5", "12abc", "abc", "99999999999", "2147483648"]) {
      expect(parseProductId(bad), String(bad)).toBeNull();
    }
  });

  it("relates up to five other products of the same category, newest first", async () => {
    const product = (await productDetail(t.db, productIds["p-4"]))!;
    const related = await relatedProducts(t.db, product);
    expect(related.map((p) => p.id)).toEqual([14, 12, 10, 8, 6].map((i) => productIds[`p-${i}`]));
  });

  it("picks the home carousels by category slug, the newest arrivals, and the sitemap's products", async () => {
    const counted = countingStatements(t.db);
    const home = await homeCarousels(counted.db);
    expect(counted.statements).toHaveLength(1);
    // The cards are the catalogue's own, field for field, newest first; archived products are left out.
    expect(JSON.stringify(home.newest)).toBe(JSON.stringify(await newestProducts(t.db, HOME_NEWEST)));
    expect(home.newest.map((p) => p.name)).toEqual(["Perfume 17", "Perfume 15", "Perfume 14", "Perfume 13", "Perfume 12"]);
    const inCategory = async (category: number) =>
      (await t.db.selectFrom("products").select("id").where("category_id", "=", category).where("archived_at", "is", null).orderBy("created_at", "desc").orderBy("id", "desc").limit(HOME_PER_CATEGORY).execute()).map((p) => p.id);
    expect(home.womens.map((p) => p.id)).toEqual(await inCategory(ids.women));
    expect(home.womens.map((p) => p.name).slice(0, 3)).toEqual(["Perfume 17", "Perfume 15", "Perfume 13"]);
    expect(home.mens.map((p) => p.id)).toEqual(await inCategory(ids.men));
    expect(home.mens.length).toBeGreaterThan(0);
    const sitemap = await sitemapProducts(t.db);
    expect(sitemap).toHaveLength(17);
    expect(sitemap[0]).toEqual({ id: productIds["p-0"], updatedAt: "2026-01-01T12:00:00.000Z" });
  });

  it("names categories in the shopper's language, and offers only categories and brands with a product on sale", async () => {
    await t.db.updateTable("categories").set({ name_es: "Hombre" }).where("id", "=", ids.men).execute();
    const [ghostCategory, emptyCategory, ghostBrand] = await Promise.all([addCategory(t.db, "Aaa Archived Only"), addCategory(t.db, "Aaa Empty"), addBrand(t.db, "Aaa Ghost")]);
    await addProduct(t.db, { brandId: ghostBrand.id, categoryId: ghostCategory.id, archived: true });
    expect((await listCategories(t.db, "en")).map((c) => c.name)).toEqual(["Men", "Women"]);
    // Spanish names where there are some, English otherwise, in Spanish order.
    expect((await listCategories(t.db, "es")).map((c) => c.name)).toEqual(["Hombre", "Women"]);
    expect((await listBrands(t.db)).map((b) => b.name)).toEqual(["100% Pure_Oils", "Chanel", "Dior"]);
    // A link to a hidden category is dropped like an unknown one.
    const known = { categories: await listCategories(t.db, "es"), brands: await listBrands(t.db) };
    expect(parseShopQuery(query(`category=${ghostCategory.id}&brand=${ghostBrand.id}`), known)).toEqual(NO_FILTERS);
    expect(parseShopQuery(query(`category=${emptyCategory.id}`), known)).toEqual(NO_FILTERS);
    expect(await productDetail(t.db, productIds["p-4"], "es")).toMatchObject({ categoryName: "Hombre" });
    expect(await productDetail(t.db, productIds["p-4"], "en")).toMatchObject({ categoryName: "Men" });
    expect(await productDetail(t.db, productIds["p-5"], "es")).toMatchObject({ categoryName: "Women" });
  });

  it("keeps cards in memory until the catalogue changes, here or elsewhere, or they are a minute old", async () => {
    const [a, b, archived] = [productIds["p-3"], productIds["p-4"], productIds["p-16"]];
    catalogChanged();
    const first = countingStatements(t.db);
    const cards = await productCardsInOrder(first.db, [b, 999_999, archived, a, b]);
    // In the order asked; unknown and archived ones left out; one read for all of them.
    expect(cards.map((card) => card.id)).toEqual([b, a, b]);
    expect(cards).toEqual([(await productCards(t.db, [b]))[0], (await productCards(t.db, [a]))[0], (await productCards(t.db, [b]))[0]]);
    expect(first.statements).toHaveLength(1);
    // Kept, the products not in the shop too, whatever reaches the database (a transaction here).
    const again = countingStatements(t.db);
    await again.db.transaction().execute(async (trx) => expect(await productCardsInOrder(trx, [a, archived, 999_999])).toEqual([cards[1]]));
    expect(again.statements).toHaveLength(0);

    // A change not yet announced is not seen: the shop announces every change it makes.
    await t.db.updateTable("products").set({ name: "Renamed" }).where("id", "=", a).execute();
    expect((await productCardsInOrder(t.db, [a]))[0].name).not.toBe("Renamed");
    for (const where of ["here", "elsewhere"] as const) {
      catalogChanged(where);
      const read = countingStatements(t.db);
      expect((await productCardsInOrder(read.db, [a]))[0].name).toBe("Renamed");
      expect(read.statements).toHaveLength(1);
    }
    // A read that began before a change keeps what it read out of the cards kept after it.
    const reading = productCardsInOrder(t.db, [b]);
    catalogChanged();
    await reading;
    const afterChange = countingStatements(t.db);
    await productCardsInOrder(afterChange.db, [b]);
    expect(afterChange.statements).toHaveLength(1);

    // Older than CARD_KEPT_MS: read again.
    const later = vi.spyOn(Date, "now").mockReturnValue(Date.now() + CARD_KEPT_MS + 1);
    const expired = countingStatements(t.db);
    await productCardsInOrder(expired.db, [b]);
    later.mockRestore();
    expect(expired.statements).toHaveLength(1);
    await t.db.updateTable("products").set({ name: "Perfume 3" }).where("id", "=", a).execute();
    catalogChanged();
  });
});

describe("catalogue change notifications", () => {
  it("calls every listener until it unsubscribes", () => {
    const listener = vi.fn();
    const stop = onCatalogChange(listener);
    catalogChanged();
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    catalogChanged();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("tells listeners whether the change was made here or announced by another instance", () => {
    const listener = vi.fn();
    const stop = onCatalogChange(listener);
    catalogChanged();
    catalogChanged("elsewhere");
    stop();
    expect(listener.mock.calls).toEqual([
      ["here", "anything"],
      ["elsewhere", "anything"],
    ]);
  });

  it("never fails its caller: a listener that throws on a narrow change is told of the whole one, one that fails at that too is logged, and the others are told", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const narrowFails = vi.fn((_where: string, scope: unknown) => {
      if (scope !== "anything") throw new Error("cannot forget these pages");
    });
    const alwaysFails = vi.fn(() => {
      throw new Error("broken");
    });
    const after = vi.fn();
    const stops = [onCatalogChange(narrowFails), onCatalogChange(alwaysFails), onCatalogChange(after)];
    try {
      expect(() => catalogChanged("here", { ordered: [12] })).not.toThrow();
      expect(narrowFails.mock.calls).toEqual([
        ["here", { ordered: [12] }],
        ["here", "anything"],
      ]);
      expect(alwaysFails).toHaveBeenCalledTimes(2);
      expect(after.mock.calls).toEqual([["here", { ordered: [12] }]]);
      expect(logged).toHaveBeenCalledTimes(1);
      expect(logged.mock.calls[0][1]).toEqual(new Error("broken"));

      expect(() => catalogChanged()).not.toThrow();
      expect(alwaysFails).toHaveBeenCalledTimes(3);
      expect(logged).toHaveBeenCalledTimes(2);
      expect(after).toHaveBeenCalledTimes(2);
    } finally {
      for (const stop of stops) stop();
      logged.mockRestore();
    }
  });
});
