import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser, firstSizeOf } from "../../../tests/support/catalogue";
import { browserRequest, runRoute, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import * as sizesRoute from "~/routes/admin.products.$id.sizes";
import { parseSizesForm, saveSizes, type SizeRowInput } from "./admin-sizes.server";
import { createOrderFromLines } from "../orders/orders.server";
import { listSizes } from "./product-sizes.server";
import { createSession } from "~/http/session.server";

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe("reading the sizes form", () => {
  it("reads rows in order, skips the blank new row, and turns naira into kobo", () => {
    const parsed = parseSizesForm(form({ "id-0": "7", "label-0": "50 ml", "ml-0": "50", "sku-0": "sv-50", "price-0": "65,000", "discount-0": "5000", "label-1": "", "price-1": "" }));
    expect(parsed.formError).toBeNull();
    expect(parsed.rows).toEqual([{ id: 7, label: "50 ml", ml: 50, sku: "SV-50", price: 6_500_000, discount: 500_000, remove: false }]);
  });

  it("refuses a negative price, two sizes with one label, a bad SKU, a discount above the price and a bad ml, row by row", () => {
    const parsed = parseSizesForm(
      form({
        "label-0": "50 ml", "price-0": "-100",
        "label-1": "50 ML", "price-1": "1000", "sku-1": "no spaces!",
        "label-2": "100 ml", "price-2": "1000", "discount-2": "1000", "ml-2": "abc",
        "label-3": "", "price-3": "100",
      }),
    );
    expect(parsed.rows).toBeNull();
    expect(parsed.errors).toEqual([
      { price: "admin.products.errors.priceMin" },
      { label: "admin.sizes.errors.labelDuplicate", sku: "admin.sizes.errors.sku" },
      { ml: "admin.sizes.errors.ml", discount: "admin.products.errors.discountTooHigh" },
      { label: "admin.sizes.errors.label" },
    ]);
  });

  it("needs at least one size left, and reads a made-up id as a bad form", () => {
    expect(parseSizesForm(form({ "id-0": "3", "label-0": "50 ml", "price-0": "100", "remove-0": "on" })).formError).toBe("admin.sizes.errors.atLeastOne");
    expect(parseSizesForm(form({ "id-0": "abc", "label-0": "50 ml", "price-0": "100" })).formError).toBe("admin.sizes.errors.badRequest");
  });
});

describe.each(ENGINES)("saving sizes on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let brandId: number;
  let categoryId: number;
  let adminId: number;
  let adminCookie: string;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    brandId = (await addBrand(t.db)).id;
    categoryId = (await addCategory(t.db)).id;
    adminId = (await addUser(t.db, "owner")).id;
    adminCookie = await createSession(context, adminId);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const summary = (id: number) => t.db.selectFrom("products").select(["price", "discount", "price_max", "stock"]).where("id", "=", id).executeTakeFirstOrThrow();
  const row = (r: Partial<SizeRowInput> & { label: string; price: number }): SizeRowInput => ({ id: null, ml: null, sku: null, discount: null, remove: false, ...r });

  it("renames the first size and adds another: the product's figures follow, with an audit entry", async () => {
    const { id } = await addProduct(t.db, { brandId, categoryId, name: "Sauvage", price: 6_500_000, stock: 4 });
    const [first] = await listSizes(t.db, id);
    const result = await saveSizes(t.db, id, [row({ id: first.id, label: "50 ml", ml: 50, sku: `SV50-${engine}`, price: 6_500_000 }), row({ label: "100 ml", ml: 100, price: 9_800_000, discount: 800_000 })], adminId);
    expect(result).toEqual({ ok: true, name: "Sauvage", changed: true });
    const sizes = await listSizes(t.db, id);
    expect(sizes.map((s) => [s.label, s.ml, s.sku, s.price, s.discount, s.stock, s.position])).toEqual([
      ["50 ml", 50, `SV50-${engine}`, 6_500_000, null, 4, 0],
      ["100 ml", 100, null, 9_800_000, 800_000, 0, 1],
    ]);
    expect(await summary(id)).toEqual({ price: 6_500_000, discount: null, price_max: 9_800_000, stock: 4 });
    const audit = await t.db.selectFrom("audit_log").select(["summary", "changes"]).where("entity_id", "=", id).where("entity", "=", "product").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit.summary).toBe("Sauvage");
    expect(JSON.parse(audit.changes!).sizes[1]).toContain("100 ml ₦98,000.00 (-₦8,000.00)");

    // Saving the same again changes nothing; two labels may trade places.
    expect(await saveSizes(t.db, id, sizes.map((s) => row({ id: s.id, label: s.label, ml: s.ml, sku: s.sku, price: s.price, discount: s.discount })), adminId)).toMatchObject({ changed: false });
    expect(await saveSizes(t.db, id, [row({ id: sizes[0].id, label: "100 ml", price: 1_000 }), row({ id: sizes[1].id, label: "50 ml", price: 2_000 })], adminId)).toMatchObject({ ok: true, changed: true });
    expect((await listSizes(t.db, id)).map((s) => [s.id, s.label])).toEqual([
      [sizes[0].id, "100 ml"],
      [sizes[1].id, "50 ml"],
    ]);
  });

  it("refuses a SKU another perfume uses, and removing a size with stock or in an open order; writes nothing", async () => {
    const other = await addProduct(t.db, { brandId, categoryId, name: "Other" });
    await t.db.updateTable("product_sizes").set({ sku: `TAKEN-${engine}` }).where("product_id", "=", other.id).execute();
    const { id } = await addProduct(t.db, { brandId, categoryId, name: "Oud", price: 5_000_000, stock: 2 });
    const [first] = await listSizes(t.db, id);
    await saveSizes(t.db, id, [row({ id: first.id, label: "50 ml", price: 5_000_000 }), row({ label: "100 ml", price: 8_000_000 })], adminId);
    const [s50, s100] = await listSizes(t.db, id);

    expect(await saveSizes(t.db, id, [row({ id: s50.id, label: "50 ml", price: 5_000_000, sku: `TAKEN-${engine}` }), row({ id: s100.id, label: "100 ml", price: 8_000_000 })], adminId)).toEqual({
      ok: false,
      formError: null,
      errors: [{ sku: "admin.sizes.errors.skuTaken" }, {}],
    });
    expect(await saveSizes(t.db, id, [row({ id: s50.id, label: "50 ml", price: 5_000_000, remove: true }), row({ id: s100.id, label: "100 ml", price: 1 })], adminId)).toEqual({
      ok: false,
      formError: null,
      errors: [{ remove: "admin.sizes.errors.removeStock" }, {}],
    });
    // The 100 ml size has no stock, but a pending order holds one (taken before its stock ran out).
    await t.db.updateTable("product_sizes").set({ stock: 1 }).where("id", "=", s100.id).execute();
    await createOrderFromLines(t.db, { channel: "checkout", userId: null, takeFromStock: true, lines: [{ productId: id, sizeId: s100.id, quantity: 1 }] });
    expect(await saveSizes(t.db, id, [row({ id: s50.id, label: "50 ml", price: 5_000_000 }), row({ id: s100.id, label: "100 ml", price: 8_000_000, remove: true })], adminId)).toMatchObject({
      errors: [{}, { remove: "admin.sizes.errors.removeOrdered" }],
    });
    expect((await listSizes(t.db, id)).map((s) => [s.label, s.price, s.sku])).toEqual([
      ["50 ml", 5_000_000, null],
      ["100 ml", 8_000_000, null],
    ]);
  });

  it("removes an empty size; the shoppers' cart lines of it go with it", async () => {
    const { id } = await addProduct(t.db, { brandId, categoryId, name: "Bleu", price: 5_000_000, stock: 2 });
    const [first] = await listSizes(t.db, id);
    await saveSizes(t.db, id, [row({ id: first.id, label: "50 ml", price: 5_000_000 }), row({ label: "100 ml", price: 8_000_000 })], adminId);
    const [, s100] = await listSizes(t.db, id);
    const at = new Date().toISOString();
    await t.db.insertInto("carts").values({ id: `sizes-cart-${engine}-${"x".repeat(20)}`, user_id: null, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: `sizes-cart-${engine}-${"x".repeat(20)}`, product_id: id, size_id: s100.id, quantity: 1, created_at: at }).execute();
    expect(await saveSizes(t.db, id, [row({ id: first.id, label: "50 ml", price: 5_000_000 }), row({ id: s100.id, label: "100 ml", price: 8_000_000, remove: true })], adminId)).toMatchObject({ ok: true });
    expect((await listSizes(t.db, id)).map((s) => s.label)).toEqual(["50 ml"]);
    expect(await t.db.selectFrom("cart_lines").select("size_id").where("product_id", "=", id).execute()).toEqual([]);
    expect(await summary(id)).toEqual({ price: 5_000_000, discount: null, price_max: 5_000_000, stock: 2 });
    expect(firstSizeOf(id)).toBeTruthy();
  });

  it("answers a bad form with 400 and the messages in the owner's language, and saves a good one", async () => {
    const { id } = await addProduct(t.db, { brandId, categoryId, name: "Libre", price: 5_000_000, stock: 1 });
    const [first] = await listSizes(t.db, id);
    const post = (fields: Record<string, string>) =>
      browserRequest(`/admin/products/${id}/sizes`, { method: "POST", body: form(fields), cookies: [adminCookie], headers: { Origin: "http://shop.test", "Accept-Language": "es" } });
    const bad = await runRoute(sizesRoute.action, post({ "id-0": String(first.id), "label-0": "30 ml", "price-0": "50000", "label-1": "30 ml", "price-1": "-5" }), context, { id: String(id) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: [{}, { label: "admin.sizes.errors.labelDuplicate", price: "admin.products.errors.priceMin" }] });
    expect((await listSizes(t.db, id)).map((s) => s.label)).toEqual(["Standard"]);
    const good = await runRoute(sizesRoute.action, post({ "id-0": String(first.id), "label-0": "30 ml", "price-0": "50000", "label-1": "90 ml", "price-1": "90000" }), context, { id: String(id) });
    expect(good.status).toBe(303);
    expect(good.location).toBe(`/admin/products/${id}/sizes`);
    expect((await listSizes(t.db, id)).map((s) => [s.label, s.price])).toEqual([
      ["30 ml", 5_000_000],
      ["90 ml", 9_000_000],
    ]);
    // A customer cannot.
    const customer = await createSession(context, (await addUser(t.db, "customer")).id);
    const refused = await runRoute(sizesRoute.action, browserRequest(`/admin/products/${id}/sizes`, { method: "POST", body: form({ "label-0": "x", "price-0": "1" }), cookies: [customer], headers: { Origin: "http://shop.test" } }), context, { id: String(id) });
    expect([403, 404, 302, 303]).toContain(refused.status);
    expect((await listSizes(t.db, id))).toHaveLength(2);
  });
});
