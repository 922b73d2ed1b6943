import { expect, type Page, test } from "@playwright/test";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import type { DatabaseHandle } from "~/db/client.server";
import { createAdmin, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";
import { hydrated } from "./support";

// Every action reads its body through one guarded form reader (app/http/form.server.ts): a body that
// is not a form is a 400 with a message, a body over the limit a 413 (counted as it arrives), on the
// built server, for every route that has an action, in its document, `.data` and `?index` forms.

let shop: DatabaseHandle;
let admin: { userId: number; token: string };
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `forms-${stamp}@unboxed.example`, "Ada", "Forms");
});
test.afterAll(async ({ playwright, baseURL }) => {
  if (shop && admin) {
    // Products made here are removed through the admin screen, so the server hears of it.
    const ours = await shop.db.selectFrom("products").select("id").where("name", "like", `%${stamp}%`).where("archived_at", "is", null).execute();
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: `ub_session=${admin.token}`, Origin: baseURL! } });
    for (const { id } of ours) {
      const response = await request.post("/admin/products", { form: { intent: "delete", id: String(id) }, maxRedirects: 0 });
      expect(response.status()).toBe(303);
    }
    await request.dispose();
  }
  await shop?.close();
});

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: { action?: unknown };
}

/** Every route of the built server that has an action, with its full path (from the route manifest). */
async function actionRoutes(): Promise<{ id: string; path: string; index: boolean }[]> {
  const build = (await import(path.resolve("build/server/index.js"))) as { routes: Record<string, ManifestRoute> };
  const fullPath = (route: ManifestRoute): string => {
    const parent = route.parentId ? build.routes[route.parentId] : undefined;
    const own = route.path ?? "";
    const base = parent ? fullPath(parent) : "";
    return own ? `${base.replace(/\/$/, "")}/${own}` : base || "/";
  };
  return (
    Object.values(build.routes)
      .filter((route) => typeof route.module.action === "function")
      .map((route) => ({ id: route.id, path: fullPath(route), index: Boolean(route.index) }))
      // The providers' webhooks (Paystack, WhatsApp, Termii) take JSON by design and refuse anything
      // unsigned (401): tested in their domain tests and tests/e2e/paystack.spec.ts, messages.spec.ts.
      .filter((route) => !route.path.startsWith("/webhooks/"))
  );
}

interface RawAnswer {
  /** 0 when the connection failed before an answer came */
  status: number;
  body: string;
}

/**
 * A POST sent exactly as given (no header added): the body is written in chunks, with no
 * Content-Length unless one is given, so it arrives chunked. The answer may come before the body is
 * all sent (a refused upload); the connection is then dropped.
 */
function rawPost(url: string, headers: Record<string, string>, chunks: Buffer[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers, agent: false }, (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") });
        request.destroy();
      });
      response.on("error", reject);
    });
    request.on("error", (error) => resolve({ status: 0, body: String(error) }));
    let i = 0;
    const writeNext = () => {
      if (request.destroyed) return;
      if (i >= chunks.length) return void request.end();
      const ok = request.write(chunks[i++]);
      if (ok) setImmediate(writeNext);
      else request.once("drain", writeNext);
    };
    writeNext();
  });
}

const FORM_LIMIT = 256 * 1024;

/** The bad bodies every action must refuse: [name, headers, body chunks, expected status]. */
function badBodies(): [string, Record<string, string>, Buffer[], number][] {
  const form = "application/x-www-form-urlencoded";
  return [
    ["JSON", { "Content-Type": "application/json" }, [Buffer.from('{"intent":"add","productId":1,"email":"a@b.c"}')], 400],
    ["text/plain", { "Content-Type": "text/plain" }, [Buffer.from("intent=add\nproductId=1")], 400],
    ["no Content-Type", {}, [Buffer.from("intent=add&productId=1")], 400],
    ["broken multipart", { "Content-Type": "multipart/form-data; boundary=----b" }, [Buffer.from('------b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nadd')], 400],
    ["multipart with no boundary", { "Content-Type": "multipart/form-data" }, [Buffer.from("intent=add")], 400],
    // 320 KB in 16 KB chunks with no Content-Length: counted as it arrives
    ["a chunked body over the limit", { "Content-Type": form }, Array.from({ length: 20 }, () => Buffer.alloc(16 * 1024, 0x61)), 413],
    ["a declared length over the limit", { "Content-Type": form, "Content-Length": String(FORM_LIMIT + 1) }, [Buffer.alloc(FORM_LIMIT + 1, 0x61)], 413],
  ];
}

test("every route with an action refuses every kind of bad body with a 4xx and a message, never a 5xx", async ({ baseURL }) => {
  test.setTimeout(240_000);
  const routes = await actionRoutes();
  // The shop's forms, as the manifest lists them; a new route with an action joins this walk by itself.
  expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(["/cart", "/auth", "/auth/register", "/profile", "/wishlist", "/checkout", "/admin/products", "/auth/logout"]));

  const product = await shop.db.selectFrom("products").select("id").orderBy("id").executeTakeFirstOrThrow();
  const order = await insertOrder(shop.db, { userId: admin.userId, items: [{ productId: product.id, quantity: 1 }] });
  // A real value for each path parameter, so the action gets as far as reading its body.
  const params: Record<string, string> = { id: String(product.id), number: order.number, reference: order.number, token: "A".repeat(43) };

  const failures: string[] = [];
  let checked = 0;
  for (const route of routes) {
    const filled = route.path.replace(/:(\w+)/g, (_, name: string) => {
      if (!(name in params)) failures.push(`${route.id}: no sample value for :${name} in this test`);
      return params[name] ?? "1";
    });
    const dataPath = filled === "/" ? "/_root.data" : `${filled.replace(/\/$/, "")}.data`;
    const urls = [filled, dataPath, `${filled}?index`, `${dataPath}?index`];
    for (const url of urls) {
      for (const [kind, headers, chunks, expected] of badBodies()) {
        for (const signedIn of [true, false]) {
          const answer = await rawPost(`${baseURL}${url}`, { Origin: baseURL!, ...(signedIn ? { Cookie: `ub_session=${admin.token}` } : {}), ...headers }, chunks);
          checked++;
          const where = `${kind} to ${url} (${signedIn ? "admin" : "anonymous"})`;
          // A signed-out request may be turned away before its body is read; the server then closes the
          // connection while this client is still sending, which it sees as EPIPE or ECONNRESET.
          if (answer.status === 0 && !signedIn && /EPIPE|ECONNRESET/.test(answer.body)) continue;
          if (answer.status >= 500 || answer.status === 0) failures.push(`${where}: ${answer.status} ${answer.body.slice(0, 200)}`);
          // Signed in, every action reads the body, so it must refuse it for the body's sake.
          else if (signedIn && !url.endsWith("?index") && answer.status !== expected) failures.push(`${where}: ${answer.status}, expected ${expected}`);
          else if (answer.status < 400 && !(answer.status === 202 || answer.status === 303 || answer.status === 302)) failures.push(`${where}: ${answer.status}`);
          else if (signedIn && answer.status === expected && !url.includes(".data") && !/could not read what was sent|more than the shop accepts|larger than 5 MB/.test(answer.body)) {
            failures.push(`${where}: ${answer.status} without a message`);
          }
        }
      }
    }
  }
  expect(failures).toEqual([]);
  expect(checked).toBeGreaterThan(routes.length * 4 * 7);
});

test("a body that is not a form is answered in the shopper's language", async ({ baseURL }) => {
  const answer = await rawPost(`${baseURL}/checkout`, { Origin: baseURL!, Cookie: `ub_session=${admin.token}`, "Content-Type": "application/json", "Accept-Language": "es" }, [Buffer.from("{}")]);
  expect(answer.status).toBe(400);
  expect(answer.body).toContain("No hemos podido leer lo que se envió");
  const large = await rawPost(`${baseURL}/auth/register`, { Origin: baseURL!, "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "es" }, Array.from({ length: 20 }, () => Buffer.alloc(16 * 1024, 0x61)));
  expect(large.status).toBe(413);
  expect(large.body).toContain("Eso es más de lo que la tienda acepta de una vez");
});

/** A real photograph-like JPEG of about 3 MB (noise does not compress), made with sharp. */
async function threeMegabyteJpeg(): Promise<Buffer> {
  const width = 1600;
  const height = 2000;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = (seed >> 16) & 0xff;
  }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
  expect(jpeg.byteLength).toBeGreaterThan(2.5 * 1024 * 1024);
  expect(jpeg.byteLength).toBeLessThan(4.5 * 1024 * 1024);
  return jpeg;
}

async function fillProduct(page: Page, name: string, photo: Buffer) {
  const brand = await shop.db.selectFrom("brands").select("name").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("name").orderBy("id").executeTakeFirstOrThrow();
  await page.getByLabel("Brands").selectOption({ label: brand.name });
  await page.getByLabel("Category").selectOption({ label: category.name });
  await page.getByLabel("Product Name").fill(name);
  await page.getByLabel("Price (₦)").fill("120000");
  await page.getByLabel("Stock").fill("3");
  await page.getByLabel("Description").fill("A full-size photo from a phone camera.");
  await page.getByLabel("Upload Image").setInputFiles({ name: "phone-photo.jpg", mimeType: "image/jpeg", buffer: photo });
}

async function expectStoredPhoto(name: string) {
  await expect
    .poll(async () => (await shop.db.selectFrom("products").select("image").where("name", "=", name).executeTakeFirst())?.image ?? null)
    .toBeTruthy();
}

for (const javaScriptEnabled of [true, false]) {
  test(`the admin uploads a 3 MB photo with JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const photo = await threeMegabyteJpeg();
    const context = await browser.newContext({ javaScriptEnabled });
    await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
    const page = await context.newPage();
    const name = `Photo ${javaScriptEnabled ? "JS" : "no JS"} ${stamp}`;
    await page.goto("/admin/products");
    if (javaScriptEnabled) await hydrated(page);
    await page.getByRole("link", { name: "Add Product" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Product" });
    await fillProduct(page, name, photo);
    const sent = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/products"));
    await dialog.getByRole("button", { name: "Create Product" }).click();
    const response = await sent;
    const sentBytes = Number((await response.request().allHeaders())["content-length"] ?? response.request().postDataBuffer()?.byteLength ?? 0);
    expect(sentBytes).toBeGreaterThan(2.5 * 1024 * 1024);
    // With JavaScript the form goes to /admin/products.data; without, to /admin/products.
    expect(new URL(response.url()).pathname).toBe(javaScriptEnabled ? "/admin/products.data" : "/admin/products");
    expect(response.status()).toBeLessThan(400);
    await expectStoredPhoto(name);
    await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.locator("tbody tr img")).toHaveAttribute("src", /\.webp/);
    await context.close();
  });
}

test("order, profile and checkout pages are never stored by a cache", async ({ request, baseURL }) => {
  const product = await shop.db.selectFrom("products").select("id").orderBy("id").executeTakeFirstOrThrow();
  const order = await insertOrder(shop.db, { userId: admin.userId, items: [{ productId: product.id, quantity: 1 }] });
  const headers = { Cookie: `ub_session=${admin.token}`, Origin: baseURL! };
  for (const url of ["/profile", "/profile?tab=addresses", "/checkout", `/orders/${order.number}`, "/profile.data", `/orders/${order.number}.data`]) {
    const response = await request.get(url, { headers, maxRedirects: 0 });
    expect(response.status(), url).toBe(200);
    expect(response.headers()["cache-control"], url).toBe("private, no-store");
  }
});
