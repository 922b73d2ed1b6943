import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { customerWithSession } from "../../scripts/support/shopper";
import { addProduct } from "../support/catalogue";
import { insertOrder } from "../support/orders";
import { hydrated } from "./support";

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

/** The same page, byte for byte; when not, the failure shows where they part. */
function expectSame(fast: string, full: string, label: string) {
  let at = 0;
  while (at < fast.length && fast[at] === full[at]) at++;
  expect(fast.slice(Math.max(0, at - 200), at + 300), label).toBe(full.slice(Math.max(0, at - 200), at + 300));
  expect(fast.length, label).toBe(full.length);
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
});

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

/**
 * The perfumes of the product-page checks (docs/decisions/150): one the first shopper received (may
 * review), one they reviewed, one sold out, one in three sizes of which two are sold out.
 */
async function productPages() {
  const [received, reviewed, soldOut, sizes] = [await perfume("Received Oud", 10), await perfume("Reviewed Musk", 10), await perfume("Sold Out Neroli", 0), await perfume("Three Sizes Rose", 0)];
  const at = new Date().toISOString();
  const more = await database.db
    .insertInto("product_sizes")
    .values([
      { product_id: sizes.id, label: "100 ml", ml: 100, sku: null, price: 7_000_000, discount: null, stock: 0, position: 1, created_at: at, updated_at: at },
      { product_id: sizes.id, label: "30 ml", ml: 30, sku: null, price: 3_000_000, discount: null, stock: 4, position: 2, created_at: at, updated_at: at },
    ])
    .returning("id")
    .execute();
  return { received, reviewed, soldOut, sizes: { ...sizes, bigSizeId: more[0].id } };
}

test("a filled-in page is sent compressed as the browser asks, with its length, and reads the same", async ({ request, baseURL }) => {
  const customer = await customerWithSession(database.db, `packed-${Date.now()}@example.com`, "Ada");
  await shop(request, baseURL!, customer, [ids[0]], [ids[1]]);
  const sent = async (encoding: string) => {
    const response = await request.get("/shop", { headers: { cookie: customer, "accept-encoding": encoding } });
    expect(response.status()).toBe(200);
    expect(response.headers()["x-page-cache"]).toBe("personal");
    return { headers: response.headers(), html: (await response.text()).replace(/nonce="[^"]*"/g, "") };
  };
  const plain = await sent("identity");
  expect(plain.headers["content-encoding"]).toBeUndefined();
  // Its length is known before it is sent: not chunked.
  expect(Number(plain.headers["content-length"])).toBeGreaterThan(10_000);
  // Gzip is spliced from the page's parts compressed once (docs/decisions/175), so it is taken whenever offered.
  for (const [asked, encoding] of [["br", "br"], ["gzip", "gzip"], ["gzip, deflate, br", "gzip"], ["br, gzip;q=0", "br"]]) {
    const packed = await sent(asked);
    expect(packed.headers["content-encoding"], asked).toBe(encoding);
    expect(packed.headers["vary"], asked).toMatch(/accept-encoding/i);
    expect(Number(packed.headers["content-length"]), asked).toBeLessThan(Number(plain.headers["content-length"]) / 3);
    expect(packed.html, asked).toBe(plain.html);
  }
});

test("a signed-in product page with a full recently viewed row is sent as brotli, fewer bytes than spliced gzip, and reads the same", async ({ request }) => {
  const shopper = await customerWithSession(database.db, `row-${Date.now()}@example.com`, "Kemi");
  const products = (await database.db.selectFrom("products").select("id").where("archived_at", "is", null).orderBy("id").limit(9).execute()).map((r) => r.id);
  expect(products).toHaveLength(9);
  // Eight views: the ninth product's page carries a row of eight cards, about a third of it the shopper's own.
  for (const product of products.slice(0, 8)) expect((await body(request, `/shop/${product}`, shopper)).via).toBe("personal");
  const page = `/shop/${products[8]}`;
  const sent = async (encoding: string) => {
    const response = await request.get(page, { headers: { cookie: shopper, "accept-encoding": encoding } });
    expect(response.status()).toBe(200);
    expect(response.headers()["x-page-cache"]).toBe("personal");
    return { encoding: response.headers()["content-encoding"], length: Number(response.headers()["content-length"]), html: (await response.text()).replace(/nonce="[^"]*"/g, "") };
  };
  const plain = await sent("identity");
  const row = plain.html.slice(plain.html.indexOf('aria-labelledby="recently-viewed-title"'));
  expect(row.slice(0, row.indexOf("</section>")).match(/<li><article class="card">/g)).toHaveLength(8);
  // Gzip alone is spliced once the page has had a shopper; offered brotli too, the page is compressed
  // whole (docs/decisions/191) while the server is not busy (docs/decisions/194): the views just made
  // may have kept it busy for a moment.
  const gzip = await sent("gzip");
  expect(gzip.encoding).toBe("gzip");
  let browser = await sent("gzip, deflate, br");
  for (const started = Date.now(); browser.encoding !== "br" && Date.now() - started < 5_000; browser = await sent("gzip, deflate, br")) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(browser.encoding).toBe("br");
  expect(browser.length).toBeLessThan(gzip.length);
  expect(browser.html).toBe(plain.html);
  expect(gzip.html).toBe(plain.html);
});

test("a signed-in shopper's product page made from the cached one is exactly the page rendered for them in full", async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const { received, reviewed, soldOut, sizes } = await productPages();
  const buyer = await customerWithSession(database.db, `product-buyer-${Date.now()}@example.com`, `Ngozi <"O'Kafor">`);
  const other = await customerWithSession(database.db, `product-other-${Date.now()}@example.com`, "Tunde");
  const buyerId = await userId(buyer);
  await insertOrder(database.db, { userId: buyerId, status: "delivered", items: [{ productId: received.id, quantity: 1 }] });
  await insertOrder(database.db, { userId: buyerId, status: "delivered", items: [{ productId: reviewed.id, quantity: 1 }] });
  await database.db.insertInto("reviews").values({ product_id: reviewed.id, user_id: buyerId, rating: 5, body: "Lovely & long-lasting.", author: "Ngozi O.", created_at: new Date().toISOString(), hidden_at: null, hidden_by: null }).execute();
  // The buyer waits for the sold-out perfume and for one of the two sold-out sizes; the other shopper for nothing.
  await waitFor(buyer, soldOut.id, soldOut.sizeId);
  await waitFor(buyer, sizes.id, sizes.bigSizeId);
  // Hearts, so that the recently viewed row has pressed ones, and a cart.
  await shop(request, baseURL!, buyer, [ids[0]], [ids[0], received.id]);

  // The buyer's views, recorded by the filled-in pages: the row then holds them.
  for (const product of [ids[0], ids[1], soldOut.id]) expect((await body(request, `/shop/${product}`, buyer)).via).toBe("personal");

  const shoppers = { buyer, other, spanish: `${buyer}; lng=es`, visitorCart: await shop(request, baseURL!, "", [ids[3]], []) };
  for (const [who, cookie] of Object.entries(shoppers)) {
    for (const product of [received, reviewed, soldOut, sizes]) {
      const url = `/shop/${product.id}`;
      const fast = await body(request, url, cookie);
      const full = await body(request, url, `${cookie}; ub_toast=none`);
      expect(fast.via, `${who} ${url}`).toBe("personal");
      expect(full.via, `${who} ${url}`).toBeUndefined();
      expectSame(fast.html, full.html, `${who} ${url}`);
    }
  }

  // What is filled in is the buyer's: the review form where they may review, the thanks where they did.
  const reviewForm = (html: string) => /<div data-pp="review-form"( hidden="")?>/.exec(html)?.[1] === undefined;
  expect(reviewForm((await body(request, `/shop/${received.id}`, buyer)).html)).toBe(true);
  expect(reviewForm((await body(request, `/shop/${received.id}`, other)).html)).toBe(false);
  const done = (await body(request, `/shop/${reviewed.id}`, buyer)).html;
  expect(reviewForm(done)).toBe(false);
  expect(done).toContain('<p class="text-sm text-stone-700" data-pp="review-done">');
  // Back in stock: the buyer waits (their escaped address in the message); the other is offered the one-click form.
  const waiting = (await body(request, `/shop/${soldOut.id}`, buyer)).html;
  expect(waiting).toMatch(/data-pp="alert-waiting">We will e-mail product-buyer-\d+@example.com as soon as it is back.</);
  expect(waiting).toContain('<div data-pp="alert-form" hidden="">');
  const offered = (await body(request, `/shop/${soldOut.id}`, other)).html;
  expect(offered).toContain('<div data-pp="alert-form">');
  expect(offered).toMatch(/data-pp="alert-signed-in">We will write to product-other-\d+@example.com once/);
  // Several sizes: the buyer is offered only the sold-out size they do not wait for yet; the other both.
  const choices = (html: string) => [.../<option value="(\d+)">/g[Symbol.matchAll](html)].map((m) => Number(m[1]));
  expect(choices((await body(request, `/shop/${sizes.id}`, buyer)).html)).toEqual([sizes.sizeId]);
  expect(choices((await body(request, `/shop/${sizes.id}`, other)).html)).toEqual([sizes.sizeId, sizes.bigSizeId]);
  // The recently viewed row: the shopper's latest views, this perfume left out, a heart pressed where theirs is.
  const rowOf = async (cookie: string) => {
    const html = (await body(request, `/shop/${ids[2]}`, cookie)).html;
    const at = html.indexOf('<div data-pp="recent">');
    return html.slice(at, html.indexOf("</main>", at));
  };
  const linked = (row: string) => [...row.matchAll(/<a class="card-link" href="\/shop\/(\d+)"/g)].map((m) => Number(m[1]));
  const row = await rowOf(buyer);
  expect(linked(row)).toEqual([sizes.id, soldOut.id, reviewed.id, received.id, ids[1], ids[0]]);
  expect(row).toContain('id="recently-viewed-title"');
  expect(row).toMatch(new RegExp(`value="${ids[0]}"/><button type="submit" data-pp="heart" aria-label="Remove from wishlist" aria-pressed="true"`));
  expect(row).toMatch(new RegExp(`value="${ids[1]}"/><button type="submit" data-pp="heart" aria-label="Add to wishlist" aria-pressed="false"`));
  // The other shopper's row holds their own views only; a new shopper's is empty.
  expect(linked(await rowOf(other))).toEqual([sizes.id, soldOut.id, received.id, reviewed.id]);
  const newcomer = await customerWithSession(database.db, `product-new-${Date.now()}@example.com`, "Kemi");
  expect(await rowOf(newcomer)).toBe('<div data-pp="recent"></div>');

});

test("two shoppers asking at once never see each other's page", async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const ada = await customerWithSession(database.db, `interleave-ada-${stamp}@example.com`, "Adaeze");
  const bola = await customerWithSession(database.db, `interleave-bola-${stamp}@example.com`, "Bolanle");
  await shop(request, baseURL!, ada, [ids[0]], [ids[1]]);
  await shop(request, baseURL!, bola, ids.slice(0, 3), []);
  // Product pages (docs/decisions/150): Ada may review one perfume; Bola waits for a sold-out one.
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
        const { via, html } = await body(request, url, who === "ada" ? ada : bola);
        return { who, url, via, html };
      }),
    );
    for (const { who, url, via, html } of answers) {
      expect(via, url).toBe("personal");
      const [own, other, lines] = who === "ada" ? ["Adaeze", "Bolanle", 1] : ["Bolanle", "Adaeze", 3];
      expect(html, url).toContain(`>${own}</span>`);
      expect(html.includes(other), `${who} ${url}`).toBe(false);
      expect(html.includes(`interleave-${who === "ada" ? "bola" : "ada"}-`), `${who} ${url}`).toBe(false);
      expect(html, url).toMatch(new RegExp(`data-pp="cart-lines"[^>]*>${lines}<`));
      if (url === `/shop/${received.id}`) expect(html.includes('<div data-pp="review-form">'), `${who} ${url}`).toBe(who === "ada");
      if (url === `/shop/${gone.id}`) {
        expect(html.includes('<div data-pp="alert-form" hidden="">'), `${who} ${url}`).toBe(who === "bola");
        expect(html.includes(`We will ${who === "ada" ? "write to" : "e-mail"} interleave-${who}-${stamp}@example.com`), `${who} ${url}`).toBe(true);
      }
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
  // The heart turns at once; the reload must wait until the server has kept it.
  const kept = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/wishlist"));
  await heart.click();
  await expect(page.getByRole("button", { name: "Remove from wishlist" })).toHaveCount(1);
  expect((await kept).ok()).toBe(true);
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

test("a signed-in shopper's filled-in product page hydrates as it is, and its forms work with and without JavaScript", async ({ browser, baseURL }) => {
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
  expect((await page.goto(`/shop/${ids[0]}`))?.headers()["x-page-cache"]).toBe("personal");
  const response = await page.goto(`/shop/${received.id}`);
  expect(response?.headers()["x-page-cache"]).toBe("personal");
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

  // Without JavaScript: the one-click back-in-stock form and the review form of the filled-in page.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  const noScript = await plain.newPage();
  expect((await noScript.goto(`/shop/${gone.id}`))?.headers()["x-page-cache"]).toBe("personal");
  const alert = noScript.getByRole("form", { name: "Out of stock for now" });
  await expect(alert.getByText(`We will write to hydrate-product-${stamp}@example.com once, as soon as it is back.`)).toBeVisible();
  await expect(alert.getByLabel("Your e-mail")).toBeHidden();
  await alert.getByRole("button", { name: "Email me when it's back" }).click();
  await expect(noScript.locator("[data-toast-fallback]")).toHaveText("We will e-mail you when it is back in stock.");
  await expect(noScript.getByRole("status").filter({ hasText: `We will e-mail hydrate-product-${stamp}@example.com as soon as it is back.` })).toBeVisible();
  await expect(alert).toBeHidden();
  const waits = await database.db.selectFrom("back_in_stock_requests").select("email").where("product_id", "=", gone.id).execute();
  expect(waits).toEqual([{ email: `hydrate-product-${stamp}@example.com` }]);

  expect((await noScript.goto(`/shop/${withoutScripts.id}`))?.headers()["x-page-cache"]).toBe("personal");
  const plainForm = noScript.getByRole("form", { name: "Write a review" });
  await plainForm.getByRole("radio", { name: "5 stars" }).check();
  await plainForm.getByLabel("Your review").fill("Green and fresh, a summer favourite.");
  await plainForm.getByRole("button", { name: "Post review" }).click();
  await expect(noScript.locator("[data-toast-fallback]")).toHaveText("Thank you: your review is on the page.");
  await expect(noScript.getByText("You have reviewed this perfume. Thank you!")).toBeVisible();
  await plain.close();
});
