import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { countingStatements } from "../../../tests/support/statements";
import { productDetail, relatedProducts } from "./catalog.server";
import { productPage } from "./product-page.server";
import { productGallery } from "./product-photos.server";
import { BOUGHT_TOGETHER_TTL_MS, boughtTogether } from "./recommendations.server";

describe.each(ENGINES)("a product page's catalogue data on %s", (engine) => {
  let t: TestDatabase;
  const ids: number[] = [];
  let other: number;
  let archived: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const [brand, category, elsewhere] = await Promise.all([addBrand(t.db), addCategory(t.db), addCategory(t.db)]);
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();
    // Eight in one category; two share a date, so the tie falls to the higher id.
    for (const minute of [1, 2, 3, 3, 4, 5, 6, 7]) ids.push((await addProduct(t.db, { brandId: brand.id, categoryId: category.id, createdAt: at(minute) })).id);
    other = (await addProduct(t.db, { brandId: brand.id, categoryId: elsewhere.id, createdAt: at(9) })).id;
    archived = (await addProduct(t.db, { brandId: brand.id, categoryId: category.id, createdAt: at(8), archived: true })).id;
    // A gallery written out of order, and a card image on a product without gallery rows.
    await t.db
      .insertInto("product_photos")
      .values([3, 1, 2].map((position) => ({ product_id: ids[0], image: `${"a".repeat(19)}${position}`, alt: position === 2 ? null : `Photo ${position}`, position, created_at: at(0) })))
      .execute();
    await t.db.updateTable("products").set({ image: "b".repeat(20) }).where("id", "=", ids[1]).execute();
    await t.db.updateTable("categories").set({ name_es: "Hombre" }).where("id", "=", category.id).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("reads in one statement what the product, related, gallery and order reads give", async () => {
    for (const [id, locale] of [[ids[0], "en"], [ids[1], "es"], [ids[7], "en"], [other, "es"]] as const) {
      const counted = countingStatements(t.db);
      const page = await productPage(counted.db, id, locale);
      expect(counted.statements).toHaveLength(1);
      const product = (await productDetail(t.db, id, locale))!;
      // Field for field, in the same order, as the separate reads give them.
      expect(JSON.stringify(page)).toBe(
        JSON.stringify({ product, related: await relatedProducts(t.db, product), photos: await productGallery(t.db, id, product.image), someOrders: 0 }),
      );
    }
    const first = (await productPage(t.db, ids[0], "en"))!;
    expect(first.photos.map((p) => p.alt)).toEqual(["Photo 1", null, "Photo 3"]);
    // Five, newest first, the archived one left out, the tie (minute 3) to the higher id.
    expect(first.related.map((p) => p.id)).toEqual([ids[7], ids[6], ids[5], ids[4], ids[3]]);
    expect((await productPage(t.db, ids[1], "es"))!.product.categoryName).toBe("Hombre");
    expect((await productPage(t.db, ids[1], "en"))!.photos).toEqual([{ key: "b".repeat(20), alt: null }]);
    expect((await productPage(t.db, other, "en"))!.related).toEqual([]);
  });

  it("is null for a product not on sale", async () => {
    expect(await productPage(t.db, archived, "en")).toBeNull();
    expect(await productPage(t.db, 999_999, "en")).toBeNull();
  });

  it("counts the product's orders up to two, and 'often bought together' then asks nothing more of a product in fewer", async () => {
    const order = (productIds: number[]) => insertOrder(t.db, { status: "confirmed", channel: "whatsapp", items: productIds.map((productId) => ({ productId, quantity: 1 })) });
    await order([ids[2], ids[3]]);
    expect((await productPage(t.db, ids[2], "en"))!.someOrders).toBe(1);
    const counted = countingStatements(t.db);
    expect(await boughtTogether(counted.db, ids[2], Date.now(), 1)).toEqual([]);
    expect(counted.statements).toHaveLength(0);
    await order([ids[2], ids[3]]);
    await order([ids[2], ids[3]]);
    const page = (await productPage(t.db, ids[2], "en"))!;
    expect(page.someOrders).toBe(2);
    // (past the answer kept from the first call)
    expect((await boughtTogether(t.db, ids[2], Date.now() + 2 * BOUGHT_TOGETHER_TTL_MS, page.someOrders)).map((c) => c.id)).toEqual([ids[3]]);
  });
});
