import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { addBrand, addCategory, addProduct } from "../support/catalogue";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { hydrated } from "./support";

// Categories speak the shopper's language, and the owner is never stuck with a category or brand that
// only archived products hold.

let shop: DatabaseHandle;
let admin: { token: string };
let customer: { token: string };
const stamp = Date.now().toString(36);
// Made long ago, so they stay out of the home page's newest products that other journeys use.
const LONG_AGO = "2020-01-01T00:00:00.000Z";

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `taxonomy-owner-${stamp}@unboxed.example`);
  customer = await createCustomer(shop, `taxonomy-shopper-${stamp}@example.com`);
});
test.afterAll(async () => {
  await shop?.close();
});

async function signIn(context: BrowserContext, token: string, baseURL: string | undefined) {
  await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

test("a category has a name per language: the admin gives both, the shop shows the shopper's", async ({ browser, baseURL }) => {
  const owner = await browser.newContext();
  await signIn(owner, admin.token, baseURL);
  const page = await owner.newPage();
  await page.goto("/admin/categories");
  await hydrated(page);
  await page.getByRole("link", { name: "Add Category" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Category" });
  await dialog.getByLabel("Category Name").fill(`Woody ${stamp}`);
  await dialog.getByLabel("Name in Spanish").fill(`Amaderado ${stamp}`);
  await dialog.getByRole("button", { name: "Create Category" }).click();
  await expect(toast(page, `Category “Woody ${stamp}” created`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: `Woody ${stamp}` });
  await expect(row).toContainText(`Amaderado ${stamp}`);
  await owner.close();

  // A product in it, so the shop offers it.
  const category = await shop.db.selectFrom("categories").select("id").where("name", "=", `Woody ${stamp}`).executeTakeFirstOrThrow();
  const brand = await addBrand(shop.db, `Woodland ${stamp}`);
  await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name: `Cedar ${stamp}`, createdAt: LONG_AGO });

  const shopper = await browser.newContext();
  await signIn(shopper, customer.token, baseURL);
  const store = await shopper.newPage();
  await store.goto("/shop?lng=es");
  const filtros = store.getByRole("complementary", { name: "Filtros" });
  for (const name of ["Hombre", "Mujer", "Unisex", `Amaderado ${stamp}`]) await expect(filtros.getByRole("radio", { name, exact: true })).toBeVisible();
  for (const name of ["Men", "Women", `Woody ${stamp}`]) await expect(filtros.getByRole("radio", { name, exact: true })).toHaveCount(0);
  await store.goto("/shop?lng=en");
  const filters = store.getByRole("complementary", { name: "Filters" });
  for (const name of ["Men", "Women", "Unisex", `Woody ${stamp}`]) await expect(filters.getByRole("radio", { name, exact: true })).toBeVisible();
  await expect(filters.getByRole("radio", { name: "Hombre", exact: true })).toHaveCount(0);
  await shopper.close();
});

test("a category or brand held only by archived products is hidden from the shop and can be deleted", async ({ browser, baseURL }) => {
  const [brand, category] = await Promise.all([addBrand(shop.db, `Gone ${stamp}`), addCategory(shop.db, `Retired ${stamp}`)]);
  const product = await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name: `Discontinued ${stamp}`, archived: true, createdAt: LONG_AGO });

  const shopper = await browser.newContext();
  await signIn(shopper, customer.token, baseURL);
  const store = await shopper.newPage();
  await store.goto("/shop");
  const filters = store.getByRole("complementary", { name: "Filters" });
  await expect(filters.getByRole("radio", { name: "Men", exact: true })).toBeVisible();
  await expect(filters.getByRole("radio", { name: `Retired ${stamp}` })).toHaveCount(0);
  await expect(filters.getByRole("radio", { name: `Gone ${stamp}` })).toHaveCount(0);
  await shopper.close();

  // With JavaScript: the dialog names the archived product and moves it where the owner says.
  const owner = await browser.newContext();
  await signIn(owner, admin.token, baseURL);
  const page = await owner.newPage();
  await page.goto(`/admin/categories?q=${encodeURIComponent(`Retired ${stamp}`)}`);
  await hydrated(page);
  const row = page.getByRole("row").filter({ hasText: `Retired ${stamp}` });
  await row.getByRole("link", { name: `Delete Retired ${stamp}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete category?" });
  await expect(confirm).toContainText("1 archived product is still sorted here");
  await expect(confirm.getByRole("listitem")).toHaveText([`Discontinued ${stamp}`]);
  await confirm.getByLabel("Move them to").selectOption({ label: "Unisex" });
  await confirm.getByRole("button", { name: "Move and delete" }).click();
  await expect(toast(page, `Category “Retired ${stamp}” deleted; its 1 archived product moved to “Unisex”`)).toBeVisible();
  await expect(page.getByRole("cell", { name: `Retired ${stamp}`, exact: true })).toHaveCount(0);
  await owner.close();

  // Without JavaScript, the brand: a plain form does the same.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await signIn(plain, admin.token, baseURL);
  const form = await plain.newPage();
  await form.goto(`/admin/brands?delete=${brand.id}`);
  const dialog = form.getByRole("dialog", { name: "Delete brand?" });
  await expect(dialog.getByRole("listitem")).toHaveText([`Discontinued ${stamp}`]);
  await dialog.getByLabel("Move them to").selectOption({ label: "Dior" });
  await dialog.getByRole("button", { name: "Move and delete" }).click();
  await expect(form.getByText(`Brand “Gone ${stamp}” deleted; its 1 archived product moved to “Dior”`)).toBeVisible();
  await plain.close();

  const moved = await shop.db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select(["b.name as brand", "c.name as category", "p.archived_at"])
    .where("p.id", "=", product.id)
    .executeTakeFirstOrThrow();
  expect(moved).toMatchObject({ brand: "Dior", category: "Unisex" });
  expect(moved.archived_at).not.toBeNull();
});
