import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import fs from "node:fs";
import type { DatabaseHandle } from "~/db/client.server";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";

// The owner narrows the orders list by payment status, with the other filters and without JavaScript,
// and the accountant's export starts from the same filters.

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

test("the orders list filters by payment status with the other filters, without JavaScript, and the export follows it", async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const admin = await createAdmin(shop, `filters-${stamp}@unboxed.example`, "Femi", "Owner");
  const email = `payer-${stamp}@example.com`;
  const customer = await createCustomer(shop, email, "Kemi", "Bello");
  const product = await shop.db.selectFrom("products").select("id").where("stock", ">", 5).where("archived_at", "is", null).orderBy("id").executeTakeFirstOrThrow();
  const items = [{ productId: product.id, quantity: 1 }];
  const unpaid = await insertOrder(shop.db, { userId: customer.userId, items });
  const paid = await insertOrder(shop.db, { userId: customer.userId, items, paidAt: new Date().toISOString() });
  const paidAndDelivered = await insertOrder(shop.db, { userId: customer.userId, items, status: "delivered", paidAt: new Date().toISOString() });

  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const page = await context.newPage();
  const rows = page.locator("[data-order-row]");

  await page.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  await expect(rows).toHaveCount(3);
  const filters = page.locator("form:not([role=search])", { has: page.getByRole("button", { name: "Filter" }) });
  await filters.getByLabel("Payment").selectOption({ label: "Paid" });
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/payment=paid/);
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(email).replace(/\./g, "\\.")}`));
  await expect(rows).toHaveCount(2);
  await expect(page.locator(`[data-order-row="${unpaid.number}"]`)).toHaveCount(0);
  for (const row of await rows.all()) await expect(row.locator("[data-payment-status]")).toHaveText("paid");

  // Combined with the fulfilment status.
  await filters.getByLabel("Status").selectOption({ label: "Delivered" });
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=delivered/);
  await expect(rows).toHaveCount(1);
  await expect(page.locator(`[data-order-row="${paidAndDelivered.number}"]`)).toBeVisible();

  // The export starts from what the list shows; with today's orders only, it holds ours that are paid and delivered.
  const exportForm = page.locator("[data-order-export]");
  await exportForm.locator("summary").click();
  await expect(exportForm.getByLabel("Payment")).toHaveValue("paid");
  await expect(exportForm.getByLabel("Status")).toHaveValue("delivered");
  const today = new Date(Date.now() + 60 * 60 * 1000).toISOString().slice(0, 10);
  await exportForm.getByLabel("From").fill(today);
  const [download] = await Promise.all([page.waitForEvent("download"), exportForm.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`unboxed-orders-from-${today}-delivered-paid.csv`);
  const exported = parse(fs.readFileSync((await download.path())!), { bom: true, columns: true }) as Record<string, string>[];
  const ours = exported.filter((r) => r.email === email).map((r) => r.order);
  expect(ours).toEqual([paidAndDelivered.number]);
  expect(exported.every((r) => r.payment === "paid" && r.status === "delivered")).toBe(true);
  expect(ours).not.toContain(paid.number);

  // A payment status that is not one of ours: the list ignores it, the export says what is wrong.
  await page.goto(`/admin/orders?q=${encodeURIComponent(email)}&payment=owed`);
  await expect(rows).toHaveCount(3);
  const refused = await page.request.get("/admin/orders/export?payment=owed");
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toBe("Choose paid, unpaid or refunded, or leave the payment open.");
  await context.close();
});
