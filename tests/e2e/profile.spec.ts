import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";

// The profile's tabs are whole without JavaScript: nothing on them may arrive as hidden HTML that
// only a script reveals (docs/decisions/140).

let shop: DatabaseHandle;
test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

test("without JavaScript the addresses and favourites tabs show their content", async ({ browser, baseURL }) => {
  const { token } = await createCustomer(shop, `profile-nojs-${Date.now()}@example.com`);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  const page = await context.newPage();
  await page.goto("/profile?tab=addresses");
  await expect(page.getByLabel("Street Address")).toBeVisible();
  await page.goto("/profile?tab=favourites");
  await expect(page.locator("main")).toContainText(/favourite|wishlist/i);
  expect(await page.locator("[hidden][id^='S:']").count()).toBe(0);
  await context.close();
});
