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

test("the owner makes a customer a manager, the audit log shows it, and taking the role away locks them out", async ({ page, context, baseURL, browser }) => {
  test.setTimeout(90_000);
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const name = `Temitope Bankole${stamp}`;

  await page.goto(`/admin/customers?q=${encodeURIComponent(email)}`);
  await page.locator("[data-customer-row]").first().getByRole("link", { name }).click();
  const panel = page.locator("[data-role-panel]");
  await expect(panel).toContainText(`${name} shops as a customer`);
  await panel.getByRole("link", { name: "Make manager" }).click();
  const dialog = page.getByRole("dialog", { name: `Change ${name}'s role to Manager?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Make manager" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: `${email} now has the role Manager.` })).toBeVisible();
  await expect(page.locator("[data-customer-role]")).toHaveAttribute("data-customer-role", "manager");
  await expect(panel).toContainText(`${name} is a manager`);

  // The list shows them among the managers.
  await page.goto(`/admin/customers?q=${encodeURIComponent(email)}`);
  await expect(page.locator("[data-customer-row]")).toHaveCount(1);
  await page.getByLabel("Role").selectOption("manager");
  await expect(page).toHaveURL(/role=manager/);
  await expect(page.locator("[data-customer-row]")).toHaveCount(1);
  await expect(page.locator("[data-customer-row] [data-role-badge=manager]")).toBeVisible();

  // Their own browser, already signed in, now opens the admin area.
  const theirs = await browser.newContext();
  await theirs.addCookies([{ name: "ub_session", value: customer.token, url: baseURL! }]);
  const their = await theirs.newPage();
  expect((await their.goto("/admin/customers"))?.status()).toBe(200);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit log" }).click();
  const entry = page.locator('[data-audit-entry="user:update"]').first();
  await expect(entry).toContainText("Changed account");
  await expect(entry).toContainText(email);
  await expect(entry).toContainText("Bisi Owner");
  await expect(entry.locator('[data-change="role"]')).toHaveText("Role: Customer → Manager");
  await entry.getByRole("link", { name: email }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/customers/${customer.userId}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // Taken away again: their sessions end, so their next admin page asks them to sign in (docs/decisions/222).
  await panel.getByRole("link", { name: "Remove staff access" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove staff access" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: `${email} now has the role Customer.` })).toBeVisible();
  await their.goto("/admin/customers");
  await expect(their).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Fcustomers/);
  await theirs.close();

  // The owner's own page offers no way to change their own role.
  await page.goto(`/admin/customers/${admin.userId}`);
  await expect(page.locator("[data-role-panel]")).toContainText("This is your own account.");
  await expect(page.locator("[data-role-panel]").getByRole("link")).toHaveCount(0);
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
