import fs from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { confirmFromEmail, hydrated, signedInAsNewCustomer } from "./support";

// Its own shopper address: the server trusts the local proxy's X-Forwarded-For, and the per-IP
// registration limit is then this file's own.
const OUR_ADDRESS = { "X-Forwarded-For": "203.0.113.60" };
test.use({ extraHTTPHeaders: OUR_ADDRESS });

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

async function register(page: Page, email: string) {
  await page.goto("/auth/register");
  await page.getByLabel("First Name").fill("Chioma");
  await page.getByLabel("Last Name").fill("Eze");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a long enough password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await confirmFromEmail(page, email);
  await expect(page).toHaveURL(/\/$/);
}

/** Adds the first `count` products of the home page that can be bought; returns their names. */
async function addFromHome(page: Page, count: number, { javaScript = true } = {}): Promise<string[]> {
  await page.goto("/");
  if (javaScript) await hydrated(page);
  const addable = page.locator("main article").filter({ has: page.getByRole("button", { name: "Add to Cart" }) });
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    // The page's lists are loaded again after each add and may change order: a card is found by its
    // perfume's name, not by its place, so the name kept is the one added.
    const titles = (await addable.locator("h3").allInnerTexts()).map((title) => title.trim());
    const name = titles.find((title) => !names.includes(title));
    if (!name) throw new Error(`fewer than ${count} perfumes to add on the home page`);
    names.push(name);
    const card = addable.filter({ has: page.getByRole("heading", { name, exact: true }) }).first();
    const before = Number(await page.getByTestId("cart-count").innerText());
    await card.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText(String(before + 1));
    await page.waitForLoadState("networkidle");
  }
  return names;
}

function confirmationFor(email: string): string | undefined {
  const dir = path.join(E2E_DATA_DIR, "mail");
  if (!fs.existsSync(dir)) return undefined;
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .map((name) => fs.readFileSync(path.join(dir, name), "utf8"))
    .find((raw) => raw.includes(`To: ${email}`) && /Subject: Your Unboxed order UB-\d+/.test(raw));
}

test("sign in, add two perfumes, check out with a new saved address, then find the order, the address and the wishlist in the profile", async ({ page }) => {
  const email = uniqueEmail("checkout");
  await register(page, email);
  const names = await addFromHome(page, 2);

  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  const summary = page.getByRole("complementary");
  for (const name of names) await expect(summary.getByText(name)).toBeVisible();
  // No fee before the state is known, and no 'FREE' either: delivery to Lagos costs ₦3,000.
  await expect(page.getByTestId("checkout-delivery")).toHaveText("Choose your state");
  await expect(summary.getByText("FREE", { exact: true })).toHaveCount(0);

  await page.getByLabel("Street Address").fill("15 Bourdillon Road");
  await page.getByLabel("City").fill("Ikoyi");
  await page.getByLabel("State").selectOption("Lagos");
  await expect(page.getByTestId("checkout-delivery")).toHaveText("₦3,000.00");
  const total = (await page.getByTestId("checkout-total").innerText()).trim();
  expect(total).toMatch(/^₦[\d,]+\.\d{2}$/);
  await expect(page.getByLabel("Country")).toHaveValue("Nigeria");
  await page.getByLabel("Save this information for faster check-out next time").check();
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByRole("button", { name: "Process Order" }).click();

  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const number = page.url().split("/").pop()!;
  await expect(page.getByText(`Order ${number} placed. Thank you!`)).toBeVisible();
  await expect(page.getByRole("heading", { name: `Order ${number}` })).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText(total);
  for (const name of names) await expect(page.getByRole("table").getByText(name)).toBeVisible();
  await expect(page.getByText("15 Bourdillon Road, Ikoyi, Lagos, Nigeria")).toBeVisible();
  await expect.poll(() => confirmationFor(email)).toBeTruthy();

  // The cart is empty now.
  await page.goto("/cart");
  await expect(page.getByText("Your cart is empty")).toBeVisible();

  await page.goto("/profile?tab=orders");
  const row = page.getByRole("row").filter({ hasText: number });
  await expect(row).toContainText(total);
  await expect(row.locator("[data-status=pending]")).toHaveText("pending");
  await expect(row.locator("[data-status=pending]")).toHaveClass(/bg-yellow-100/);
  await row.getByRole("link", { name: `View details of order ${number}` }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${number}$`));

  await page.goto("/profile?tab=addresses");
  await expect(page.getByText("15 Bourdillon Road")).toBeVisible();

  // Wishlist: add from a card, see it under favourites, take it out again.
  await page.goto("/");
  const card = page.locator("main article").first();
  const cardName = (await card.locator("h3").innerText()).trim();
  await card.getByRole("button", { name: "Add to wishlist" }).click();
  await expect(page.getByText("Added to your wishlist")).toBeVisible();
  await expect(card.getByRole("button", { name: "Remove from wishlist" })).toHaveAttribute("aria-pressed", "true");
  await page.goto("/profile?tab=favourites");
  await expect(page.getByRole("heading", { name: "My Wishlist" })).toBeVisible();
  const favourite = page.locator("main article").filter({ hasText: cardName });
  await expect(favourite).toHaveCount(1);
  await favourite.getByRole("button", { name: "Remove from wishlist" }).click();
  await expect(page.getByText("Removed from your wishlist")).toBeVisible();
  await expect(page.locator("main article").filter({ hasText: cardName })).toHaveCount(0);
});

// The journeys after the first start signed in: sign-up through the pages is the first one's (and accounts.spec.ts's).
test("a saved address card fills and locks the form, and a second click lets it go", async ({ page, context, baseURL }) => {
  await signedInAsNewCustomer(context, baseURL!, uniqueEmail("cards"));
  await page.goto("/profile?tab=addresses");
  await page.getByLabel("Street Address").fill("7 Gimbiya Street");
  await page.getByLabel("City").fill("Garki");
  await page.getByLabel("State").selectOption("Federal Capital Territory");
  await page.getByRole("button", { name: "Add Address" }).click();
  await expect(page.getByText("Address Added Successfully")).toBeVisible();

  await addFromHome(page, 1);
  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  const card = page.getByRole("radio", { name: /7 Gimbiya Street/ });
  await card.click();
  await expect(page.getByLabel("Street Address")).toHaveValue("7 Gimbiya Street");
  await expect(page.getByLabel("Street Address")).toBeDisabled();
  await expect(page.getByLabel("Save this information for faster check-out next time")).toHaveCount(0);
  await card.click();
  await expect(page.getByLabel("Street Address")).toHaveValue("");
  await expect(page.getByLabel("Street Address")).toBeEnabled();
  await expect(page.getByLabel("Save this information for faster check-out next time")).toBeVisible();

  await card.click();
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  await expect(page.getByText("7 Gimbiya Street, Garki, Federal Capital Territory, Nigeria")).toBeVisible();
});

async function withoutJavaScript(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: OUR_ADDRESS });
  return { context, page: await context.newPage() };
}

test("checks out with JavaScript disabled", async ({ browser, baseURL }) => {
  const { context, page } = await withoutJavaScript(browser);
  await signedInAsNewCustomer(context, baseURL!, uniqueEmail("nojs"));
  await addFromHome(page, 1, { javaScript: false });
  await page.goto("/checkout");
  await page.getByRole("button", { name: "Process Order" }).click();
  // Empty fields: the spec's messages, next to the fields, and no order.
  await expect(page.getByLabel("Street Address")).toHaveAccessibleDescription("Please input your street name");
  await expect(page.getByLabel("City")).toHaveAccessibleDescription("Please input your city");
  await expect(page.getByLabel("Mobile number")).toHaveAccessibleDescription(/^Please input your mobile number/);
  // A number as people write it is taken (and kept when the page shows the total first).
  await page.getByLabel("Mobile number").fill("+234 (0) 803-123-4567");
  await page.getByLabel("Street Address").fill("2 Ogui Road");
  await page.getByLabel("City").fill("Enugu");
  await page.getByLabel("State").selectOption("Enugu");
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByRole("button", { name: "Process Order" }).click();
  // Without JavaScript the page first shows Enugu's fee and the total, and places nothing yet.
  await expect(page.getByText(/Delivery to Enugu is ₦7,500\.00\. Your total is ₦[\d,.]+\. Press Process Order/)).toBeVisible();
  await expect(page.getByTestId("checkout-delivery")).toHaveText("₦7,500.00");
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  await expect(page.getByTestId("order-delivery")).toHaveText("₦7,500.00");
  await expect(page.getByText("2 Ogui Road, Enugu, Enugu, Nigeria")).toBeVisible();
  await expect(page.getByText("+234 803 123 4567")).toBeVisible();
  await context.close();
});

test("signed-out shoppers may check out as guests or sign in first, and other people's orders are not found", async ({ page, context, baseURL }) => {
  await addFromHome(page, 1);
  await page.goto("/checkout");
  // Guest checkout (docs/decisions/217) offers to sign in instead, and comes back here after.
  await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcheckout$/);
  await signedInAsNewCustomer(context, baseURL!, uniqueEmail("nosy"));
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  const response = await page.goto("/orders/UB-10001");
  expect(response?.status()).toBe(404);
});

test("an anonymous shopper's wishlist heart leads to sign in, and back to the page after", async ({ page }) => {
  await page.goto("/shop");
  await hydrated(page);
  await page.locator("main article").first().getByRole("button", { name: "Add to wishlist" }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fshop$/);
  await page.getByRole("link", { name: "Create Account" }).click();
  await page.getByLabel("First Name").fill("Ngozi");
  await page.getByLabel("Last Name").fill("Okafor");
  const email = uniqueEmail("heart");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a long enough password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await confirmFromEmail(page, email);
  await expect(page).toHaveURL(/\/shop$/);
});
