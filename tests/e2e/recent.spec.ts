import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { addBrand, addCategory, addProduct } from "../support/catalogue";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";
import { hydrated } from "./support";

// Recently viewed perfumes and 'Often bought together' (docs/decisions/126).

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

/**
 * Products of a brand of their own, each in a category of its own (so no other row of a product page
 * shows the others), dated long ago so other journeys do not take them for the newest.
 */
async function products(names: string[]) {
  const brand = await addBrand(shop.db);
  const made: { id: number; name: string }[] = [];
  for (const name of names) {
    const category = await addCategory(shop.db);
    made.push(await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name: `${name} ${stamp}`, stock: 20, createdAt: "2020-01-01T00:00:00.000Z" }));
  }
  return made;
}

test("a visitor sees the perfumes they viewed on the next product page and in the cart; the pages stay shared", async ({ browser }) => {
  const [first, second, third] = await products(["Viewed Cedar", "Viewed Iris", "Viewed Amber"]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/shop/${first.id}`);
  await hydrated(page);
  // Nothing viewed before: no strip.
  await expect(page.getByRole("heading", { name: first.name })).toBeVisible();
  await expect(page.getByRole("region", { name: "Recently viewed" })).toHaveCount(0);
  await page.goto(`/shop/${second.id}`);
  await hydrated(page);
  await expect(page.getByRole("region", { name: "Recently viewed" }).getByRole("link")).toHaveText([first.name]);

  await page.goto(`/shop/${third.id}`);
  const strip = page.getByRole("region", { name: "Recently viewed" });
  // Latest first; the page's own perfume is not in it.
  await expect(strip.getByRole("link")).toHaveText([second.name, first.name]);
  await strip.getByRole("link", { name: first.name }).click();
  await expect(page).toHaveURL(new RegExp(`/shop/${first.id}$`));
  await expect(page.getByRole("region", { name: "Recently viewed" }).getByRole("link")).toHaveText([third.name, second.name]);

  await page.goto("/cart");
  await expect(page.getByRole("region", { name: "Recently viewed" }).getByRole("link")).toHaveText([first.name, third.name, second.name]);

  // The views live in the visitor's own cookie, not one of the shop's personal (ub_) cookies...
  const cookies = await context.cookies();
  expect(cookies.filter((c) => c.name.startsWith("ub_"))).toEqual([]);
  expect(cookies.find((c) => c.name === "recently_viewed")?.value).toBe(`${first.id}.${third.id}.${second.id}`);
  // ...so the product page may still be kept by a shared cache, without anything personal in it.
  const cached = await context.request.get(`/shop/${third.id}`);
  expect(cached.headers()["cache-control"]).toMatch(/^public, /);
  expect(cached.headers()["set-cookie"]).toBeUndefined();
  const html = await cached.text();
  expect(html).toContain(third.name);
  expect(html).not.toContain(first.name);
  expect(html).not.toContain(second.name);
  expect(html).not.toContain("Recently viewed");
  await context.close();
});

test("a signed-in shopper's strip comes from the server, without JavaScript too", async ({ browser, baseURL }) => {
  const [first, second, third] = await products(["Server Oud", "Server Musk", "Server Neroli"]);
  const customer = await createCustomer(shop, `recent-${stamp}@example.com`);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies([{ name: "ub_session", value: customer.token, url: baseURL! }]);
  const page = await context.newPage();
  await page.goto(`/shop/${first.id}`);
  await expect(page.getByRole("heading", { name: first.name })).toBeVisible();
  await expect(page.getByRole("region", { name: "Recently viewed" })).toHaveCount(0);
  await page.goto(`/shop/${second.id}`);
  await page.goto(`/shop/${third.id}`);
  await expect(page.getByRole("region", { name: "Recently viewed" }).getByRole("link")).toHaveText([second.name, first.name]);
  await page.goto("/cart");
  await expect(page.getByRole("region", { name: "Recently viewed" }).getByRole("link")).toHaveText([third.name, second.name, first.name]);
  // Kept on the server, not in a cookie of the browser.
  expect((await context.cookies()).find((c) => c.name === "recently_viewed")).toBeUndefined();
  await context.close();
});

test("a visitor who signs in keeps the perfumes they viewed, now on their account", async ({ browser }) => {
  const [first, second, third] = await products(["Carried Vetiver", "Carried Rose", "Carried Oud"]);
  const email = `carried-${stamp}@example.com`;
  await registerCustomer(shop, { firstName: "Ife", lastName: "Ade", email, password: "a good long password" });
  const context = await browser.newContext();
  const page = await context.newPage();
  const viewed = async () => (await context.cookies()).find((c) => c.name === "recently_viewed")?.value;
  // The page writes the view once it has hydrated: the next page is opened only after it has.
  await page.goto(`/shop/${first.id}`);
  await expect.poll(viewed).toBe(`${first.id}`);
  await page.goto(`/shop/${second.id}`);
  await expect.poll(viewed).toBe(`${second.id}.${first.id}`);
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a good long password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("link", { name: /Ife/ })).toBeVisible();
  // The cookie is gone; the views are the account's, and the server shows them.
  expect((await context.cookies()).find((c) => c.name === "recently_viewed")).toBeUndefined();
  const response = await page.goto(`/shop/${third.id}`);
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByRole("region", { name: "Recently viewed" }).getByRole("link")).toHaveText([second.name, first.name]);
  await context.close();
});

test("'Often bought together' appears once two orders hold both perfumes", async ({ page }) => {
  const [oud, rose, alone] = await products(["Together Oud", "Together Rose", "Bought Alone"]);
  // Each product page in its own category: the related row never shows the others.
  await shop.db.updateTable("products").set({ category_id: (await addCategory(shop.db)).id }).where("id", "=", rose.id).execute();
  await shop.db.updateTable("products").set({ category_id: (await addCategory(shop.db)).id }).where("id", "=", alone.id).execute();
  await insertOrder(shop.db, { channel: "whatsapp", status: "confirmed", items: [{ productId: oud.id, quantity: 1 }, { productId: rose.id, quantity: 1 }] });
  await insertOrder(shop.db, { channel: "checkout", status: "delivered", items: [{ productId: rose.id, quantity: 1 }, { productId: oud.id, quantity: 2 }] });
  await insertOrder(shop.db, { channel: "checkout", status: "delivered", items: [{ productId: alone.id, quantity: 1 }, { productId: oud.id, quantity: 1 }] });

  await page.goto(`/shop/${oud.id}`);
  const row = page.getByRole("region", { name: "Often bought together" });
  await expect(row.getByRole("link", { name: rose.name })).toBeVisible();
  // One shared order is one shopper's basket: not shown.
  await expect(row.getByRole("link", { name: alone.name })).toHaveCount(0);

  await page.goto(`/shop/${rose.id}`);
  await expect(page.getByRole("region", { name: "Often bought together" }).getByRole("link", { name: oud.name })).toBeVisible();

  // Without enough orders there is no such row at all.
  await page.goto(`/shop/${alone.id}`);
  await expect(page.getByRole("heading", { name: alone.name })).toBeVisible();
  await expect(page.getByRole("region", { name: "Often bought together" })).toHaveCount(0);
});
