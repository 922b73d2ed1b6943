import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";

// The owner's customers screen: find an account by part of its name, see what it has bought, open it.

let shop: DatabaseHandle;
let admin: { userId: number; token: string };
let customer: { userId: number; token: string };
let paidNumber: string;
const stamp = Date.now().toString(36);
const email = `temitope-${stamp}@example.com`;

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `people-${stamp}@unboxed.example`, "Bisi", "Owner");
  customer = await createCustomer(shop, email, "Temitope", `Bankole${stamp}`);
  const [product] = await shop.db.selectFrom("products").select(["id", "price"]).where("archived_at", "is", null).where("stock", ">", 5).orderBy("id").limit(1).execute();
  const paid = await insertOrder(shop.db, { userId: customer.userId, items: [{ productId: product.id, quantity: 2 }], paidAt: new Date().toISOString() });
  paidNumber = paid.number;
  await insertOrder(shop.db, { userId: customer.userId, items: [{ productId: product.id, quantity: 1 }] });
  await shop.db.insertInto("addresses").values({ user_id: customer.userId, street: "14 Awolowo Road", city: "Ikoyi", state: "Lagos", country: "Nigeria", created_at: new Date().toISOString() }).execute();
});
test.afterAll(async () => {
  await shop?.close();
});

test("the owner searches for a customer, sees what they spent and opens their page and order", async ({ page, context, baseURL }) => {
  test.setTimeout(60_000);
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const paid = await shop.db.selectFrom("orders").select("total").where("number", "=", paidNumber).executeTakeFirstOrThrow();
  const spent = new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN" }).format(paid.total / 100);

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Customers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search customers" }).fill(`BANKOLE${stamp}`.toUpperCase());
  await page.getByRole("searchbox", { name: "Search customers" }).press("Enter");
  await expect(page).toHaveURL(/q=BANKOLE/);
  const rows = page.locator("[data-customer-row]");
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toHaveAttribute("data-customer-row", email);
  await expect(row.locator("[data-orders]")).toHaveText("2");
  await expect(row.locator("[data-spent]")).toHaveText(spent);

  await row.getByRole("link", { name: `Temitope Bankole${stamp}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Temitope Bankole${stamp}` })).toBeVisible();
  await expect(page.locator("[data-customer-details]")).toContainText(email);
  await expect(page.locator("[data-customer-address]")).toContainText("14 Awolowo Road");
  await expect(page.locator("[data-customer-order]")).toHaveCount(2);
  await expect(page.locator("[data-wishlist-count]")).toHaveText("0 products in their wishlist");
  await page.getByRole("link", { name: paidNumber }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${paidNumber}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(paidNumber);
});

test("on a phone the customers table becomes cards, with nothing wider than the screen", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const page = await context.newPage();
  await page.goto(`/admin/customers?q=${encodeURIComponent(email)}`);
  const row = page.locator("[data-customer-row]").first();
  await expect(row).toBeVisible();
  // Each cell is a line of its card, its column's name before the value.
  await expect(page.locator("table thead")).toHaveCSS("position", "absolute");
  await expect(row).toHaveCSS("display", "block");
  const width = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(width).toBeLessThanOrEqual(0);
  await context.close();
});
