import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { addBrand, addCategory, addProduct } from "../support/catalogue";
import { openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";

// Recently viewed perfumes and 'Often bought together' (docs/decisions/126).

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

/** Products of a brand and category of their own (so no other row of the page shows them), dated long ago. */
async function products(names: string[]) {
  const [brand, category] = await Promise.all([addBrand(shop.db), addCategory(shop.db)]);
  const made: { id: number; name: string }[] = [];
  for (const name of names) {
    const product = await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name: `${name} ${stamp}`, stock: 20, createdAt: "2020-01-01T00:00:00.000Z" });
    made.push(product);
  }
  return made;
}

test("'Often bought together' appears once two orders hold both perfumes", async ({ page }) => {
  const [oud, rose, alone] = await products(["Together Oud", "Together Rose", "Bought Alone"]);
  // Each product page in its own category: the related row never shows the others.
  await shop.db.updateTable("products").set({ category_id: (await addCategory(shop.db)).id }).where("id", "=", rose.id).execute();
  await shop.db.updateTable("products").set({ category_id: (await addCategory(shop.db)).id }).where("id", "=", alone.id).execute();
  await insertOrder(shop.db, { channel: "whatsapp", status: "confirmed", items: [{ productId: oud.id, quantity: 1 }, { productId: rose.id, quantity: 1 }] });
  await insertOrder(shop.db, { channel: "checkout", status: "delivered", items: [{ productId: rose.id, quantity: 1 }, { productId: oud.id, quantity: 2 }] });
  await insertOrder(shop.db, { channel: "checkout", status: "delivered", items: [{ productId: alone.id, quantity: 1 }, { productId: oud.id, quantity: 1 }] });

  await page.goto(`/shop/${oud.id}`);
  const row = page.getByRole("region", { name: "Often bought together" });
  await expect(row.getByRole("link", { name: rose.name })).toBeVisible();
  // One shared order is one shopper's basket: not shown.
  await expect(row.getByRole("link", { name: alone.name })).toHaveCount(0);

  await page.goto(`/shop/${rose.id}`);
  await expect(page.getByRole("region", { name: "Often bought together" }).getByRole("link", { name: oud.name })).toBeVisible();

  // Without enough orders there is no such row at all.
  await page.goto(`/shop/${alone.id}`);
  await expect(page.getByRole("heading", { name: alone.name })).toBeVisible();
  await expect(page.getByRole("region", { name: "Often bought together" })).toHaveCount(0);
});
