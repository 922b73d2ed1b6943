import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/lib/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { addProduct } from "../support/catalogue";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { hydrated } from "./support";

// Sizes as variants (docs/decisions/121): the product page's size choice, with and without
// JavaScript; the cart, the order and its e-mail name the size bought, and only its stock is taken.

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

/** A perfume in 30 ml (sold out), 50 ml and 100 ml. */
async function perfumeInSizes(name: string) {
  const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  const product = await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name, price: 1, stock: 0 });
  // Dated long ago, so it is not among the newest products other journeys pick (it has no picture).
  await shop.db.updateTable("products").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", product.id).execute();
  const at = new Date().toISOString();
  await shop.db.updateTable("product_sizes").set({ label: "30 ml", ml: 30, price: 4_000_000, stock: 0 }).where("product_id", "=", product.id).execute();
  await shop.db
    .insertInto("product_sizes")
    .values([
      { product_id: product.id, label: "50 ml", ml: 50, price: 6_500_000, discount: 500_000, stock: 5, position: 1, created_at: at, updated_at: at },
      { product_id: product.id, label: "100 ml", ml: 100, price: 9_800_000, discount: null, stock: 3, position: 2, created_at: at, updated_at: at },
    ])
    .execute();
  const sizes = await shop.db.selectFrom("product_sizes").select(["id", "label", "stock"]).where("product_id", "=", product.id).orderBy("position").execute();
  return { id: product.id, sizes: Object.fromEntries(sizes.map((s) => [s.label, s.id])) as Record<string, number> };
}

const stockOf = async (sizeId: number) => (await shop.db.selectFrom("product_sizes").select("stock").where("id", "=", sizeId).executeTakeFirstOrThrow()).stock;

test("a shopper chooses the 100 ml size and buys it: the price follows the choice, the order and its e-mail name the size", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const name = `Sauvage Sizes ${stamp}`;
  const perfume = await perfumeInSizes(name);
  const email = `sizes-buyer-${stamp}@example.com`;
  const buyer = await createCustomer(shop, email);
  const context = await browser.newContext();
  await context.addCookies([{ name: "ub_session", value: buyer.token, url: baseURL! }]);
  const page = await context.newPage();

  await page.goto(`/shop/${perfume.id}`);
  await hydrated(page);
  const sizes = page.getByRole("group", { name: "Size" });
  // The sold-out size stays in view, but cannot be chosen; the first size in stock is chosen.
  await expect(sizes.getByRole("radio", { name: /30 ml/ })).toBeDisabled();
  await expect(sizes.getByRole("radio", { name: "50 ml" })).toBeChecked();
  const main = page.locator("main article").first();
  await expect(main.getByText("₦65,000.00", { exact: true })).toBeVisible();
  await expect(main.getByText("₦70,000.00")).toBeVisible();

  await sizes.locator("label", { hasText: "100 ml" }).click();
  await expect(sizes.getByRole("radio", { name: "100 ml" })).toBeChecked();
  await expect(main.getByText("₦98,000.00", { exact: true })).toBeVisible();
  await expect(main.locator("s")).toHaveCount(0);

  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/cart"));
  await main.getByRole("button", { name: "Add to Cart" }).click();
  await answered;
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await page.goto("/cart");
  const line = page.locator(`[data-size-id="${perfume.sizes["100 ml"]}"]`);
  await expect(line).toContainText(name);
  await expect(line).toContainText("Size: 100 ml");

  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Street Address").fill("15 Bourdillon Road");
  await page.getByLabel("City").fill("Ikoyi");
  await page.getByLabel("State").selectOption("Lagos");
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const number = page.url().split("/").pop()!;
  await expect(page.getByRole("table").getByText(`${name} (100 ml)`)).toBeVisible();

  // Only the 100 ml size gave a bottle.
  expect([await stockOf(perfume.sizes["30 ml"]), await stockOf(perfume.sizes["50 ml"]), await stockOf(perfume.sizes["100 ml"])]).toEqual([0, 5, 2]);
  const item = await shop.db.selectFrom("order_items as i").innerJoin("orders as o", "o.id", "i.order_id").select(["i.size_id", "i.size_label"]).where("o.number", "=", number).executeTakeFirstOrThrow();
  expect(item).toEqual({ size_id: perfume.sizes["100 ml"], size_label: "100 ml" });

  await expect.poll(async () => (await readOutbox(E2E_DATA_DIR, email)).some((m) => m.raw.includes(`Subject: Your Unboxed order ${number}`)), { timeout: 20_000 }).toBe(true);
  const mail = (await readOutbox(E2E_DATA_DIR, email)).find((m) => m.raw.includes(`Subject: Your Unboxed order ${number}`))!;
  expect(decodeQuotedPrintable(mail.raw)).toContain(`${name} (100 ml)`);
  await context.close();
});

test("without JavaScript the size radios alone carry the choice into the cart", async ({ browser }) => {
  test.setTimeout(60_000);
  const name = `Oud Sizes ${stamp}`;
  const perfume = await perfumeInSizes(name);
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const page = await visitor.newPage();
  await page.goto(`/shop/${perfume.id}`);
  // Search engines get one offer per size and their range.
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(jsonLd.offers).toMatchObject({ "@type": "AggregateOffer", priceCurrency: "NGN", lowPrice: "40000.00", highPrice: "98000.00", offerCount: 3 });
  expect(jsonLd.offers.offers.map((o: { name: string; availability: string }) => [o.name, o.availability.split("/").pop()])).toEqual([
    ["30 ml", "OutOfStock"],
    ["50 ml", "InStock"],
    ["100 ml", "InStock"],
  ]);
  const sizes = page.getByRole("group", { name: "Size" });
  await expect(sizes.getByRole("radio", { name: "50 ml" })).toBeChecked();
  await sizes.locator("label", { hasText: "100 ml" }).click();
  await expect(sizes.getByRole("radio", { name: "100 ml" })).toBeChecked();
  await page.locator("main article").first().getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(new RegExp(`/shop/${perfume.id}$`));
  await expect(page.locator("[data-toast-fallback]")).toHaveText("Added to cart successfully");

  await page.goto("/cart");
  const line = page.locator(`[data-size-id="${perfume.sizes["100 ml"]}"]`);
  await expect(line).toContainText("Size: 100 ml");
  await expect(line).toContainText("₦98,000.00");
  await expect(page.locator(`[data-size-id="${perfume.sizes["50 ml"]}"]`)).toHaveCount(0);
  await visitor.close();
});
