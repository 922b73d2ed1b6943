import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";
import { decodeQuotedPrintable } from "../support/mail";
import { addFirstFromHome, hydrated } from "./support";

// Delivery fees by state and the ways to pay, as a shopper and the owner meet them.

let shop: DatabaseHandle;
let admin: { token: string };
let counter = 0;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `owner-pay-${stamp}@example.com`);
});
test.afterAll(async () => {
  await shop?.db.destroy();
});

async function signedIn(browser: Browser, baseURL: string | undefined, token: string, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled });
  await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  return { context, page: await context.newPage() };
}

async function customer(browser: Browser, baseURL: string | undefined, javaScriptEnabled = true) {
  const email = `payer-${stamp}-${++counter}@example.com`;
  const { token } = await createCustomer(shop, email);
  return { email, ...(await signedIn(browser, baseURL, token, javaScriptEnabled)) };
}

/** Puts the first perfume of the home page that can be bought into the cart. */

const mailsTo = async (email: string) => (await readOutbox(E2E_DATA_DIR, email)).map((m) => decodeQuotedPrintable(m.raw));

test("a shopper in Kano sees Kano's fee at once, pays by bank transfer, and the owner marks the order paid", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const shopper = await customer(browser, baseURL);
  const { page } = shopper;
  await addFirstFromHome(page);
  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  const subtotal = (await page.getByTestId("checkout-subtotal").innerText()).trim();
  await page.getByLabel("Street Address").fill("4 Bompai Road");
  await page.getByLabel("City").fill("Kano");
  await page.getByLabel("State").selectOption("Kano");
  await expect(page.getByTestId("checkout-delivery")).toHaveText("₦7,500.00");
  await expect(page.getByText("Rest of Nigeria: 3-7 working days")).toBeVisible();
  const total = (await page.getByTestId("checkout-total").innerText()).trim();
  const kobo = (text: string) => Math.round(Number(text.replace(/[₦,]/g, "")) * 100);
  expect(kobo(total)).toBe(kobo(subtotal) + 750_000);
  // Pay on delivery is for Lagos only (the seeded zones); transfer is offered.
  await expect(page.getByRole("radio", { name: /Pay on delivery/ })).toHaveCount(0);
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByRole("button", { name: "Process Order" }).click();

  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const number = page.url().split("/").pop()!;
  await expect(page.getByTestId("order-delivery")).toHaveText("₦7,500.00");
  await expect(page.getByTestId("order-total")).toHaveText(total);
  await expect(page.getByText(`Pay by bank transfer to Demo Bank, Unboxed Perfumes Ltd, account number 0123456789, with ${number} as the reference.`)).toBeVisible();
  await expect(page.locator("header [data-payment-status]")).toHaveText("unpaid");
  await expect.poll(async () => (await mailsTo(shopper.email)).find((m) => m.includes(`Subject: Your Unboxed order ${number}`))).toContain("Delivery: ₦7,500.00");

  const owner = await signedIn(browser, baseURL, admin.token);
  await owner.page.goto("/admin/orders?payment=unpaid");
  const row = owner.page.locator(`[data-order-row="${number}"]`);
  await expect(row.locator("[data-payment-status]")).toHaveText("unpaid");
  await row.getByRole("link", { name: number }).click();
  await expect(owner.page.getByTestId("payment-method")).toHaveText("Bank transfer");
  await expect(owner.page.getByTestId("admin-order-delivery")).toHaveText("₦7,500.00");
  await owner.page.getByRole("button", { name: "Mark as paid" }).click();
  await expect(owner.page.locator("[data-sonner-toast]").filter({ hasText: `Order ${number} is marked as paid; the customer has been e-mailed` })).toBeVisible();
  await expect(owner.page.getByRole("button", { name: "Mark as paid" })).toHaveCount(0);
  await owner.page.goto("/admin/orders?payment=paid");
  await expect(owner.page.locator(`[data-order-row="${number}"] [data-payment-status]`)).toHaveText("paid");
  await owner.page.goto("/admin/audit");
  await expect(owner.page.locator("tr", { hasText: number }).first()).toContainText("Payment");

  await page.reload();
  await expect(page.locator("header [data-payment-status]")).toHaveText("paid");
  await expect(page.getByRole("heading", { name: "How to pay" })).toHaveCount(0);
  await expect.poll(async () => (await mailsTo(shopper.email)).some((m) => m.includes(`Subject: Payment received for your Unboxed order ${number}`))).toBe(true);
  await page.goto("/profile?tab=orders");
  await expect(page.locator("tr", { hasText: number }).locator("[data-payment-status]")).toHaveText("paid");
  await owner.context.close();
  await shopper.context.close();
});

test("pick-up at the shop is free, needs no address and can be paid on collection", async ({ browser, baseURL }) => {
  const shopper = await customer(browser, baseURL);
  const { page } = shopper;
  await addFirstFromHome(page);
  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  await page.getByRole("radio", { name: /Pick up at the shop/ }).check();
  await expect(page.getByLabel("Street Address")).toBeHidden();
  await expect(page.getByTestId("checkout-delivery")).toHaveText("FREE");
  await expect(page.getByTestId("checkout-total")).toHaveText((await page.getByTestId("checkout-subtotal").innerText()).trim());
  await page.getByRole("radio", { name: /Pay on delivery/ }).check();
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  await expect(page.getByText("Pick up at the shop: Unboxed, 12 Admiralty Way, Lekki Phase 1, Lagos")).toBeVisible();
  await expect(page.getByTestId("order-delivery")).toHaveText("FREE");
  await expect(page.getByText("Pay in cash or by POS when you collect it.")).toBeVisible();
  await shopper.context.close();
});

test("without JavaScript, pick-up hides the address and the page shows the total before placing the order", async ({ browser, baseURL }) => {
  const shopper = await customer(browser, baseURL, false);
  const { page } = shopper;
  await addFirstFromHome(page, { javaScript: false });
  await page.goto("/checkout");
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  await page.getByRole("radio", { name: /Pick up at the shop/ }).check();
  await expect(page.getByLabel("Street Address")).toBeHidden();
  await page.getByRole("radio", { name: /Pay on delivery/ }).check();
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page.getByText(/Pick-up at the shop is free\. Your total is ₦[\d,.]+\. Press Process Order/)).toBeVisible();
  await expect(page.getByTestId("checkout-delivery")).toHaveText("FREE");
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  await expect(page.getByText(/Pick up at the shop: Unboxed/)).toBeVisible();
  await shopper.context.close();
});

test("the owner moves a state into a new zone at /admin/delivery, and checkout charges its fee", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const owner = await signedIn(browser, baseURL, admin.token);
  await owner.page.goto("/admin/delivery");
  await hydrated(owner.page);
  const added = owner.page.locator('[data-zone="new"]');
  await added.getByLabel("Zone name").fill("Far North");
  await added.getByLabel("Fee (₦)").fill("12,000");
  await added.getByLabel("Estimated time").fill("5-9 working days");
  await owner.page.getByLabel("Zamfara").selectOption({ label: "The new zone" });
  await owner.page.getByRole("button", { name: "Save delivery settings" }).click();
  await expect(owner.page.locator("[data-sonner-toast]").filter({ hasText: "Delivery settings saved" })).toBeVisible();
  await expect(owner.page.locator('[data-zone="Far North"]')).toBeVisible();
  await expect(owner.page.getByLabel("Zamfara")).toHaveValue(/^\d+$/);

  // A fee that is not naira is refused with the field named, and nothing is saved.
  await owner.page.locator('[data-zone="Far North"]').getByLabel("Fee (₦)").fill("twelve");
  await owner.page.getByRole("button", { name: "Save delivery settings" }).click();
  await expect(owner.page.getByText("Please enter a fee in naira between 0 and 1,000,000")).toBeVisible();

  const shopper = await customer(browser, baseURL);
  await addFirstFromHome(shopper.page);
  await shopper.page.goto("/checkout");
  await hydrated(shopper.page);
  await shopper.page.getByLabel("Mobile number").fill("0803 123 4567");
  await shopper.page.getByLabel("State").selectOption("Zamfara");
  await expect(shopper.page.getByTestId("checkout-delivery")).toHaveText("₦12,000.00");
  await expect(shopper.page.getByText("Far North: 5-9 working days")).toBeVisible();
  await owner.context.close();
  await shopper.context.close();
});

test("a WhatsApp order gets the delivery fee agreed in the chat, then is marked paid", async ({ browser, baseURL }) => {
  const { id: productId } = await shop.db.selectFrom("products").select("id").where("stock", ">", 3).where("archived_at", "is", null).orderBy("id").executeTakeFirstOrThrow();
  const order = await insertOrder(shop.db, { channel: "whatsapp", userId: null, address: null, items: [{ productId, quantity: 1 }] });
  const owner = await signedIn(browser, baseURL, admin.token);
  await owner.page.goto(`/admin/orders/${order.number}`);
  await expect(owner.page.getByTestId("admin-order-delivery")).toHaveText("Confirmed in the chat");
  await owner.page.getByLabel("Delivery fee (₦)").fill("2500");
  await owner.page.getByRole("button", { name: "Set delivery fee" }).click();
  await expect(owner.page.locator("[data-sonner-toast]").filter({ hasText: `Order ${order.number}: delivery fee set to ₦2,500.00` })).toBeVisible();
  await expect(owner.page.getByTestId("admin-order-delivery")).toHaveText("₦2,500.00");
  const row = await shop.db.selectFrom("orders").select(["shipping", "total"]).where("number", "=", order.number).executeTakeFirstOrThrow();
  expect(row).toEqual({ shipping: 250_000, total: order.total + 250_000 });
  await owner.page.getByRole("button", { name: "Mark as paid" }).click();
  await expect(owner.page.locator("[data-sonner-toast]").filter({ hasText: `Order ${order.number} is marked as paid` })).toBeVisible();
  await expect(owner.page.getByLabel("Delivery fee (₦)")).toHaveCount(0);
  await owner.context.close();
});
