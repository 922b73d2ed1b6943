import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { addProduct } from "../support/catalogue";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
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
  await page.getByLabel("Mobile number").fill("0803 123 4567");
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

test("a visitor without JavaScript asks for the sold-out 30 ml; the owner receives 30 ml bottles and the alert names the size", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const name = `Musk Sizes ${stamp}`;
  const perfume = await perfumeInSizes(name);
  const email = `sizes-waiting-${stamp}@example.com`;
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const page = await visitor.newPage();
  await page.goto(`/shop/${perfume.id}`);
  const form = page.getByRole("form", { name: "Out of stock for now" });
  await expect(form.getByLabel("Size")).toHaveValue(String(perfume.sizes["30 ml"]));
  await form.getByLabel("Your e-mail").fill(email);
  await form.getByRole("button", { name: "Email me when it's back" }).click();
  await expect(page.locator("[data-toast-fallback]")).toHaveText("We will e-mail you when it is back in stock.");
  await visitor.close();
  const request = await shop.db.selectFrom("back_in_stock_requests").select(["size_id"]).where("email", "=", email).executeTakeFirstOrThrow();
  expect(request.size_id).toBe(perfume.sizes["30 ml"]);

  const admin = await createAdmin(shop, `sizes-restock-${stamp}@unboxed.example`);
  const owner = await browser.newContext({ javaScriptEnabled: false });
  await owner.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const ownerPage = await owner.newPage();
  await ownerPage.goto(`/admin/products/${perfume.id}/stock`);
  await ownerPage.getByRole("link", { name: "30 ml: 0" }).click();
  await expect(ownerPage.getByText("30 ml in stock now")).toBeVisible();
  await ownerPage.getByLabel("Reason").selectOption({ label: "Received" });
  await ownerPage.getByLabel("Add or take away").check();
  await ownerPage.getByLabel("Quantity").fill("+2");
  await ownerPage.getByRole("button", { name: "Save adjustment" }).click();
  await expect(ownerPage.locator("[data-stock-now]")).toHaveText("2");
  await expect(ownerPage.getByRole("link", { name: "100 ml: 3" })).toBeVisible();
  await owner.close();
  expect(await stockOf(perfume.sizes["30 ml"])).toBe(2);

  await expect.poll(async () => (await readOutbox(E2E_DATA_DIR, email)).length, { timeout: 90_000 }).toBe(1);
  const [mail] = await readOutbox(E2E_DATA_DIR, email);
  expect(decodeQuotedPrintable(mail.raw)).toContain(`Subject: Back in stock: ${name} (30 ml)`);
});

test("the owner gives a one-size perfume a second size on its sizes page; a duplicate label is refused with nothing saved", async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  const name = `Libre Sizes ${stamp}`;
  const product = await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name, price: 5_000_000, stock: 2 });
  await shop.db.updateTable("products").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", product.id).execute();
  const admin = await createAdmin(shop, `sizes-owner-${stamp}@unboxed.example`);
  const owner = await browser.newContext({ javaScriptEnabled: false });
  await owner.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const page = await owner.newPage();
  await page.goto(`/admin/products/${product.id}/sizes`);
  await page.getByLabel("Size label of Standard").fill("50 ml");
  await page.getByLabel("Size label of the new size").fill("50 ml");
  await page.getByLabel("Price of the new size").fill("80000");
  await page.getByRole("button", { name: "Save sizes" }).click();
  await expect(page.getByText("Two sizes cannot have the same label.")).toBeVisible();
  expect(await shop.db.selectFrom("product_sizes").select("label").where("product_id", "=", product.id).execute()).toEqual([{ label: "Standard" }]);

  await page.getByLabel("Size label of 50 ml").nth(1).fill("100 ml");
  await page.getByRole("button", { name: "Save sizes" }).click();
  await expect(page.locator("[data-toast-fallback]")).toHaveText(`Sizes of “${name}” saved`);
  // The products list gives the cheapest price and leads to the sizes.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await expect(page.locator(`[data-product-row="${product.id}"] [data-sizes-count]`)).toHaveText("from, 2 sizes");
  await owner.close();

  // The shop offers both, and the card says "From".
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const shopper = await visitor.newPage();
  await shopper.goto(`/shop/${product.id}`);
  const sizes = shopper.getByRole("group", { name: "Size" });
  await expect(sizes.getByRole("radio", { name: "50 ml" })).toBeChecked();
  // The new size has no stock yet: shown, but not for sale.
  await expect(sizes.getByRole("radio", { name: /100 ml/ })).toBeDisabled();
  await shopper.goto(`/shop?q=${encodeURIComponent(name)}`);
  await expect(shopper.locator("main article").filter({ hasText: name })).toContainText("From ₦50,000.00");
  await visitor.close();
});
