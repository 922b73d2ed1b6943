import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { createOrderFromLines } from "~/domain/orders/orders.server";
import { adjustStock } from "~/domain/catalogue/stock-adjustments.server";
import { addProduct } from "../support/catalogue";
import { createAdmin, openShopDatabase } from "../support/e2e-shop";

// The owner adjusts a product's stock with a reason, sees every adjustment in its history, is told
// clearly when an adjustment cannot be applied, and never overwrites a sale made meanwhile.

let shop: DatabaseHandle;
let admin: { userId: number; token: string };
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `stock-${stamp}@unboxed.example`, "Femi", "Owner");
});
test.afterAll(async () => {
  await shop?.close();
});

async function newProduct(name: string, stock: number) {
  const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  // Dated long ago, so it is not among the newest products other journeys pick (it has no picture).
  return addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name, stock, createdAt: "2020-01-01T00:00:00.000Z" });
}

const stockOf = async (id: number) => (await shop.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

async function signIn(context: BrowserContext, baseURL: string | undefined) {
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
}

async function adjust(page: Page, reason: string, mode: "Add or take away" | "New count", amount: string, note = "") {
  await page.getByLabel("Reason").selectOption({ label: reason });
  await page.getByLabel(mode).check();
  await page.getByLabel("Quantity").fill(amount);
  await page.getByLabel("Note (optional)").fill(note);
  await page.getByRole("button", { name: "Save adjustment" }).click();
}

test("the owner receives goods, writes off a damaged bottle and corrects a count, with the history and clear refusals", async ({ page, context, baseURL }) => {
  test.setTimeout(90_000);
  const name = `Stocked Oud ${stamp}`;
  const product = await newProduct(name, 5);
  await signIn(context, baseURL);

  // From the products list: the stock figure leads to the product's stock page.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: `Adjust the stock of ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/products/${product.id}/stock$`));
  await expect(page.getByRole("heading", { level: 1, name: `Stock of ${name}` })).toBeVisible();
  await expect(page.locator("[data-stock-now]")).toHaveText("5");
  await expect(page.getByText("No adjustments yet.")).toBeVisible();

  await adjust(page, "Received", "Add or take away", "+12", "Delivery from Dubai");
  await expect(toast(page, `Stock of ${name}: 5 → 17.`)).toBeVisible();
  await expect(page.locator("[data-stock-now]")).toHaveText("17");
  const rows = page.locator("[data-stock-entry]");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Femi Owner");
  await expect(rows.first()).toContainText("Received");
  await expect(rows.first()).toContainText("+12");
  await expect(rows.first()).toContainText("Delivery from Dubai");
  expect(await stockOf(product.id)).toBe(17);

  // Refused, with nothing changed: more than there is, and a sign that does not fit the reason.
  await adjust(page, "Damaged", "Add or take away", "-20");
  await expect(page.getByRole("alert").filter({ hasText: "Only 17 in stock: taking that many would leave less than nothing." })).toBeVisible();
  await adjust(page, "Received", "Add or take away", "-1");
  await expect(page.getByText("Received goods add to the stock: use a positive number, or choose correction.")).toBeVisible();
  await expect(page.getByLabel("Quantity")).toHaveAttribute("aria-invalid", "true");
  await adjust(page, "Damaged", "Add or take away", "one");
  await expect(page.getByText("Enter a whole number other than 0, such as +12 or -1 (at most 100,000).")).toBeVisible();
  expect(await stockOf(product.id)).toBe(17);
  await expect(rows).toHaveCount(1);

  await adjust(page, "Damaged", "Add or take away", "-1", "Broken in the shop");
  await expect(toast(page, `Stock of ${name}: 17 → 16.`)).toBeVisible();
  await expect(page.locator("[data-stock-now]")).toHaveText("16");

  // The owner counts 10 on the shelf while a shopper buys 2: the count is not applied over the sale.
  await createOrderFromLines(shop.db, { channel: "checkout", userId: null, lines: [{ productId: product.id, quantity: 2 }], takeFromStock: true });
  await adjust(page, "Correction", "New count", "10", "Stock take");
  await expect(page.getByRole("alert").filter({ hasText: "The stock changed to 14 while you were counting" })).toBeVisible();
  await expect(page.locator("[data-stock-now]")).toHaveText("14");
  expect(await stockOf(product.id)).toBe(14);
  // Counted again against 14.
  await adjust(page, "Correction", "New count", "10", "Stock take");
  await expect(toast(page, `Stock of ${name}: 14 → 10.`)).toBeVisible();
  await expect(page.locator("[data-stock-now]")).toHaveText("10");
  expect(await stockOf(product.id)).toBe(10);
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("Correction");
  await expect(rows.first()).toContainText("-4");

  // The product form shows the stock but does not write it.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}&edit=${product.id}`);
  const dialog = page.getByRole("dialog", { name: "Edit Product" });
  await expect(dialog.getByLabel("Stock")).toHaveValue("10");
  await expect(dialog.getByLabel("Stock")).toHaveAttribute("readonly", "");
  await expect(dialog.getByRole("link", { name: "Adjust stock" })).toHaveAttribute("href", `/admin/products/${product.id}/stock`);

  // The audit log has the adjustments.
  await page.goto("/admin/audit");
  const latest = page.locator("tr", { hasText: name }).first();
  await expect(latest).toContainText("Stock adjustment");
  await expect(latest).toContainText("Correction");
  await expect(latest).toContainText("Stock take");
});

test("works without JavaScript, and pages a long history", async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const name = `Plain Form Rose ${stamp}`;
  const product = await newProduct(name, 3);
  for (let i = 1; i <= 22; i++) await adjustStock(shop.db, product.id, { reason: "received", change: 1, note: `Carton ${i}`, expected: null }, admin.userId);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, baseURL);
  const page = await context.newPage();
  await page.goto(`/admin/products/${product.id}/stock`);
  await expect(page.locator("[data-stock-now]")).toHaveText("25");
  await expect(page.getByText("22 adjustments")).toBeVisible();
  const rows = page.locator("[data-stock-entry]");
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText("Carton 22");
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows).toHaveCount(2);
  await expect(rows.last()).toContainText("Carton 1");

  await adjust(page, "Damaged", "Add or take away", "-26");
  await expect(page.getByRole("alert").filter({ hasText: "Only 25 in stock" })).toBeVisible();
  await adjust(page, "Damaged", "Add or take away", "-2", "Leaking caps");
  await expect(page.locator("[data-stock-now]")).toHaveText("23");
  await expect(rows.first()).toContainText("Leaking caps");
  expect(await stockOf(product.id)).toBe(23);
  await context.close();
});

test("a stock page for a product that does not exist is a 404, and customers cannot adjust", async ({ request }) => {
  expect((await request.get("/admin/products/999999/stock", { headers: { Cookie: `ub_session=${admin.token}` } })).status()).toBe(404);
  expect((await request.get("/admin/products/abc/stock", { headers: { Cookie: `ub_session=${admin.token}` } })).status()).toBe(404);
  const anonymous = await request.post("/admin/products/1/stock", { form: { reason: "received", amount: "+5" }, maxRedirects: 0 });
  expect([302, 303, 403]).toContain(anonymous.status());
});
