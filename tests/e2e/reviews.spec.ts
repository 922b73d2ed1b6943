import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { addProduct } from "../support/catalogue";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";
import { hydrated, toast } from "./support";

// A customer whose order was delivered reviews the perfume; the review shows with its 'Verified
// buyer' badge, the stars reach the product's card, and the owner can hide it (docs/decisions/134).

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

test("a delivered customer reviews a perfume, the badge and stars show, and the owner hides it", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  const name = `Reviewed Vetiver ${stamp}`;
  const product = await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name, stock: 10 });
  // Dated long ago, so it is not among the newest products other journeys pick (it has no picture).
  await shop.db.updateTable("products").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", product.id).execute();
  const buyer = await createCustomer(shop, `reviewer-${stamp}@example.com`, "Amaka", "Obi");
  await insertOrder(shop.db, { userId: buyer.userId, status: "delivered", items: [{ productId: product.id, quantity: 1 }] });

  const customer = await browser.newContext();
  await customer.addCookies([{ name: "ub_session", value: buyer.token, url: baseURL! }]);
  const page = await customer.newPage();
  await page.goto(`/shop/${product.id}`);
  await hydrated(page);
  const reviews = page.getByRole("region", { name: "Customer reviews" });
  await expect(reviews.getByText("No reviews yet.")).toBeVisible();
  const form = reviews.getByRole("form", { name: "Write a review" });
  await form.getByRole("radio", { name: "4 stars" }).check();
  await form.getByLabel("Your review").fill("Smoky and green, <b>lasts</b> the whole day.");
  await form.getByRole("button", { name: "Post review" }).click();
  await expect(toast(page, "Thank you: your review is on the page.")).toBeVisible();
  await expect(reviews.getByText("4 out of 5")).toBeVisible();
  const posted = reviews.locator("[data-review]").first();
  await expect(posted.getByText("Verified buyer")).toBeVisible();
  // Shown as typed: the markup is text, not markup.
  await expect(posted.getByText("Smoky and green, <b>lasts</b> the whole day.")).toBeVisible();
  await expect(posted.getByText(/^Amaka O\., /)).toBeVisible();
  await expect(reviews.getByText("You have reviewed this perfume. Thank you!")).toBeVisible();
  await customer.close();

  // The card in the shop carries the stars (the cached listing was emptied by the review).
  const visitor = await browser.newContext();
  const listing = await visitor.newPage();
  await listing.goto(`/shop?q=${encodeURIComponent(name)}`);
  await expect(listing.locator("main article", { hasText: name }).getByRole("img", { name: "Rated 4 out of 5" })).toBeVisible();

  const admin = await createAdmin(shop, `review-owner-${stamp}@unboxed.example`);
  const owner = await browser.newContext();
  await owner.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const ownerPage = await owner.newPage();
  await ownerPage.goto("/admin/reviews");
  await hydrated(ownerPage);
  const row = ownerPage.locator("tr", { hasText: "Smoky and green" });
  await row.getByRole("button", { name: "Hide" }).click();
  await expect(toast(ownerPage, "The review is hidden from the shop")).toBeVisible();
  await expect(ownerPage.locator("tr", { hasText: "Smoky and green" }).getByRole("button", { name: "Show again" })).toBeVisible();
  await owner.close();

  await listing.goto(`/shop/${product.id}`);
  await expect(listing.getByRole("region", { name: "Customer reviews" }).getByText("No reviews yet.")).toBeVisible();
  await visitor.close();
});
