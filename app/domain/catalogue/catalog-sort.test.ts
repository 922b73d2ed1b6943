import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_FILTERS, type ShopFilters, shopHref } from "~/lib/shop-url";
import { addBrand, addCategory, addProduct } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { listBrands, listCategories, listShopProducts, parseShopQuery } from "./catalog.server";

const filters = (change: Partial<ShopFilters>): ShopFilters => ({ ...NO_FILTERS, ...change });
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString();

describe.each(ENGINES)("sorting the shop on %s", (engine) => {
  let t: TestDatabase;
  const id: Record<string, number> = {};
  const names = async (change: Partial<ShopFilters>) => (await listShopProducts(t.db, filters(change))).products.map((p) => p.name);

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const category = (await addCategory(t.db, "Unisex")).id;
    const brand = (await addBrand(t.db, "Maison")).id;
    // name, price (kobo), discount (kobo), minute added
    const rows: [string, number, number | null][] = [
      ["Amber A", 5_000_000, null], // oldest
      ["Bergamot B", 2_000_000, 500_000], // 20 % off
      ["Cedar C", 9_000_000, 1_000_000], // 10 % off
      ["Dune D", 2_000_000, null],
      ["Elemi E", 1_000_000, 1_000_000], // 50 % off, newest
    ];
    for (const [i, [name, price, discount]] of rows.entries()) {
      id[name] = (await addProduct(t.db, { name, price, discount, brandId: brand, categoryId: category, createdAt: at(i) })).id;
    }
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("sorts newest first by default, and by price both ways (equal prices newest first)", async () => {
    expect(await names({})).toEqual(["Elemi E", "Dune D", "Cedar C", "Bergamot B", "Amber A"]);
    expect(await names({ sort: "newest" })).toEqual(["Elemi E", "Dune D", "Cedar C", "Bergamot B", "Amber A"]);
    expect(await names({ sort: "price-asc" })).toEqual(["Elemi E", "Dune D", "Bergamot B", "Amber A", "Cedar C"]);
    expect(await names({ sort: "price-desc" })).toEqual(["Cedar C", "Amber A", "Dune D", "Bergamot B", "Elemi E"]);
  });

  it("sorts by the share of the price taken off, undiscounted last", async () => {
    expect(await names({ sort: "discount" })).toEqual(["Elemi E", "Bergamot B", "Cedar C", "Dune D", "Amber A"]);
  });

  it("sorts best selling by units on orders that are not cancelled, kept up to date by the database", async () => {
    await insertOrder(t.db, { items: [{ productId: id["Amber A"], quantity: 3 }, { productId: id["Cedar C"], quantity: 1 }] });
    await insertOrder(t.db, { status: "delivered", items: [{ productId: id["Cedar C"], quantity: 1 }] });
    await insertOrder(t.db, { status: "cancelled", items: [{ productId: id["Dune D"], quantity: 9 }] });
    expect(await names({ sort: "best-selling" })).toEqual(["Amber A", "Cedar C", "Elemi E", "Dune D", "Bergamot B"]);
    const big = await insertOrder(t.db, { items: [{ productId: id["Bergamot B"], quantity: 5 }] });
    expect((await names({ sort: "best-selling" }))[0]).toBe("Bergamot B");
    // Cancelling gives the units back, once.
    await t.db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", big.id).execute();
    await t.db.updateTable("orders").set({ updated_at: at(99) }).where("id", "=", big.id).execute();
    const sold = await t.db.selectFrom("products").select(["name", "sold"]).orderBy("name").execute();
    expect(sold).toEqual([
      { name: "Amber A", sold: 3 },
      { name: "Bergamot B", sold: 0 },
      { name: "Cedar C", sold: 2 },
      { name: "Dune D", sold: 0 },
      { name: "Elemi E", sold: 0 },
    ]);
    expect(await names({ sort: "best-selling" })).toEqual(["Amber A", "Cedar C", "Elemi E", "Dune D", "Bergamot B"]);
  });

  it("keeps the order with filters, searches and pages; a search sorted by price is not split by relevance", async () => {
    expect(await names({ sort: "price-asc", min: 15_000, max: 60_000 })).toEqual(["Dune D", "Bergamot B", "Amber A"]);
    expect(await names({ q: "maison", sort: "price-desc" })).toEqual(["Cedar C", "Amber A", "Dune D", "Bergamot B", "Elemi E"]);
    expect(await names({ q: "e", sort: "price-asc" })).toEqual(["Elemi E", "Dune D", "Bergamot B", "Amber A", "Cedar C"]);
    for (let i = 0; i < 8; i++) await addProduct(t.db, { name: `Zest ${i}`, price: 100_000 * (i + 1), brandId: (await listBrands(t.db))[0].id, categoryId: (await listCategories(t.db))[0].id });
    const second = await listShopProducts(t.db, filters({ sort: "price-desc", page: 2 }));
    expect(second.products.map((p) => p.name)).toEqual(["Zest 4", "Zest 3", "Zest 2", "Zest 1", "Zest 0"]);
  });

  it("reads the order from the URL; anything unknown is the default, which stays out of links", async () => {
    const known = { categories: await listCategories(t.db), brands: await listBrands(t.db) };
    const parse = (text: string) => parseShopQuery(new URLSearchParams(text), known);
    expect(parse("sort=price-asc").sort).toBe("price-asc");
    expect(parse("sort=best-selling&sort=newest").sort).toBe("best-selling");
    for (const bad of ["sort=PRICE", "sort=", "sort=<script>", "sort=price-asc%00", `sort=${"x".repeat(5000)}`]) expect(parse(bad).sort, bad).toBeNull();
    expect(shopHref(filters({ sort: "price-asc" }))).toBe("/shop?sort=price-asc");
    expect(shopHref(filters({ sort: "newest" }))).toBe("/shop");
    expect(shopHref(filters({ q: "oud", sort: "newest" }))).toBe("/shop?q=oud&sort=newest");
    expect(shopHref(filters({ q: "oud", sort: "relevance" }))).toBe("/shop?q=oud");
    // Clearing the search leaves no "best match" behind.
    expect(shopHref(filters({ q: "oud", sort: "relevance" }), { q: "" })).toBe("/shop");
    expect(shopHref(filters({ sort: "discount", page: 3 }), { brand: 2 })).toBe("/shop?brand=2&sort=discount");
  });
});
