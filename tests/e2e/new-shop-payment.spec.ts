import { expect, test } from "@playwright/test";
import { createAdmin, createCustomer } from "../support/e2e-shop";
import { firstSizeOf, makeProducts } from "../support/catalogue";
import { shopForThisSpec } from "../support/own-shop";
import { hydrated } from "./support";

// A new shop (the seeded delivery zones, neither Paystack nor bank details): a shopper outside Lagos is
// told why the order cannot be paid for online and offered WhatsApp; the owner's dashboard names the
// states shoppers cannot pay from.
const own = shopForThisSpec("unboxed-new-shop-");

test("outside Lagos the checkout offers WhatsApp and says why; the dashboard names the states", async ({ browser }) => {
  const db = own.database.db;
  const [musk] = await makeProducts(db, [{ name: "Harmattan Musk", price: 2_500_000, stock: 5 }]);
  const shopper = await createCustomer(own.database, "kano-shopper@example.com");
  const at = new Date().toISOString();
  await db.insertInto("carts").values({ id: `new-shop-cart-${"k".repeat(24)}`, user_id: shopper.userId, created_at: at, updated_at: at }).execute();
  await db.insertInto("cart_lines").values({ cart_id: `new-shop-cart-${"k".repeat(24)}`, product_id: musk, size_id: firstSizeOf(musk), quantity: 1, created_at: at }).execute();

  const context = await browser.newContext();
  await context.addCookies([{ name: "ub_session", value: shopper.token, url: own.shop.base }]);
  const page = await context.newPage();
  await page.goto(`${own.shop.base}/checkout`);
  await hydrated(page);
  await page.getByLabel("State").selectOption("Kano");
  await expect(page.getByTestId("no-payment")).toHaveText(
    "Orders to Kano cannot be paid for online yet. You can still order on WhatsApp: we agree delivery and payment with you in the chat.",
  );
  await expect(page.getByRole("button", { name: "Order on WhatsApp instead" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Process Order" })).toBeDisabled();
  // Lagos can pay on delivery: no WhatsApp detour there.
  await page.getByLabel("State").selectOption("Lagos");
  await expect(page.getByRole("radio", { name: /Pay on delivery/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Order on WhatsApp instead" })).toHaveCount(0);
  await context.close();

  const owner = await createAdmin(own.database, "new-owner@example.com");
  const ownerContext = await browser.newContext();
  await ownerContext.addCookies([{ name: "ub_session", value: owner.token, url: own.shop.base }]);
  const admin = await ownerContext.newPage();
  await admin.goto(`${own.shop.base}/admin`);
  const checklist = admin.getByTestId("setup-checklist");
  await expect(checklist.getByRole("heading", { name: "Setting up the shop" })).toBeVisible();
  await expect(checklist.locator('[data-setup="zones"]')).toContainText("Shoppers in 36 states cannot pay");
  await expect(checklist.locator('[data-setup="zones"]')).toContainText("Kano");
  await expect(checklist.locator('[data-setup="payment"][data-done="no"]')).toBeVisible();
  await expect(checklist.locator('[data-setup="bank"][data-done="no"]')).toBeVisible();
  await expect(checklist.locator('[data-setup="ownerEmail"][data-done="no"]')).toBeVisible();
  await ownerContext.close();
});
