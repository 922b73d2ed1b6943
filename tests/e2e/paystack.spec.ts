import { type Browser, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { addFirstFromHome, hydrated } from "./support";

// Paying online: the shop talks to the Paystack stand-in that playwright.config.ts starts
// (tests/support/paystack-stand-in.ts), which has a hosted checkout page and sends signed webhooks.

let shop: DatabaseHandle;
let counter = 0;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.db.destroy();
});

async function customer(browser: Browser, baseURL: string | undefined, javaScriptEnabled = true) {
  const email = `online-${stamp}-${++counter}@example.com`;
  const { token } = await createCustomer(shop, email);
  const context = await browser.newContext({ javaScriptEnabled });
  await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  return { email, context, page: await context.newPage() };
}


async function fillKano(page: Page) {
  await page.getByLabel("Street Address").fill("4 Bompai Road");
  await page.getByLabel("City").fill("Kano");
  await page.getByLabel("State").selectOption("Kano");
}

const paymentStatus = async (number: string) =>
  (await shop.db.selectFrom("orders").select("payment_status").where("number", "=", number).executeTakeFirstOrThrow()).payment_status;

test("a shopper in Kano sees Kano's fee, pays online through Paystack and lands on a paid order", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { page, context, email } = await customer(browser, baseURL);
  await addFirstFromHome(page);
  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  await fillKano(page);
  await expect(page.getByTestId("checkout-delivery")).toHaveText("₦7,500.00");
  const total = (await page.getByTestId("checkout-total").innerText()).trim();
  await expect(page.getByRole("radio", { name: /Pay online \(card, transfer, USSD\)/ })).toBeChecked();
  await page.getByRole("button", { name: "Process Order" }).click();

  // Paystack's hosted page (the stand-in) asks for exactly the order's total.
  await expect(page.getByRole("heading", { name: "Paystack Checkout" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.locator("[data-amount]")).toHaveText(total);
  await page.getByRole("button", { name: /with card/ }).click();

  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const number = page.url().split("/").pop()!;
  await expect(page.locator("header [data-payment-status]")).toHaveText("paid");
  await expect(page.getByTestId("order-delivery")).toHaveText("₦7,500.00");
  await expect(page.getByTestId("order-total")).toHaveText(total);
  await expect(page.getByTestId("order-payment")).toContainText("Paid online with Paystack");
  expect(await paymentStatus(number)).toBe("paid");
  // The webhook and the return arrived together: one 'payment received' e-mail.
  await expect
    .poll(async () => (await readOutbox(E2E_DATA_DIR, email)).map((m) => decodeQuotedPrintable(m.raw)).filter((m) => m.includes(`Subject: Payment received for your Unboxed order ${number}`)).length)
    .toBe(1);
  await context.close();
});

test("a cancelled payment leaves the order unpaid with 'Pay now', which then goes through", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { page, context } = await customer(browser, baseURL);
  await addFirstFromHome(page);
  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  await fillKano(page);
  await page.getByRole("button", { name: "Process Order" }).click();
  await page.getByRole("button", { name: "Cancel payment" }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const number = page.url().split("/").pop()!;
  await expect(page.getByText("Your payment did not go through.").first()).toBeVisible();
  await expect(page.locator("header [data-payment-status]")).toHaveText("unpaid");
  await page.getByRole("button", { name: "Pay now" }).click();
  await page.getByRole("button", { name: /with USSD/ }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${number}$`));
  await expect(page.locator("header [data-payment-status]")).toHaveText("paid");
  expect(await paymentStatus(number)).toBe("paid");
  await context.close();
});

test("the whole online payment works with JavaScript off", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { page, context } = await customer(browser, baseURL, false);
  await addFirstFromHome(page, { javaScript: false });
  await page.goto("/checkout");
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  await fillKano(page);
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page.getByText(/Delivery to Kano is ₦7,500\.00\. Your total is ₦[\d,.]+\./)).toBeVisible();
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page.getByRole("heading", { name: "Paystack Checkout" })).toBeVisible();
  await page.getByRole("button", { name: /with bank transfer/ }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const number = page.url().split("/").pop()!;
  await expect(page.locator("header [data-payment-status]")).toHaveText("paid");
  expect(await paymentStatus(number)).toBe("paid");
  await context.close();
});
