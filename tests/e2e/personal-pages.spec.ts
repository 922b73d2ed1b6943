import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { customerWithSession } from "../../scripts/support/shopper";

// A shopper with a session or a cart is given the cached anonymous page with their own parts filled in
// (docs/decisions/141). These checks hold that page to the one rendered in full for the same shopper.

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

/** The page as sent, with the per-response script nonce taken out. */
async function body(request: APIRequestContext, url: string, cookie: string, headers: Record<string, string> = {}) {
  const response = await request.get(url, { headers: { cookie, ...headers } });
  expect(response.status(), url).toBe(200);
  return { via: response.headers()["x-page-cache"], html: (await response.text()).replace(/nonce="[^"]*"/g, "") };
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

test("a shopper's page made from the cached one is exactly the page rendered for them in full", async ({ request, baseURL }) => {
  const customer = await customerWithSession(database.db, `personal-${Date.now()}@example.com`, `Zoë <"O'Neil"> & co`);
  const admin = await customerWithSession(database.db, `personal-admin-${Date.now()}@example.com`, "Bisi");
  await database.db.updateTable("users").set({ role: "admin" }).where("email", "like", "personal-admin-%").execute();
  await shop(request, baseURL!, customer, [ids[0], ids[1]], [ids[0], ids[2]]);
  const visitorCart = await shop(request, baseURL!, "", [ids[3]], []);
  expect(visitorCart).toMatch(/^ub_cart=/);

  const shoppers = { customer, admin, visitorCart, spanish: `${customer}; lng=es` };
  for (const [who, cookie] of Object.entries(shoppers)) {
    const pages = ["/", "/shop", "/shop?sort=price-asc&page=2", "/shop?q=dior", "/about", ...(who === "visitorCart" ? [`/shop/${ids[3]}`] : [])];
    for (const url of pages) {
      const fast = await body(request, url, cookie);
      // A one-time message cookie always has the page rendered in full.
      const full = await body(request, url, `${cookie}; ub_toast=none`);
      expect(fast.via, `${who} ${url}`).toBe("personal");
      expect(full.via, `${who} ${url}`).toBeUndefined();
      expect(fast.html, `${who} ${url}`).toBe(full.html);
    }
  }
  // And what is filled in is theirs: the customer's escaped name, cart and hearts; the admin's links.
  const page = (await body(request, "/shop", customer)).html;
  expect(page).toContain("Zoë &lt;&quot;O&#x27;Neil&quot;&gt; &amp; co</span>");
  expect(page).toMatch(/data-pp="cart-lines"[^>]*>2</);
  const hearted = await database.db.selectFrom("products").select("name").where("id", "=", ids[0]).executeTakeFirstOrThrow();
  const search = (await body(request, `/shop?q=${encodeURIComponent(hearted.name)}`, customer)).html;
  expect(search).toMatch(new RegExp(`value="${ids[0]}"/><button type="submit" data-pp="heart" aria-label="Remove from wishlist" aria-pressed="true"`));
  expect(page).not.toContain('<li data-pp="admin">');
  expect((await body(request, "/", admin)).html).toContain('<li data-pp="admin">');
  // A signed-in product page carries the shopper's review and alert forms: rendered in full.
  expect((await body(request, `/shop/${ids[0]}`, customer)).via).toBeUndefined();
});

test("two shoppers asking at once never see each other's page", async ({ request, baseURL }) => {
  const ada = await customerWithSession(database.db, `interleave-ada-${Date.now()}@example.com`, "Adaeze");
  const bola = await customerWithSession(database.db, `interleave-bola-${Date.now()}@example.com`, "Bolanle");
  await shop(request, baseURL!, ada, [ids[0]], [ids[1]]);
  await shop(request, baseURL!, bola, ids.slice(0, 3), []);
  const urls = ["/", "/shop", "/shop?page=2", "/shop?q=eau"];
  for (let round = 0; round < 10; round++) {
    const answers = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const who = i % 2 === 0 ? "ada" : "bola";
        const { via, html } = await body(request, urls[i % urls.length], who === "ada" ? ada : bola);
        return { who, via, html };
      }),
    );
    for (const { who, via, html } of answers) {
      expect(via).toBe("personal");
      const [own, other, lines] = who === "ada" ? ["Adaeze", "Bolanle", 1] : ["Bolanle", "Adaeze", 3];
      expect(html).toContain(`>${own}</span>`);
      expect(html).not.toContain(other);
      expect(html).toMatch(new RegExp(`data-pp="cart-lines"[^>]*>${lines}<`));
    }
  }
});

test("the filled-in page hydrates as it is: no mismatch, and the heart and badge work", async ({ page, baseURL }) => {
  const cookie = await customerWithSession(database.db, `hydrate-${Date.now()}@example.com`, "Chidinma");
  const token = cookie.split("=")[1];
  await page.context().addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /hydrat|did not match/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  // Once without the heart, to have the cached anonymous page filled in on the next visit.
  const response = await page.goto("/shop");
  expect(response?.headers()["x-page-cache"]).toBe("personal");
  await expect(page.getByRole("link", { name: /Chidinma/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeHidden();
  const heart = page.getByRole("button", { name: "Add to wishlist" }).first();
  await page.waitForFunction(() => Object.keys(document.querySelector("[data-pp=heart]") ?? {}).some((k) => k.startsWith("__reactProps")));
  await heart.click();
  await expect(page.getByRole("button", { name: "Remove from wishlist" })).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole("button", { name: "Remove from wishlist" })).toHaveCount(1);
  // The reloaded page is filled in again; a click before it hydrates would be a plain form post.
  await page.waitForFunction(() => Object.keys(document.querySelector("[data-pp=heart]") ?? {}).some((k) => k.startsWith("__reactProps")));
  await page.getByRole("button", { name: /Add to cart/i }).first().click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await page.reload();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  expect(problems).toEqual([]);
});
