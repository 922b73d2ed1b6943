import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addUser } from "../../tests/support/catalogue";
import { browserRequest, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { createSession } from "~/http/session.server";
import { CATALOGUE_COLUMNS } from "~/domain/catalogue/catalogue-csv.server";
import { bodyLimitFor, FORM_BODY_LIMIT, IMPORT_BODY_LIMIT } from "~/http/body-limit.server";
import { insertOrder } from "../../tests/support/orders";
import { addProduct } from "../../tests/support/catalogue";
import * as customerInvoice from "./account.invoice";
import * as adminInvoice from "./admin.invoice";
import * as ordersExport from "./admin.orders.export";
import * as productsExport from "./admin.products.export";
import * as productsImport from "./admin.products.import";

type Handler = (args: never) => Promise<unknown>;
interface Outcome {
  status: number;
  location: string | null;
  body: unknown;
  response: Response | null;
}

async function run(handler: Handler, request: Request, context: AppLoadContext, params: Record<string, string> = {}): Promise<Outcome> {
  let value: unknown;
  try {
    value = await handler({ request, context, params } as never);
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, location: value.headers.get("Location"), body: null, response: value };
  const wrapped = value as { type?: string; data?: unknown; init?: ResponseInit | null };
  if (wrapped && wrapped.type === "DataWithResponseInit") {
    return { status: wrapped.init?.status ?? 200, location: new Headers(wrapped.init?.headers).get("Location"), body: wrapped.data, response: null };
  }
  return { status: 200, location: null, body: value, response: null };
}

const post = (url: string, body: BodyInit, cookies: string[] = [], headers: Record<string, string> = {}) =>
  browserRequest(url, { method: "POST", body, cookies, headers: { Origin: "http://shop.test", ...headers } });

const upload = (text: string, extra: Record<string, string> = {}) => {
  const f = new FormData();
  f.set("intent", "preview");
  f.set("file", new File([text], "products.csv", { type: "text/csv" }));
  for (const [k, v] of Object.entries(extra)) f.set(k, v);
  return f;
};

describe.each(ENGINES)("back-office routes on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let adminCookie: string;
  let customerCookie: string;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    adminCookie = await createSession(context, (await addUser(t.db, "owner")).id);
    customerCookie = await createSession(context, (await addUser(t.db, "customer")).id);
    await addBrand(t.db, "Dior");
    await addCategory(t.db, "Men");
  });
  afterAll(async () => {
    await t?.drop();
  });

  const loaders: [string, Handler, string][] = [
    ["import", productsImport.loader, "/admin/products/import"],
    ["products export", productsExport.loader, "/admin/products/export"],
    ["orders export", ordersExport.loader, "/admin/orders/export?from=2026-01-01"],
  ];

  it("keeps every back-office screen and download to admins", async () => {
    for (const [name, loader, url] of loaders) {
      const anonymous = await run(loader, browserRequest(url), context);
      expect(anonymous.status, name).toBe(302);
      expect((await run(loader, browserRequest(url, { cookies: [customerCookie] }), context)).status, name).toBe(403);
      expect((await run(loader, browserRequest(url, { cookies: [adminCookie] }), context)).status, name).toBe(200);
    }
    const line = `${CATALOGUE_COLUMNS.join(",")}\nHacked,hacked,Dior,Men,1,,1,d,active\n`;
    expect((await run(productsImport.action, post("/admin/products/import", upload(line), [customerCookie]), context)).status).toBe(403);
    expect(await t.db.selectFrom("catalogue_imports").select("id").execute()).toEqual([]);
  });

  it("sends the catalogue and the orders as CSV downloads", async () => {
    const products = await run(productsExport.loader, browserRequest("/admin/products/export", { cookies: [adminCookie] }), context);
    expect(products.response!.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(products.response!.headers.get("Content-Disposition")).toMatch(/^attachment; filename="unboxed-products-\d{4}-\d{2}-\d{2}\.csv"$/);
    // The bytes start with the UTF-8 byte-order mark (Response.text() would hide it).
    const bytes = Buffer.from(await products.response!.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.subarray(3).toString("utf8")).toBe(CATALOGUE_COLUMNS.join(",") + "\r\n");
    const orders = await run(ordersExport.loader, browserRequest("/admin/orders/export?from=2026-01-01&status=pending", { cookies: [adminCookie] }), context);
    expect(orders.response!.headers.get("Content-Disposition")).toBe('attachment; filename="unboxed-orders-from-2026-01-01-pending.csv"');
  });

  it("answers bad export filters with 400 and a message in the admin's language", async () => {
    const outcome = await run(ordersExport.loader, browserRequest("/admin/orders/export?from=soon&lng=es", { cookies: [adminCookie] }), context);
    expect(outcome.status).toBe(400);
    expect(await outcome.response!.text()).toBe("La fecha de inicio debe ser una fecha como 2026-11-01.");
  });

  it("checks a file, shows its problems with 400, then imports the corrected file on confirmation", async () => {
    const none = await run(productsImport.action, post("/admin/products/import", (() => { const f = new FormData(); f.set("intent", "preview"); return f; })(), [adminCookie]), context);
    expect(none).toMatchObject({ status: 400, body: { problem: { key: "admin.catalogueImport.errors.noFile" } } });

    const header = CATALOGUE_COLUMNS.join(",");
    const bad = await run(productsImport.action, post("/admin/products/import", upload(`${header}\nSauvage,sauvage,Dior,Men,-1,,3,Fresh,active\n`), [adminCookie]), context);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ id: null, plan: { problemCount: 1, problems: [{ row: 2, column: "price", key: "admin.products.errors.priceMin" }] } });

    const good = await run(productsImport.action, post("/admin/products/import", upload(`${header}\nSauvage,sauvage,Dior,Men,65000,,3,Fresh,active\n`), [adminCookie]), context);
    expect(good.status).toBe(200);
    const id = (good.body as { id: string }).id;
    expect(id).toMatch(/^[\w-]{20,}$/);
    expect(await t.db.selectFrom("products").select("id").where("slug", "=", "sauvage").executeTakeFirst()).toBeUndefined();

    const confirm = new FormData();
    confirm.set("intent", "confirm");
    confirm.set("id", id);
    const done = await run(productsImport.action, post("/admin/products/import", confirm, [adminCookie]), context);
    expect(done).toMatchObject({ status: 303, location: "/admin/products" });
    expect(await t.db.selectFrom("products").select("price").where("slug", "=", "sauvage").executeTakeFirst()).toEqual({ price: 6_500_000 });
    const again = await run(productsImport.action, post("/admin/products/import", confirm, [adminCookie]), context);
    expect(again).toMatchObject({ status: 303, location: "/admin/products/import" });
  });

  it("lets only a multipart post to the import carry a file of up to 20 MB", () => {
    expect(bodyLimitFor("/admin/products/import", "multipart/form-data; boundary=x")).toBe(IMPORT_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/import.data", "multipart/form-data; boundary=x")).toBe(IMPORT_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/import", "application/x-www-form-urlencoded")).toBe(FORM_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/import/x", "multipart/form-data; boundary=x")).toBe(FORM_BODY_LIMIT);
    expect(IMPORT_BODY_LIMIT).toBeGreaterThan(20 * 1024 * 1024);
  });

  it("prints an order's invoice for the admin and for its own customer only", async () => {
    const owner = await addUser(t.db, "customer");
    const ownerCookie = await createSession(context, owner.id);
    const brand = await addBrand(t.db);
    const category = await addCategory(t.db);
    const product = await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Invoice Oud" });
    const { number } = await insertOrder(t.db, { userId: owner.id, items: [{ productId: product.id, quantity: 2 }] });
    const adminUrl = `/admin/orders/${number}/print?doc=slip`;
    expect((await run(adminInvoice.loader, browserRequest(adminUrl), context, { number })).status).toBe(302);
    expect((await run(adminInvoice.loader, browserRequest(adminUrl, { cookies: [ownerCookie] }), context, { number })).status).toBe(403);
    const asAdmin = await run(adminInvoice.loader, browserRequest(adminUrl, { cookies: [adminCookie] }), context, { number });
    expect(asAdmin).toMatchObject({ status: 200, body: { kind: "slip", paper: "a4", invoice: { number, items: [{ name: "Invoice Oud", quantity: 2 }] } } });
    expect((await run(adminInvoice.loader, browserRequest("/admin/orders/UB-0/print", { cookies: [adminCookie] }), context, { number: "UB-0" })).status).toBe(404);

    const url = `/orders/${number}/invoice?paper=receipt`;
    expect((await run(customerInvoice.loader, browserRequest(url, { cookies: [ownerCookie] }), context, { number }))).toMatchObject({ status: 200, body: { paper: "receipt", invoice: { number } } });
    expect((await run(customerInvoice.loader, browserRequest(url, { cookies: [customerCookie] }), context, { number })).status).toBe(404);
    expect((await run(customerInvoice.loader, browserRequest(url), context, { number })).status).toBe(302);
  });

  it("lets only a multipart post to the import carry a file of up to 20 MB", () => {
    expect(bodyLimitFor("/admin/products/import", "multipart/form-data; boundary=x")).toBe(IMPORT_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/import.data", "multipart/form-data; boundary=x")).toBe(IMPORT_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/import", "application/x-www-form-urlencoded")).toBe(FORM_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/import/x", "multipart/form-data; boundary=x")).toBe(FORM_BODY_LIMIT);
    expect(IMPORT_BODY_LIMIT).toBeGreaterThan(20 * 1024 * 1024);
  });

  it("refuses a file above 20 MB by its declared length with 413", async () => {
    const request = post("/admin/products/import", new Uint8Array(10), [adminCookie], {
      "Content-Type": "multipart/form-data; boundary=x",
      "Content-Length": String(25 * 1024 * 1024),
    });
    const outcome = await run(productsImport.action, request, context);
    expect(outcome).toMatchObject({ status: 413, body: { problem: { key: "admin.catalogueImport.errors.tooLarge", values: { mb: 20 } } } });
  });
});
