import { expect, type Page, test } from "@playwright/test";
import { hydrated } from "./support";

/** "₦82,000.00", or "From ₦82,000.00" for a perfume whose sizes differ in price. */
const toNaira = (text: string) => Number(text.replace(/[^\d.]/g, ""));

/** The selling price on each card of the listing, in order. */
async function cardPrices(page: Page): Promise<number[]> {
  const texts = await page.locator("main article p > span.font-semibold").allInnerTexts();
  return texts.map(toNaira);
}

const ascending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1] <= v);
const descending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1] >= v);

test("sorts the shop by price, in the URL, across pages", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/shop");
  await hydrated(page);
  const sort = page.getByLabel("Sort by");
  await expect(sort).toHaveValue("newest");
  await sort.selectOption({ label: "Price: low to high" });
  await expect(page).toHaveURL(/\/shop\?sort=price-asc$/);
  await expect(page.getByText(/^Showing 1–8 of \d+ perfumes$/)).toBeVisible();
  // The address changes as the new list is fetched; the cards follow a moment later.
  await expect.poll(async () => ascending(await cardPrices(page))).toBe(true);
  const first = await cardPrices(page);
  expect(first).toHaveLength(8);
  expect(ascending(first), first.join(", ")).toBe(true);
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/sort=price-asc&page=2/);
  await expect(sort).toHaveValue("price-asc");
  await expect(page.getByText(/^Showing 9–16 of \d+ perfumes$/)).toBeVisible();
  const second = await cardPrices(page);
  expect(ascending(second)).toBe(true);
  expect(second[0]).toBeGreaterThanOrEqual(first.at(-1)!);

  await sort.selectOption({ label: "Price: high to low" });
  await expect(page).toHaveURL(/\/shop\?sort=price-desc$/);
  await expect.poll(async () => descending(await cardPrices(page))).toBe(true);
  const highest = (await cardPrices(page))[0];
  expect(highest).toBeGreaterThan(first[0]);
});

test("sorts without JavaScript, keeping the filters and the search", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/shop?q=parfum&min=50000");
  const sort = page.getByLabel("Sort by");
  await expect(sort).toHaveValue("relevance");
  await sort.selectOption({ label: "Price: high to low" });
  await page.getByRole("button", { name: "Sort", exact: true }).click();
  await expect(page).toHaveURL(/\/shop\?q=parfum&min=50000&sort=price-desc$/);
  await expect(page.getByLabel("Sort by")).toHaveValue("price-desc");
  const prices = await cardPrices(page);
  expect(prices.length).toBeGreaterThan(1);
  expect(descending(prices)).toBe(true);
  expect(Math.min(...prices)).toBeGreaterThanOrEqual(50_000);
  // The filters form carries the order along.
  await page.getByRole("complementary", { name: "Filters" }).getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/sort=price-desc/);
  await context.close();
});

test("the header search ignores accents and finds parts of words", async ({ page }) => {
  await page.goto("/");
  const search = page.getByRole("search").first().getByRole("searchbox", { name: "Search products" });
  await search.fill("memoire odeu");
  await search.press("Enter");
  await expect(page).toHaveURL(/\/shop\?q=memoire\+odeu$/);
  await expect(page.locator("main article")).toHaveCount(1);
  await expect(page.locator("main article").getByRole("link").first()).toContainText("Mémoire d'une Odeur");
  await page.goto("/shop?q=IDOLE");
  await expect(page.locator("main article").getByRole("link").first()).toContainText("Idôle");
});

/** The number shown beside a filter value, e.g. "Woody (6)" -> 6. */
async function countBeside(page: Page, label: string): Promise<number> {
  const text = await page.getByRole("complementary", { name: "Filters" }).locator("label", { hasText: label }).innerText();
  return Number(text.match(/\((\d+)\)/)?.[1]);
}

test("filters by scent family and concentration without JavaScript, several values at once, with counts", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/shop");
  const filters = page.getByRole("complementary", { name: "Filters" });
  await filters.getByRole("checkbox", { name: /Eau de Parfum \(EDP\)/ }).check();
  await filters.getByRole("checkbox", { name: /^Woody/ }).check();
  await filters.getByRole("checkbox", { name: /^Floral/ }).check();
  await filters.getByRole("button", { name: "Apply filters" }).click();
  // Without JavaScript the form also sends the price range as it stands.
  await expect(page).toHaveURL(/\/shop\?concentration=edp&family=woody&family=floral(&min=0&max=600000)?$/);
  await expect(filters.getByRole("checkbox", { name: /^Woody/ })).toBeChecked();
  const woody = await countBeside(page, "Woody");
  const floral = await countBeside(page, "Floral");
  expect(woody).toBeGreaterThan(0);
  expect(floral).toBeGreaterThan(0);
  await expect(page.getByText(new RegExp(`of ${woody + floral} perfumes$`))).toBeVisible();
  // Combined with a category and a sort, all in the URL.
  await page.getByLabel("Sort by").selectOption({ label: "Price: low to high" });
  await page.getByRole("button", { name: "Sort", exact: true }).click();
  await expect(page).toHaveURL(/concentration=edp&family=woody&family=floral&sort=price-asc/);
  expect(ascending(await cardPrices(page))).toBe(true);
  await context.close();
});

test("a scent family applies at once with JavaScript, and Reset clears it", async ({ page }) => {
  await page.goto("/shop");
  await hydrated(page);
  const filters = page.getByRole("complementary", { name: "Filters" });
  const citrus = await countBeside(page, "Citrus");
  await filters.getByRole("checkbox", { name: /^Citrus/ }).check();
  await expect(page).toHaveURL(/\/shop\?family=citrus$/);
  await expect(page.getByText(new RegExp(`of ${citrus} perfumes?$`))).toBeVisible();
  await filters.getByRole("link", { name: "Reset scent families" }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(filters.getByRole("checkbox", { name: /^Citrus/ })).not.toBeChecked();
});
