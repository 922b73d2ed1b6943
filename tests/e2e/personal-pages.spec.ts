import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { customerWithSession } from "../../scripts/support/shopper";
import { addProduct } from "../support/catalogue";
import { insertOrder } from "../support/orders";
import { hydrated } from "./support";

// A shopper with a session or a cart gets pages rendered for them alone, never kept by a shared cache
// (docs/decisions/216): their name, cart, hearts and product forms, with and without JavaScript.

let database: DatabaseHandle;
/** Products with plenty of stock, whatever other journeys bought before. */
let ids: number[];
test.beforeAll(async () => {
  database = await openDatabase({ databaseUrl: null, sqlitePath: path.join(E2E_DATA_DIR, "shop.db") });
  const rows = await database.db.selectFrom("products").select("id").where("archived_at", "is", null).where("stock", ">", 5).orderBy("id").limit(4).execute();
  ids = rows.map((r) => r.id);
  expect(ids).toHaveLength(4);
});
test.afterAll(async () => {
  await database?.close();
});

/** The page as sent, with what it tells caches. */
async function body(request: APIRequestContext, url: string, cookie: string, headers: Record<string, string> = {}) {
  const response = await request.get(url, { headers: { cookie, ...headers } });
  expect(response.status(), url).toBe(200);
  return { caching: response.headers()["cache-control"], html: await response.text() };
}

/** Adds products to the shopper's cart and hearts, as their browser would; returns the cart cookie if one was set. */
async function shop(request: APIRequestContext, baseURL: string, cookie: string, cart: number[], hearts: number[]) {
  let cartCookie = "";
  for (const productId of cart) {
    const response = await request.post("/cart", {
      headers: { cookie: [cookie, cartCookie].filter(Boolean).join("; "), origin: baseURL },
      form: { intent: "add", productId: String(productId) },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(303);
    cartCookie = /ub_cart=[^;]+/.exec(response.headers()["set-cookie"] ?? "")?.[0] ?? cartCookie;
  }
  for (const productId of hearts) {
    const response = await request.post("/wishlist", { headers: { cookie, origin: baseURL }, form: { productId: String(productId) }, maxRedirects: 0 });
    expect(response.status()).toBe(303);
  }
  return cartCookie;
}

/** A perfume of its own for one check, dated long ago so that other journeys do not pick it. */
async function perfume(name: string, stock: number) {
  const brand = await database.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await database.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  const product = await addProduct(database.db, { brandId: brand.id, categoryId: category.id, name: `${name} ${Date.now().toString(36)}`, stock, createdAt: "2020-01-01T00:00:00.000Z" });
  const size = await database.db.selectFrom("product_sizes").select("id").where("product_id", "=", product.id).executeTakeFirstOrThrow();
  return { ...product, sizeId: size.id };
}

async function userId(cookie: string) {
  const token = cookie.slice("ub_session=".length);
  const session = await database.db.selectFrom("sessions").select("user_id").where("id", "=", createHash("sha256").update(token).digest("hex")).executeTakeFirstOrThrow();
  return session.user_id;
}

async function waitFor(cookie: string, productId: number, sizeId: number) {
  const user = await database.db.selectFrom("users").select(["id", "email"]).where("id", "=", await userId(cookie)).executeTakeFirstOrThrow();
  await database.db
    .insertInto("back_in_stock_requests")
    .values({ product_id: productId, size_id: sizeId, email: user.email, user_id: user.id, locale: "en", token: randomBytes(16).toString("hex"), created_at: new Date().toISOString() })
    .execute();
}

test("two shoppers asking at once never see each other's page", async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const ada = await customerWithSession(database.db, `interleave-ada-${stamp}@example.com`, "Adaeze");
  const bola = await customerWithSession(database.db, `interleave-bola-${stamp}@example.com`, "Bolanle");
  await shop(request, baseURL!, ada, [ids[0]], [ids[1]]);
  await shop(request, baseURL!, bola, ids.slice(0, 3), []);
  // Product pages: Ada may review one perfume; Bola waits for a sold-out one.
  const received = await perfume("Interleave Oud", 10);
  const gone = await perfume("Interleave Musk", 0);
  await insertOrder(database.db, { userId: await userId(ada), status: "delivered", items: [{ productId: received.id, quantity: 1 }] });
  await waitFor(bola, gone.id, gone.sizeId);
  const urls = ["/", "/shop", "/shop?page=2", "/shop?q=eau", `/shop/${received.id}`, `/shop/${gone.id}`, `/shop/${ids[2]}`];
  for (let round = 0; round < 10; round++) {
    const answers = await Promise.all(
      Array.from({ length: 28 }, async (_, i) => {
        const who = i % 2 === 0 ? "ada" : "bola";
        const url = urls[Math.floor(i / 2) % urls.length];
        const { caching, html } = await body(request, url, who === "ada" ? ada : bola);
        return { who, url, caching, html };
      }),
    );
    for (const { who, url, caching, html } of answers) {
      expect(caching, url).toBe("private, no-store");
      const [own, other, lines] = who === "ada" ? ["Adaeze", "Bolanle", 1] : ["Bolanle", "Adaeze", 3];
      expect(html, url).toContain(`>${own}</span>`);
      expect(html.includes(other), `${who} ${url}`).toBe(false);
      expect(html.includes(`interleave-${who === "ada" ? "bola" : "ada"}-`), `${who} ${url}`).toBe(false);
      expect(html, url).toMatch(new RegExp(`data-testid="cart-count"[^>]*>${lines}<`));
      if (url === `/shop/${received.id}`) expect(html.includes('id="write-review"'), `${who} ${url}`).toBe(who === "ada");
      if (url === `/shop/${gone.id}`) {
        expect(html.includes('id="back-in-stock-title"'), `${who} ${url}`).toBe(who === "ada");
        expect(html.includes(`We will ${who === "ada" ? "write to" : "e-mail"} interleave-${who}-${stamp}@example.com`), `${who} ${url}`).toBe(true);
      }
    }
  }
});

test("a signed-in shopper's page hydrates without a mismatch, and the heart and badge work", async ({ page, baseURL }) => {
  const cookie = await customerWithSession(database.db, `hydrate-${Date.now()}@example.com`, "Chidinma");
  const token = cookie.split("=")[1];
  await page.context().addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /hydrat|did not match/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  const response = await page.goto("/shop");
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByRole("link", { name: /Chidinma/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeHidden();
  const heart = page.getByRole("button", { name: "Add to wishlist" }).first();
  await page.waitForFunction(() => Object.keys(document.querySelector("form[action^='/wishlist'] button") ?? {}).some((k) => k.startsWith("__reactProps")));
  // The heart turns at once; the reload must wait until the server has kept it.
  const kept = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/wishlist"));
  await heart.click();
  await expect(page.getByRole("button", { name: "Remove from wishlist" })).toHaveCount(1);
  expect((await kept).ok()).toBe(true);
  await page.reload();
  await expect(page.getByRole("button", { name: "Remove from wishlist" })).toHaveCount(1);
  // A click before the reloaded page hydrates would be a plain form post.
  await page.waitForFunction(() => Object.keys(document.querySelector("form[action^='/wishlist'] button") ?? {}).some((k) => k.startsWith("__reactProps")));
  await page.getByRole("button", { name: /Add to cart/i }).first().click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await page.reload();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  expect(problems).toEqual([]);
});

test("a signed-in shopper's product page hydrates without a mismatch, and its forms work with and without JavaScript", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const [received, withoutScripts, gone] = [await perfume("Hydrated Oud", 10), await perfume("Plain Form Vetiver", 10), await perfume("Plain Form Musk", 0)];
  const cookie = await customerWithSession(database.db, `hydrate-product-${stamp}@example.com`, "Folake");
  for (const product of [received, withoutScripts]) await insertOrder(database.db, { userId: await userId(cookie), status: "delivered", items: [{ productId: product.id, quantity: 1 }] });
  const token = cookie.split("=")[1];

  // With JavaScript: the page hydrates without a mismatch; the row and the review form are the shopper's and work.
  const context = await browser.newContext();
  await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /hydrat|did not match/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(`/shop/${ids[0]}`);
  const response = await page.goto(`/shop/${received.id}`);
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  await hydrated(page);
  await expect(page.getByRole("region", { name: "Recently viewed" }).getByRole("link", { name: (await database.db.selectFrom("products").select("name").where("id", "=", ids[0]).executeTakeFirstOrThrow()).name })).toBeVisible();
  const reviews = page.getByRole("region", { name: "Customer reviews" });
  await expect(reviews.getByRole("link", { name: "Bought it? Sign in to review it." })).toBeHidden();
  const form = reviews.getByRole("form", { name: "Write a review" });
  await form.getByRole("radio", { name: "4 stars" }).check();
  await form.getByLabel("Your review").fill("Warm and smoky, it stays all day.");
  await form.getByRole("button", { name: "Post review" }).click();
  await expect(reviews.getByText("You have reviewed this perfume. Thank you!")).toBeVisible();
  await expect(form).toBeHidden();
  expect(problems).toEqual([]);
  await context.close();

  // Without JavaScript: the one-click back-in-stock form and the review form.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  const noScript = await plain.newPage();
  await noScript.goto(`/shop/${gone.id}`);
  const alert = noScript.getByRole("form", { name: "Out of stock for now" });
  await expect(alert.getByText(`We will write to hydrate-product-${stamp}@example.com once, as soon as it is back.`)).toBeVisible();
  await expect(alert.getByLabel("Your e-mail")).toBeHidden();
  await alert.getByRole("button", { name: "Email me when it's back" }).click();
  await expect(noScript.locator("[data-toast-fallback]")).toHaveText("We will e-mail you when it is back in stock.");
  await expect(noScript.getByRole("status").filter({ hasText: `We will e-mail hydrate-product-${stamp}@example.com as soon as it is back.` })).toBeVisible();
  await expect(alert).toBeHidden();
  const waits = await database.db.selectFrom("back_in_stock_requests").select("email").where("product_id", "=", gone.id).execute();
  expect(waits).toEqual([{ email: `hydrate-product-${stamp}@example.com` }]);

  await noScript.goto(`/shop/${withoutScripts.id}`);
  const plainForm = noScript.getByRole("form", { name: "Write a review" });
  await plainForm.getByRole("radio", { name: "5 stars" }).check();
  await plainForm.getByLabel("Your review").fill("Green and fresh, a summer favourite.");
  await plainForm.getByRole("button", { name: "Post review" }).click();
  await expect(noScript.locator("[data-toast-fallback]")).toHaveText("Thank you: your review is on the page.");
  await expect(noScript.getByText("You have reviewed this perfume. Thank you!")).toBeVisible();
  await plain.close();
});
