import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import path from "node:path";
import sharp from "sharp";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { hugePng, SVG_IMAGE, TEXT_NAMED_JPG } from "../support/images";
import { insertOrder } from "../support/orders";
import { hydrated } from "./support";
import { E2E_DATA_DIR } from "../../playwright.config";

// The admin runs the shop: brands, categories and products (with a real uploaded picture) reach the
// storefront, and a customer's order moves through its statuses to 'shipped' in their profile.
// Accounts and sessions are made directly in the e2e shop's database.

let shop: DatabaseHandle;
let admin: { userId: number; token: string };
let customer: { userId: number; token: string };
const stamp = Date.now().toString(36);
const customerEmail = `chioma-${stamp}@example.com`;

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `owner-${stamp}@unboxed.example`, "Ada", "Owner");
  customer = await createCustomer(shop, customerEmail, "Chioma", "Eze");
});
// Other journeys share this shop: the products made here are removed through the admin screen (so
// the server hears of it), leaving the storefront's newest products as they were.
test.afterAll(async ({ playwright, baseURL }) => {
  if (shop && admin) {
    const ours = await shop.db.selectFrom("products").select("id").where("name", "like", `%${stamp}%`).where("archived_at", "is", null).execute();
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: `ub_session=${admin.token}`, Origin: baseURL! } });
    for (const { id } of ours) {
      const response = await request.post("/admin/products", { form: { intent: "delete", id: String(id) }, maxRedirects: 0 });
      expect(response.status()).toBe(303);
    }
    await request.dispose();
    expect(await shop.db.selectFrom("products").select("id").where("name", "like", `%${stamp}%`).where("archived_at", "is", null).execute()).toEqual([]);
  }
  await shop?.close();
});

async function signIn(context: BrowserContext, token: string, baseURL: string | undefined) {
  await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
}

function bottlePng(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 1000, channels: 3, background: colour } })
    .composite([{ input: Buffer.from('<svg width="300" height="600"><rect x="0" y="0" width="300" height="600" rx="40" fill="#fff" fill-opacity="0.6"/></svg>'), left: 250, top: 250 }])
    .png()
    .toBuffer();
}

const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text });

test("the admin creates a brand, a category and a product with a picture, reprices it, and ships its order", async ({ page, context, browser, baseURL }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  // A refused form answers 400, which the browser notes in the console; anything else is a problem.
  page.on("console", (m) => m.type() === "error" && !m.text().includes("status of 400") && problems.push(m.text()));
  await signIn(context, admin.token, baseURL);
  const brand = `Maison ${stamp}`;
  const category = `Niche ${stamp}`;
  const product = `Ambre Nuit ${stamp} Eau de Parfum 100ml`;

  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.locator("svg[data-chart=daily-revenue] rect[data-date]")).toHaveCount(30);
  const sidebar = page.getByRole("navigation", { name: "Admin" });
  for (const item of ["Dashboard", "Orders", "Products", "Categories", "Brands", "Audit log"]) {
    await expect(sidebar.getByRole("link", { name: item })).toBeVisible();
  }

  // A brand, through the old "regions" address.
  await page.goto("/admin/regions");
  await expect(page).toHaveURL(/\/admin\/brands$/);
  await expect(page.getByRole("heading", { level: 1, name: "Brands" })).toBeVisible();
  await page.getByRole("link", { name: "Add Brand" }).click();
  const brandDialog = page.getByRole("dialog", { name: "Add Brand" });
  await brandDialog.getByRole("button", { name: "Create Brand" }).click();
  await expect(brandDialog.getByText("Please input a brand name")).toBeVisible();
  await brandDialog.getByLabel("Brand Name").fill(brand);
  await brandDialog.getByRole("button", { name: "Create Brand" }).click();
  await expect(toast(page, `Brand “${brand}” created`)).toBeVisible();
  await expect(brandDialog).toBeHidden();

  // A category.
  await sidebar.getByRole("link", { name: "Categories" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Categories List" })).toBeVisible();
  await page.getByRole("link", { name: "Add Category" }).click();
  const categoryDialog = page.getByRole("dialog", { name: "Add Category" });
  await categoryDialog.getByLabel("Category Name").fill(category);
  await categoryDialog.getByRole("button", { name: "Create Category" }).click();
  await expect(toast(page, `Category “${category}” created`)).toBeVisible();
  await expect(page.getByRole("cell", { name: category, exact: true })).toBeVisible();

  // A product with a PNG made just now.
  await sidebar.getByRole("link", { name: "Products" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Product List" })).toBeVisible();
  await page.getByRole("link", { name: "Add Product" }).click();
  const create = page.getByRole("dialog", { name: "Add Product" });
  await create.getByLabel("Brands").selectOption({ label: brand });
  await create.getByLabel("Category").selectOption({ label: category });
  await create.getByLabel("Product Name").fill(product);
  await create.getByLabel("Price (₦)").fill("85000");
  await create.getByLabel("Stock").fill("5");
  await create.getByLabel("Description").fill("Amber, vanilla and a little smoke. Authentic, without the box.");
  await create.getByLabel("Upload Image").setInputFiles({ name: "ambre-nuit.png", mimeType: "image/png", buffer: await bottlePng("#7a5b31") });
  await create.getByRole("button", { name: "Create Product" }).click();
  await expect(toast(page, `Product “${product}” created`)).toBeVisible();
  await expect(create).toBeHidden();
  const row = page.locator("tr", { hasText: product });
  await expect(row).toContainText("₦85,000.00");
  await expect(row).toContainText(brand);
  await expect(row).toContainText(category);

  // It is the newest product in the shop, with its picture.
  await page.goto("/");
  const card = page.locator("main article", { hasText: product }).first();
  await expect(card).toContainText("₦85,000.00");
  const img = card.locator("img");
  await expect(img).toHaveAttribute("srcset", /-320\.webp 320w/);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

  // Reprice it: the search applies itself, and the edit sends only the price.
  await page.goto("/admin/products");
  await page.getByRole("searchbox", { name: "Search products by name" }).fill(`ambre nuit ${stamp}`);
  await expect(page).toHaveURL(/q=ambre/);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await page.getByRole("link", { name: `Edit ${product}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Product" });
  await expect(edit.getByLabel("Price (₦)")).toHaveValue("85000");
  await edit.getByLabel("Price (₦)").fill("79500");
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/admin/products"));
  await edit.getByRole("button", { name: "Update Product" }).click();
  const body = (await sent).postDataBuffer()?.toString("latin1") ?? "";
  expect(body).toContain('name="price"');
  expect(body).not.toContain('name="name"');
  expect(body).not.toContain('name="description"');
  await expect(toast(page, `Product “${product}” updated`)).toBeVisible();
  await expect(page.locator("tr", { hasText: product })).toContainText("₦79,500.00");

  // Nothing changed: the dialog just closes.
  await page.getByRole("link", { name: `Edit ${product}` }).click();
  let posted = false;
  page.on("request", (r) => {
    if (r.method() === "POST") posted = true;
  });
  await edit.getByRole("button", { name: "Update Product" }).click();
  await expect(edit).toBeHidden();
  expect(posted).toBe(false);

  await page.goto("/");
  await expect(page.locator("main article", { hasText: product }).first()).toContainText("₦79,500.00");
  await expect(page.locator("main article", { hasText: product }).first()).not.toContainText("₦85,000.00");

  // A signed-in customer orders it on WhatsApp (checkout is not in the shop yet).
  const shopper = await browser.newContext();
  await signIn(shopper, customer.token, baseURL);
  // The test machine has no internet: wa.me answers with a stub page.
  await shopper.route(/^https:\/\/(wa\.me|api\.whatsapp\.com)\//, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<p>WhatsApp</p>" }));
  const customerPage = await shopper.newPage();
  await customerPage.goto("/");
  await customerPage.locator("main article", { hasText: product }).first().getByRole("button", { name: "Add to Cart" }).click();
  await expect(toast(customerPage, "Added to cart successfully")).toBeVisible();
  await customerPage.goto("/cart");
  const chat = customerPage.waitForEvent("popup");
  await customerPage.getByRole("button", { name: "Checkout on WhatsApp" }).click();
  const whatsapp = await chat;
  await whatsapp.waitForURL(/^https:\/\/wa\.me\//);
  const number = new URL(whatsapp.url()).searchParams.get("text")?.match(/UB-\d+/)?.[0] ?? "";
  await whatsapp.close();
  expect(number).toMatch(/^UB-\d+$/);
  const stockOf = async () => (await shop.db.selectFrom("products").select("stock").where("name", "=", product).executeTakeFirstOrThrow()).stock;
  expect(await stockOf()).toBe(5);

  // The admin finds it by the customer's e-mail, confirms it (taking the stock) and ships it.
  await page.goto("/admin");
  await sidebar.getByRole("link", { name: "Orders" }).click();
  await page.getByRole("searchbox", { name: "Search orders by number or customer e-mail" }).fill(customerEmail);
  // The search applies after a pause: wait for it, so it cannot navigate away after the click below.
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr")).toContainText("WhatsApp");
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
  await expect(page.getByRole("cell", { name: product })).toBeVisible();
  await page.getByRole("button", { name: "Mark as confirmed" }).click();
  await expect(toast(page, `Order ${number} is now Confirmed; the customer has been e-mailed`)).toBeVisible();
  expect(await stockOf()).toBe(4);
  await page.getByLabel("Note (optional, e-mailed to the customer)").fill("GIG Logistics, tracking GIG-123");
  await page.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(toast(page, `Order ${number} is now Shipped; the customer has been e-mailed`)).toBeVisible();
  await expect(page.locator("h1 + div [data-status]")).toHaveText("Shipped");
  const history = page.locator("[data-history-status]");
  await expect(history).toHaveCount(3);
  await expect(history.nth(2)).toContainText("by Ada Owner");
  await expect(history.nth(2)).toContainText("GIG-123");
  await expect(page.getByRole("link", { name: "Cancel order" })).toHaveCount(0);

  // The customer sees it shipped in the profile.
  await customerPage.goto("/profile");
  const placed = customerPage.locator("tr", { hasText: number });
  await expect(placed.locator("[data-status]")).toHaveText("shipped");
  await shopper.close();

  // The outbox worker sends queued mail within about a second.
  await expect
    .poll(async () => (await readOutbox(path.resolve(E2E_DATA_DIR), customerEmail)).map((m) => m.raw.match(/^Subject: (.*)$/m)?.[1]))
    .toEqual([`Your Unboxed order ${number}: Confirmed`, `Your Unboxed order ${number}: Shipped`]);

  // The audit log shows who changed the price, from what to what.
  await sidebar.getByRole("link", { name: "Audit log" }).click();
  const priceChange = page.locator("tr", { hasText: product }).filter({ hasText: "Changed product" }).first();
  await expect(priceChange).toContainText("Ada Owner");
  await expect(priceChange.locator("[data-change=price]")).toContainText("₦85,000.00 → ₦79,500.00");

  expect(problems).toEqual([]);
});

test("bad product input is refused with clear messages, and markup stays text in the shop", async ({ page, context, baseURL }) => {
  test.setTimeout(90_000);
  await signIn(context, admin.token, baseURL);
  const name = `<img src=x onerror="document.body.dataset.hacked=1"><b>Bold ${stamp}</b>`;
  await page.goto("/admin/products?new=1");
  const dialog = page.getByRole("dialog", { name: "Add Product" });
  await dialog.getByLabel("Brands").selectOption({ index: 1 });
  await dialog.getByLabel("Category").selectOption({ index: 1 });
  await dialog.getByLabel("Product Name").fill(name);
  await dialog.getByLabel("Description").fill("");
  const submit = async () => dialog.getByRole("button", { name: "Create Product" }).click();

  const cases: [string, string, string, string][] = [
    ["-5", "", "3", "The price must be at least ₦1.00"],
    ["abc", "", "3", "Please include product price"],
    ["1e12", "", "3", "The price can be at most ₦100,000,000.00"],
  ];
  for (const [price, discount, stock, message] of cases) {
    await dialog.getByLabel("Price (₦)").fill(price);
    await dialog.getByLabel("Discount (optional, ₦)").fill(discount);
    await dialog.getByLabel("Stock").fill(stock);
    await submit();
    await expect(dialog.getByText(message)).toBeVisible();
  }
  await expect(dialog.getByText("Please add a product description")).toBeVisible();
  await expect(dialog.getByText("Image is required")).toBeVisible();

  await dialog.getByLabel("Price (₦)").fill("20000");
  await dialog.getByLabel("Discount (optional, ₦)").fill("25000");
  await dialog.getByLabel("Stock").fill("-1");
  await dialog.getByLabel("Description").fill("Markup must stay text.");
  await submit();
  await expect(dialog.getByText("The discount must be less than the price")).toBeVisible();
  await expect(dialog.getByText("Stock must be a whole number, 0 or more")).toBeVisible();
  await expect(dialog.getByLabel("Price (₦)")).toHaveAttribute("aria-invalid", "false");
  await expect(dialog.getByLabel("Stock")).toHaveAttribute("aria-invalid", "true");

  await dialog.getByLabel("Discount (optional, ₦)").fill("2500");
  await dialog.getByLabel("Stock").fill("20");
  const upload = dialog.getByLabel("Upload Image");
  const images: [string, string, Buffer, string][] = [
    ["photo.jpg", "image/jpeg", TEXT_NAMED_JPG, "This file is not a JPEG, PNG, WebP or AVIF image"],
    ["bottle.svg", "image/svg+xml", SVG_IMAGE, "This file is not a JPEG, PNG, WebP or AVIF image"],
    ["huge.png", "image/png", hugePng(), "The image has more than 40 megapixels"],
    // Checked in the browser before it is sent.
    ["big.png", "image/png", Buffer.alloc(6 * 1024 * 1024), "The image is larger than 5 MB"],
  ];
  for (const [file, mimeType, buffer, message] of images) {
    await upload.setInputFiles({ name: file, mimeType, buffer });
    await submit();
    await expect(dialog.getByText(message)).toBeVisible();
  }
  const created = await shop.db.selectFrom("products").select("id").where("name", "=", name).execute();
  expect(created).toEqual([]);

  await upload.setInputFiles({ name: "fine.webp", mimeType: "image/webp", buffer: await sharp({ create: { width: 400, height: 500, channels: 3, background: "#334155" } }).webp().toBuffer() });
  await submit();
  await expect(toast(page, "created")).toBeVisible();
  await expect(toast(page, "created")).toContainText(name);

  await page.goto("/");
  const card = page.locator("main article", { hasText: `Bold ${stamp}` }).first();
  await expect(card.getByRole("heading")).toHaveText(name);
  await expect(card.locator("b")).toHaveCount(0);
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  expect(await page.evaluate(() => document.body.dataset.hacked)).toBeUndefined();
});

test("a 50 MB upload is answered with a clear message, not a reset connection", async ({ request, context, baseURL }) => {
  await signIn(context, admin.token, baseURL);
  const response = await request.post("/admin/products?new=1", {
    headers: { Origin: baseURL!, Cookie: `ub_session=${admin.token}` },
    multipart: {
      intent: "create",
      name: "Too big",
      image: { name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(50 * 1024 * 1024, 0xff) },
    },
  });
  expect(response.status()).toBe(413);
  expect(await response.text()).toContain("The image is larger than 5 MB. Please choose a smaller one.");
});

test("deleting asks first; a refused delete puts the row back with an error; ordered products are archived", async ({ page, context, baseURL }) => {
  await signIn(context, admin.token, baseURL);
  const brand = await shop.db.selectFrom("brands").select(["id", "name"]).orderBy("id").executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  const category = await shop.db.insertInto("categories").values({ name: `In use ${stamp}`, slug: `in-use-${stamp}`, created_at: at }).returning("id").executeTakeFirstOrThrow();

  await page.goto(`/admin/categories?q=${encodeURIComponent(`In use ${stamp}`)}`);
  await page.getByRole("link", { name: `Delete In use ${stamp}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete category?" });
  await expect(confirm).toContainText(`Delete the category “In use ${stamp}”?`);
  // A product put on sale in it while the dialog is open: the server refuses the delete.
  const product = await shop.db
    .insertInto("products")
    .values({ slug: `kept-${stamp}`, name: `Kept in history ${stamp}`, description: "d", price: 1_000_000, discount: null, stock: 4, image: null, category_id: category.id, brand_id: brand.id, archived_at: null, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  await insertOrder(shop.db, { userId: customer.userId, items: [{ productId: product.id, quantity: 1 }] });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, `“In use ${stamp}” still has 1 product, so it cannot be deleted.`)).toBeVisible();
  await expect(page.getByRole("cell", { name: `In use ${stamp}`, exact: true })).toBeVisible();
  // Asked again, the dialog says why at once and offers no delete.
  await page.getByRole("link", { name: `Delete In use ${stamp}` }).click();
  await expect(confirm).toContainText("1 product on sale is sorted here. Move it to another one before deleting.");
  await expect(confirm.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await confirm.getByRole("link", { name: "Cancel" }).click();

  await page.goto(`/admin/products?q=${encodeURIComponent(stamp)}`);
  await page.getByRole("link", { name: `Delete Kept in history ${stamp}` }).click();
  await page.getByRole("dialog", { name: "Delete product?" }).getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, `“Kept in history ${stamp}” appears in orders, so it was archived`)).toBeVisible();
  await expect(page.locator("tr", { hasText: `Kept in history ${stamp}` })).toHaveCount(0);
  const row = await shop.db.selectFrom("products").select("archived_at").where("id", "=", product.id).executeTakeFirstOrThrow();
  expect(row.archived_at).not.toBeNull();
});

test("cancelling a checkout order puts its stock back, and the customer sees it cancelled", async ({ page, context, browser, baseURL }) => {
  test.setTimeout(60_000);
  const name = `Cancelled at checkout ${stamp}`;
  const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  // Added through the admin screen, so the shop hears of it.
  const created = await page.request.post("/admin/products", {
    headers: { Origin: baseURL!, Cookie: `ub_session=${admin.token}` },
    maxRedirects: 0,
    multipart: {
      intent: "create",
      brandId: String(brand.id),
      categoryId: String(category.id),
      name,
      price: "45000",
      discount: "",
      stock: "6",
      description: "For the cancellation journey.",
      image: { name: "bottle.png", mimeType: "image/png", buffer: await bottlePng("#1e3a5f") },
    },
  });
  expect(created.status()).toBe(303);
  const stockOf = async () => (await shop.db.selectFrom("products").select("stock").where("name", "=", name).executeTakeFirstOrThrow()).stock;

  const shopper = await browser.newContext();
  await signIn(shopper, customer.token, baseURL);
  const customerPage = await shopper.newPage();
  await customerPage.goto("/");
  await customerPage.locator("main article", { hasText: name }).first().getByRole("button", { name: "Add to Cart" }).click();
  await expect(toast(customerPage, "Added to cart successfully")).toBeVisible();
  await customerPage.goto("/checkout");
  await hydrated(customerPage);
  await customerPage.getByLabel("Mobile number").fill("0803 123 4567");
  await customerPage.getByLabel("Street Address").fill("15 Bourdillon Road");
  await customerPage.getByLabel("City").fill("Ikoyi");
  await customerPage.getByLabel("State").selectOption("Lagos");
  await customerPage.getByRole("radio", { name: /Pay on delivery/ }).check();
  await customerPage.getByRole("button", { name: "Process Order" }).click();
  await expect(customerPage).toHaveURL(/\/orders\/UB-\d+$/);
  const number = customerPage.url().split("/").pop()!;
  expect(await stockOf()).toBe(5);

  await signIn(context, admin.token, baseURL);
  await page.goto(`/admin/orders?q=${number}`);
  await expect(page.locator("tbody tr")).toContainText("Checkout");
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByText("15 Bourdillon Road")).toBeVisible();
  await page.getByRole("link", { name: "Cancel order" }).click();
  const confirm = page.getByRole("dialog", { name: `Cancel order ${number}?` });
  await confirm.getByLabel("Note (optional, e-mailed to the customer)").fill("Out of this batch, sorry.");
  await confirm.getByRole("button", { name: "Cancel order" }).click();
  await expect(toast(page, `Order ${number} is now Cancelled; the customer has been e-mailed`)).toBeVisible();
  await expect(page.locator("[data-history-status]").last()).toContainText("Out of this batch, sorry.");
  await expect(page.getByText("This order is finished; its status cannot change any more.")).toBeVisible();
  expect(await stockOf()).toBe(6);

  await customerPage.goto("/profile");
  await expect(customerPage.locator("tr", { hasText: number }).locator("[data-status]")).toHaveText("cancelled");
  await shopper.close();
});

test("works without JavaScript: a category is added with a plain form post", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, admin.token, baseURL);
  const page = await context.newPage();
  await page.goto("/admin/categories");
  await page.getByRole("link", { name: "Add Category" }).click();
  await page.getByRole("button", { name: "Create Category" }).click();
  await expect(page.getByText("Please input a category name")).toBeVisible();
  await page.getByLabel("Category Name").fill(`Plain ${stamp}`);
  await page.getByRole("button", { name: "Create Category" }).click();
  await expect(page.locator("[data-toast-fallback]")).toHaveText(`Category “Plain ${stamp}” created`);
  await expect(page.getByRole("cell", { name: `Plain ${stamp}`, exact: true })).toBeVisible();
  await context.close();
});

// On a desktop screen; sweep.spec.ts checks the same screens on phones, in both languages.
test.describe("the admin area is closed to everyone else", () => {
  const pages = ["/admin", "/admin/orders", "/admin/orders/UB-10042", "/admin/products", "/admin/products?new=1", "/admin/categories", "/admin/brands", "/admin/regions", "/admin/delivery", "/admin/audit", "/admin/customers", "/admin/customers/1"];
  const actions = ["/admin/products", "/admin/categories", "/admin/brands", "/admin/orders/UB-10042", "/admin/delivery", "/admin/customers/1"];

  test("signed-out visitors are sent to sign in, for every page and action", async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
    for (const url of pages) {
      const response = await request.get(url, { maxRedirects: 0 });
      expect(response.status(), url).toBe(302);
      expect(response.headers()["location"], url).toBe(`/auth?redirectTo=${encodeURIComponent(url)}`);
    }
    for (const url of actions) {
      const response = await request.post(url, { headers: { Origin: baseURL! }, form: { intent: "delete", id: "1" }, maxRedirects: 0 });
      expect(response.status(), url).toBe(302);
      expect(response.headers()["location"], url).toMatch(/^\/auth\?redirectTo=/);
    }
    await request.dispose();
  });

  test("an admin sent to sign in comes back to the admin screen asked for", async ({ browser }) => {
    // Its own shopper address (the server trusts the local proxy's X-Forwarded-For), for the sign-in limits.
    const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.77" } });
    const page = await context.newPage();
    await page.goto("/admin/orders?status=pending");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Forders%3Fstatus%3Dpending$/);
    await page.getByLabel("Email").fill(`owner-${stamp}@unboxed.example`);
    await page.getByLabel("Password", { exact: true }).fill("a long test passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/admin\/orders\?status=pending$/);
    await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
    await context.close();
  });

  test("customers get 403 for every page and action", async ({ playwright, page, context, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: `ub_session=${customer.token}` } });
    for (const url of pages) {
      const response = await request.get(url, { maxRedirects: 0 });
      expect(response.status(), url).toBe(403);
    }
    const before = await shop.db.selectFrom("categories").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    for (const url of actions) {
      const response = await request.post(url, { headers: { Origin: baseURL! }, form: { intent: "create", name: "Hacked", from: "pending", to: "cancelled" }, maxRedirects: 0 });
      expect(response.status(), url).toBe(403);
    }
    const after = await shop.db.selectFrom("categories").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    await request.dispose();

    await signIn(context, customer.token, baseURL);
    const response = await page.goto("/admin/products");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
  });
});
