import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import type { DatabaseHandle } from "~/db/client.server";
import { addProduct } from "../support/catalogue";
import { createAdmin, openShopDatabase } from "../support/e2e-shop";
import { hydrated } from "./support";

// The owner builds a product's photo gallery (docs/decisions/124): adds photos with their descriptions,
// puts them in order without JavaScript (up and down buttons) and with it (dragging); the shop's card
// shows the first photo and the product page shows them all, with thumbnails that work without JavaScript.

let shop: DatabaseHandle;
let admin: { userId: number; token: string };
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `gallery-${stamp}@unboxed.example`, "Bisi", "Owner");
});
test.afterAll(async () => {
  await shop?.close();
});

async function newProduct(name: string) {
  const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  // Dated long ago, so it is not among the newest products other journeys pick.
  return addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name, createdAt: "2020-01-01T00:00:00.000Z" });
}

const photo = (background: string) => sharp({ create: { width: 400, height: 500, channels: 3, background } }).jpeg().toBuffer();
const photosOf = (id: number) =>
  shop.db.selectFrom("product_photos").select(["id", "image", "alt", "position"]).where("product_id", "=", id).orderBy("position").execute();
const cardImage = async (id: number) => (await shop.db.selectFrom("products").select("image").where("id", "=", id).executeTakeFirstOrThrow()).image;

async function ownerPage(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  return context.newPage();
}

async function addPhoto(page: Page, colour: string, alt: string) {
  await page.getByLabel("Photo", { exact: true }).setInputFiles({ name: `${alt}.jpg`, mimeType: "image/jpeg", buffer: await photo(colour) });
  await page.getByLabel("Description (alt text)").fill(alt);
  await page.getByRole("button", { name: "Add photo" }).click();
}

const altInputs = (page: Page) => page.locator("[data-photo] input[name=alt]");
/** Whether the browser marks this thumbnail as the one whose photo is in view (CSS :target-current). */
const isCurrent = (page: Page, name: string) => page.getByRole("link", { name }).evaluate((link) => link.matches(":target-current"));
/** The alt texts of the photos as the page lists them, in order. */
const altTexts = (page: Page) => expect.poll(() => altInputs(page).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)));

test("without JavaScript, the owner adds two photos and moves the second up; the card and the product page follow", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const name = `Gallery Oud ${stamp}`;
  const product = await newProduct(name);
  const page = await ownerPage(browser, baseURL, false);

  // From the products list: the photos link leads to the product's photos page.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: `Photos of ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/products/${product.id}/photos$`));
  await expect(page.getByRole("heading", { level: 1, name: `Photos of ${name}` })).toBeVisible();

  await addPhoto(page, "#b01010", "Red box");
  await expect(page.getByText("1 of 8 photos")).toBeVisible();
  await addPhoto(page, "#1030b0", "Blue bottle");
  await expect(page.getByText("2 of 8 photos")).toBeVisible();
  await altTexts(page).toEqual(["Red box", "Blue bottle"]);
  // A file that is not a picture is refused with a message, and nothing is added.
  await page.getByLabel("Photo", { exact: true }).setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a picture at all") });
  await page.getByRole("button", { name: "Add photo" }).click();
  await expect(page.getByRole("alert")).toHaveText("The photo must be a JPEG, PNG, WebP or AVIF image.");
  expect(await photosOf(product.id)).toHaveLength(2);

  await page.getByRole("button", { name: "Move photo 2 up" }).click();
  await altTexts(page).toEqual(["Blue bottle", "Red box"]);
  await expect(page.locator("[data-photo]").first()).toContainText("Card image");
  const photos = await photosOf(product.id);
  expect(photos.map((p) => p.alt)).toEqual(["Blue bottle", "Red box"]);
  expect(await cardImage(product.id)).toBe(photos[0].image);

  // The shop's card shows the new first photo.
  await page.goto(`/shop?q=${encodeURIComponent(name)}`);
  const card = page.locator("article.card").filter({ hasText: name });
  await expect(card.locator("img")).toHaveAttribute("src", `/images/${photos[0].image}-640.webp`);

  // The product page: both photos in order, the first loaded at once, thumbnails as links to each.
  await page.goto(`/shop/${product.id}`);
  const slides = page.locator(".gallery img");
  await expect(slides).toHaveCount(2);
  await expect(slides.nth(0)).toHaveAttribute("alt", "Blue bottle");
  await expect(slides.nth(0)).toHaveAttribute("fetchpriority", "high");
  await expect(slides.nth(0)).not.toHaveAttribute("loading", "lazy");
  await expect(slides.nth(1)).toHaveAttribute("alt", "Red box");
  await expect(slides.nth(1)).toHaveAttribute("loading", "lazy");
  for (const slide of await slides.all()) {
    await expect(slide).toHaveAttribute("width", "560");
    await expect(slide).toHaveAttribute("height", "700");
  }
  await expect.poll(() => isCurrent(page, "Photo 1 of 2")).toBe(true);
  await page.getByRole("link", { name: "Photo 2 of 2" }).click();
  await expect(page).toHaveURL(/#photo-2$/);
  await expect(slides.nth(1)).toBeInViewport({ ratio: 0.9 });
  await expect.poll(() => isCurrent(page, "Photo 2 of 2")).toBe(true);
  expect(await isCurrent(page, "Photo 1 of 2")).toBe(false);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!) as { image: string[] };
  expect(jsonLd.image).toEqual(photos.map((p) => `${baseURL}/images/${p.image}-1024.webp`));
  await page.context().close();
});

test("with JavaScript, the owner drags a photo into first place; the product page's thumbnails scroll the gallery and pass axe", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const name = `Dragged Rose ${stamp}`;
  const product = await newProduct(name);
  const page = await ownerPage(browser, baseURL, true);
  await page.goto(`/admin/products/${product.id}/photos`);
  await hydrated(page);
  await addPhoto(page, "#20a040", "Green cap");
  await expect(page.getByText("1 of 8 photos")).toBeVisible();
  await addPhoto(page, "#e0c020", "Gold box");
  await expect(page.getByText("2 of 8 photos")).toBeVisible();
  await addPhoto(page, "#8020a0", "Purple label");
  await expect(page.getByText("3 of 8 photos")).toBeVisible();

  // The whole list in view, picked up by its edge (a drag that starts in the text field selects text instead).
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator("[data-photo]").nth(2).dragTo(page.locator("[data-photo]").nth(0), { sourcePosition: { x: 6, y: 6 }, targetPosition: { x: 6, y: 6 } });
  await altTexts(page).toEqual(["Purple label", "Green cap", "Gold box"]);
  await expect.poll(async () => (await photosOf(product.id)).map((p) => p.alt)).toEqual(["Purple label", "Green cap", "Gold box"]);
  const photos = await photosOf(product.id);
  expect(await cardImage(product.id)).toBe(photos[0].image);

  // The description is changed in place.
  await altInputs(page).nth(1).fill("Green cap, seen from above");
  await page.getByRole("button", { name: "Save description" }).nth(1).click();
  await expect.poll(async () => (await photosOf(product.id))[1].alt).toBe("Green cap, seen from above");
  // Its message shown here, so it is not carried to the product page, where axe would judge it mid-fade.
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Description saved" })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto(`/shop/${product.id}`);
  await hydrated(page);
  const gallery = page.locator(".gallery");
  await page.getByRole("link", { name: "Photo 3 of 3" }).click();
  await expect(page.locator(".gallery img").nth(2)).toBeInViewport({ ratio: 0.9 });
  await expect.poll(() => isCurrent(page, "Photo 3 of 3")).toBe(true);
  // Swiping is the row's own scrolling, one photo per snap point; the marked thumbnail follows.
  await gallery.evaluate((row) => row.scrollTo({ left: row.clientWidth }));
  await expect.poll(() => isCurrent(page, "Photo 2 of 3")).toBe(true);
  expect(await isCurrent(page, "Photo 3 of 3")).toBe(false);

  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await page.context().close();
});
