import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { addBrand, addCategory, addProduct } from "../support/catalogue";
import { openShopDatabase } from "../support/e2e-shop";
import { hydrated } from "./support";

// What a shopper meets on a phone: pages that must not crash, names that match what is shown.

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);
// Made long ago, so they stay out of the home page's newest products that other journeys use.
const LONG_AGO = "2020-01-01T00:00:00.000Z";

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

test.describe("a product page", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("with no related items, or only one, hydrates and sells", async ({ page }) => {
    const [brand, alone, pair] = await Promise.all([addBrand(shop.db, `Lone Brand ${stamp}`), addCategory(shop.db, `Alone ${stamp}`), addCategory(shop.db, `Pair ${stamp}`)]);
    const only = await addProduct(shop.db, { brandId: brand.id, categoryId: alone.id, name: `First Of Its Kind ${stamp}`, createdAt: LONG_AGO });
    const first = await addProduct(shop.db, { brandId: brand.id, categoryId: pair.id, name: `One Of Two ${stamp}`, createdAt: LONG_AGO });
    await addProduct(shop.db, { brandId: brand.id, categoryId: pair.id, name: `Two Of Two ${stamp}`, createdAt: LONG_AGO });

    const problems = watch(page);
    await page.goto(`/shop/${only.id}`);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: only.name })).toBeVisible();
    await expect(page.getByRole("region", { name: "Related Items" })).toHaveCount(0);
    await page.getByRole("main").getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await expect(page.getByText("Something went wrong")).toHaveCount(0);

    await page.goto(`/shop/${first.id}`);
    await hydrated(page);
    const related = page.getByRole("region", { name: "Related Items" });
    await expect(related.locator("article")).toHaveCount(1);
    await expect(related.getByRole("link", { name: `Two Of Two ${stamp}` })).toBeVisible();
    await page.getByRole("main").getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(page.getByTestId("cart-count")).toHaveText("2");
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});

test.describe("the header", () => {
  test("the cart link's accessible name contains what it shows, in both languages and on a phone", async ({ page, browser }) => {
    await page.goto("/faq");
    const cart = page.getByRole("banner").getByRole("link", { name: /^Cart: 0 items, ₦0\.00$/ });
    await expect(cart).toHaveAttribute("href", "/cart");
    const mismatch = async (p: Page) => {
      const results = await new AxeBuilder({ page: p }).withRules(["label-content-name-mismatch"]).analyze();
      return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    };
    expect(await mismatch(page)).toEqual([]);

    await page.goto("/faq?lng=es");
    await expect(page.getByRole("banner").getByRole("link", { name: /^Carrito: 0 artículos, ₦0\.00$/ })).toBeVisible();
    expect(await mismatch(page)).toEqual([]);

    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const small = await phone.newPage();
    await small.goto("/faq");
    // The total is not shown on a phone, yet screen readers still hear it.
    await expect(small.getByRole("banner").getByRole("link", { name: /^Cart: 0 items, ₦0\.00$/ })).toBeVisible();
    expect(await mismatch(small)).toEqual([]);
    await phone.close();
  });

  test("the language menu says ESPAÑOL", async ({ page }) => {
    await page.goto("/about?lng=es");
    await expect(page.getByRole("banner").locator("summary")).toContainText("ESPAÑOL");
    await expect(page.locator("body")).not.toContainText("ESPANYOL");
  });
});
