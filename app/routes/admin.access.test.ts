import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { solidImage, TEXT_NAMED_JPG } from "../../tests/support/images";
import { insertOrder } from "../../tests/support/orders";
import { createSession } from "~/http/session.server";
import * as layout from "./admin";
import * as dashboard from "./admin._index";
import * as audit from "./admin.audit";
import * as brands from "./admin.brands";
import * as categories from "./admin.categories";
import * as customerPage from "./admin.customers.$id";
import * as customers from "./admin.customers";
import * as order from "./admin.orders.$number";
import * as orders from "./admin.orders";
import * as products from "./admin.products";
import * as gallery from "./admin.products.$id.photos";
import * as photos from "./admin.products.photos";
import * as regions from "./admin.regions";

type Handler = (args: never) => Promise<unknown>;



const post = (url: string, body: BodyInit, cookies: string[] = [], headers: Record<string, string> = {}) =>
  browserRequest(url, { method: "POST", body, cookies, headers: { Origin: "http://shop.test", ...headers } });

const form = (fields: Record<string, string | Blob>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe.each(ENGINES)("admin routes on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let adminCookie: string;
  let customerCookie: string;
  let brandId: number;
  let categoryId: number;
  let productId: number;
  let orderNumber: string;
  let customerId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    const admin = await addUser(t.db, "owner");
    const customer = await addUser(t.db, "customer");
    customerId = customer.id;
    adminCookie = await createSession(context, admin.id);
    customerCookie = await createSession(context, customer.id);
    brandId = (await addBrand(t.db, "Dior")).id;
    categoryId = (await addCategory(t.db, "Men")).id;
    productId = (await addProduct(t.db, { brandId, categoryId, name: "Sauvage", stock: 5 })).id;
    orderNumber = (await insertOrder(t.db, { userId: customer.id, items: [{ productId, quantity: 1 }] })).number;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const loaders = (): [string, Handler, string, Record<string, string>?][] => [
    ["layout", layout.loader, "/admin"],
    ["dashboard", dashboard.loader, "/admin"],
    ["products", products.loader, "/admin/products?edit=1&new=1"],
    ["categories", categories.loader, "/admin/categories"],
    ["brands", brands.loader, "/admin/brands"],
    ["regions", regions.loader, "/admin/regions"],
    ["orders", orders.loader, "/admin/orders?status=pending"],
    ["order", order.loader, `/admin/orders/${orderNumber}`, { number: orderNumber }],
    ["audit", audit.loader, "/admin/audit"],
    ["photos", photos.loader, "/admin/products/photos"],
    ["gallery", gallery.loader, `/admin/products/${productId}/photos`, { id: String(productId) }],
    ["customers", customers.loader, "/admin/customers?q=chi"],
    ["customer", customerPage.loader, `/admin/customers/${customerId}`, { id: String(customerId) }],
  ];

  // Each action gets the most damaging request we can think of for it.
  const actions = (): [string, Handler, string, () => BodyInit, Record<string, string>?][] => [
    ["products delete", products.action, "/admin/products", () => form({ intent: "delete", id: String(productId) })],
    ["products update", products.action, "/admin/products", () => form({ intent: "update", id: String(productId), price: "1" })],
    ["products create", products.action, "/admin/products", () => form({ intent: "create", name: "Fake" })],
    ["categories delete", categories.action, "/admin/categories", () => form({ intent: "delete", id: String(categoryId) })],
    ["categories create", categories.action, "/admin/categories", () => form({ intent: "create", name: "Hacked" })],
    ["brands rename", brands.action, "/admin/brands", () => form({ intent: "rename", id: String(brandId), name: "Hacked" })],
    ["photo import", photos.action, "/admin/products/photos", () => form({ zip: new Blob([new Uint8Array([0x50, 0x4b, 3, 4])], { type: "application/zip" }) })],
    ["gallery delete", gallery.action, `/admin/products/${productId}/photos`, () => form({ intent: "delete", photoId: "1" }), { id: String(productId) }],
    ["gallery add", gallery.action, `/admin/products/${productId}/photos`, () => form({ intent: "add", photo: new Blob([new Uint8Array(10)], { type: "image/jpeg" }) }), { id: String(productId) }],
    ["customer role", customerPage.action, `/admin/customers/${customerId}`, () => form({ intent: "role", role: "owner" }), { id: String(customerId) }],
    ["order status", order.action, `/admin/orders/${orderNumber}`, () => form({ from: "pending", to: "cancelled" }), { number: orderNumber }],
  ];

  it("sends signed-out visitors to sign in (and back) from every admin loader", async () => {
    for (const [name, loader, url, params] of loaders()) {
      const outcome = await run(loader, browserRequest(url), context, params);
      expect(outcome.status, name).toBe(302);
      expect(outcome.location, name).toBe(`/auth?redirectTo=${encodeURIComponent(url)}`);
    }
  });

  it("refuses customers every admin loader with 403", async () => {
    for (const [name, loader, url, params] of loaders()) {
      const outcome = await run(loader, browserRequest(url, { cookies: [customerCookie] }), context, params);
      expect(outcome.status, name).toBe(403);
    }
  });

  it("refuses every admin action to customers (403) and signed-out visitors (sign in), changing nothing", async () => {
    const snapshot = async () => ({
      product: await t.db.selectFrom("products").select(["id", "price", "archived_at", "image"]).where("id", "=", productId).executeTakeFirst(),
      products: (await t.db.selectFrom("products").select("id").execute()).length,
      category: await t.db.selectFrom("categories").select("name").where("id", "=", categoryId).executeTakeFirst(),
      categories: (await t.db.selectFrom("categories").select("id").execute()).length,
      brand: await t.db.selectFrom("brands").select("name").where("id", "=", brandId).executeTakeFirst(),
      order: await t.db.selectFrom("orders").select("status").where("number", "=", orderNumber).executeTakeFirst(),
      audit: (await t.db.selectFrom("audit_log").select("id").execute()).length,
      roles: await t.db.selectFrom("users").select(["id", "role"]).orderBy("id").execute(),
    });
    const before = await snapshot();
    for (const [name, action, url, body, params] of actions()) {
      const asCustomer = await run(action, post(url, body(), [customerCookie]), context, params);
      expect(asCustomer.status, name).toBe(403);
      const anonymous = await run(action, post(url, body()), context, params);
      expect(anonymous.status, name).toBe(302);
      expect(anonymous.location, name).toMatch(/^\/auth\?redirectTo=/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers a customer's 50 MB upload with 403 without reading it", async () => {
    const request = post("/admin/products", new Uint8Array(50 * 1024 * 1024), [customerCookie], { "Content-Type": "multipart/form-data; boundary=x" });
    expect((await run(products.action, request, context)).status).toBe(403);
    expect(request.bodyUsed).toBe(false);
  });

  it("lets an admin in everywhere, and /admin/regions leads to the brands", async () => {
    for (const [name, loader, url, params] of loaders()) {
      const outcome = await run(loader, browserRequest(url, { cookies: [adminCookie] }), context, params);
      if (name === "regions") {
        expect(outcome.status).toBe(302);
        expect(outcome.location).toBe("/admin/brands");
      } else {
        expect(outcome.status, name).toBe(200);
      }
    }
    const missing = await run(order.loader, browserRequest("/admin/orders/UB-1", { cookies: [adminCookie] }), context, { number: "UB-1" });
    expect(missing.status).toBe(404);
  });

  it("refuses a 50 MB upload with a clear message before reading it, by its declared length", async () => {
    const body = new FormData();
    body.set("intent", "create");
    body.set("image", new File([new Uint8Array(50 * 1024 * 1024)], "photo.png", { type: "image/png" }));
    const encoded = new Request("http://shop.test/", { method: "POST", body });
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const request = post("/admin/products", bytes, [adminCookie], {
      "Content-Type": encoded.headers.get("Content-Type")!,
      "Content-Length": String(bytes.byteLength),
    });
    const outcome = await run(products.action, request, context);
    expect(outcome.status).toBe(413);
    expect(outcome.body).toMatchObject({ errors: { image: "admin.products.errors.imageSize" } });
  });

  it("creates a product through the form, and refuses text named photo.jpg with a 400 and a message", async () => {
    const fields = { intent: "create", brandId: String(brandId), categoryId: String(categoryId), name: "Fahrenheit", price: "120000", discount: "", stock: "4", description: "Leather and violet." };
    const refused = await run(products.action, post("/admin/products", form({ ...fields, image: new File([new Uint8Array(TEXT_NAMED_JPG)], "photo.jpg", { type: "image/jpeg" }) }), [adminCookie]), context);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: { image: "admin.products.errors.imageType" }, values: { name: "Fahrenheit", price: "120000" } });
    expect(await t.db.selectFrom("products").select("id").where("name", "=", "Fahrenheit").executeTakeFirst()).toBeUndefined();

    const png = await solidImage("png");
    const created = await run(products.action, post("/admin/products", form({ ...fields, image: new File([new Uint8Array(png)], "bottle.png", { type: "image/png" }) }), [adminCookie]), context);
    expect(created.status).toBe(303);
    expect(created.location).toBe("/admin/products");
    expect(await t.db.selectFrom("products").select("price").where("name", "=", "Fahrenheit").executeTakeFirst()).toEqual({ price: 12_000_000 });
  });

  it("refuses to delete a category still in use, with an error toast", async () => {
    const outcome = await run(categories.action, post("/admin/categories", form({ intent: "delete", id: String(categoryId) }), [adminCookie]), context);
    expect(outcome.status).toBe(303);
    expect(await t.db.selectFrom("categories").select("id").where("id", "=", categoryId).executeTakeFirst()).toBeDefined();
    const created = await run(categories.action, post("/admin/categories", form({ intent: "create", name: "" }), [adminCookie]), context);
    expect(created).toMatchObject({ status: 400, body: { errors: { name: "admin.categories.errors.name" } } });
    const brand = await run(brands.action, post("/admin/brands", form({ intent: "create", name: " " }), [adminCookie]), context);
    expect(brand).toMatchObject({ status: 400, body: { errors: { name: "admin.brands.errors.name" } } });
  });
});
