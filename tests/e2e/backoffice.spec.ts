import { expect, type Page, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import type { DatabaseHandle } from "~/db/client.server";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";
import { readOutbox } from "~/platform/mail.server";
import { decodeQuotedPrintable } from "../support/mail";
import { E2E_DATA_DIR } from "../../playwright.config";

// The owner's back office: a catalogue loaded from a spreadsheet (checked first, corrected, then
// imported) reaches the shop, and the catalogue comes back out as a CSV Excel can open.

let shop: DatabaseHandle;
let admin: { userId: number; token: string };
const stamp = Date.now().toString(36);
const HEADER = "name,slug,brand,category,price,discount,stock,description,status";

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `bulk-${stamp}@unboxed.example`, "Bola", "Owner");
});
// Other journeys share this shop and look at its newest products: the ones made here are removed
// through the admin screen (so the server hears of it).
test.afterAll(async ({ playwright, baseURL }) => {
  if (shop && admin) {
    const ours = await shop.db.selectFrom("products").select("id").where("slug", "like", `%${stamp}%`).where("archived_at", "is", null).execute();
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: `ub_session=${admin.token}`, Origin: baseURL! } });
    for (const { id } of ours) {
      const response = await request.post("/admin/products", { form: { intent: "delete", id: String(id) }, maxRedirects: 0 });
      expect(response.status()).toBe(303);
    }
    await request.dispose();
  }
  await shop?.close();
});

const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Width and height in points of a PDF's first page. */
function pageSize(pdf: Buffer): [number, number] {
  const box = pdf.toString("latin1").match(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/);
  if (!box) throw new Error("no MediaBox in the PDF");
  return [Number(box[1]), Number(box[2])];
}

function csvFile(rows: string[]) {
  return { name: `autumn-${stamp}.csv`, mimeType: "text/csv", buffer: Buffer.from("\uFEFF" + [HEADER, ...rows].join("\r\n") + "\r\n", "utf8") };
}

test("the owner imports a CSV with two bad rows, fixes them, imports it, and finds the products in the shop", async ({ page, context, baseURL }) => {
  test.setTimeout(90_000);
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const names = [`Vétiver Doré ${stamp} 100ml`, `Figue "Noire" ${stamp}, 50ml`, `Cuir ${stamp} Extrait`, `Néroli ${stamp} Cologne`];
  const good = (i: number, price: string, brand = "Dior") =>
    `"${names[i].replace(/"/g, '""')}",imp-${stamp}-${i},${brand},Unisex,"${price}",,${i + 2},"Notes of ${i}, with a comma\nand a second line",active`;

  await page.goto("/admin/products");
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import products" })).toBeVisible();

  // Two bad rows: a negative price and a brand the shop does not have.
  await page.getByLabel("CSV file").setInputFiles(csvFile([good(0, "65000"), good(1, "-100"), good(2, "72000", `Nobody ${stamp}`), good(3, "30000.50")]));
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByRole("heading", { name: "2 problems to fix" })).toBeVisible();
  await expect(page.locator('[data-import-problem="3:price"]')).toContainText("The price must be at least ₦1.00");
  await expect(page.locator('[data-import-problem="4:brand"]')).toContainText(`There is no brand “Nobody ${stamp}”`);
  await expect(page.getByText("Nothing has been imported.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Import \d+ products?$/ })).toHaveCount(0);
  expect(await shop.db.selectFrom("products").select("id").where("slug", "like", `imp-${stamp}-%`).execute()).toEqual([]);

  // Fixed in the spreadsheet and checked again.
  await page.getByLabel("CSV file").setInputFiles(csvFile([good(0, "65000"), good(1, "48,500"), good(2, "72000", "Chanel"), good(3, "30000.50")]));
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.locator("[data-import-summary]")).toHaveText("New products: 4 · changed: 0 · unchanged: 0");
  await expect(page.getByRole("heading", { name: /problems? to fix/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Import 4 products" }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(toast(page, "Import done: 4 new, 0 changed, 0 unchanged.")).toBeVisible();

  // In the shop, with their prices.
  await page.goto(`/shop?q=${stamp}`);
  const cards = page.locator("main article");
  await expect(cards).toHaveCount(4);
  await expect(cards.filter({ hasText: names[1] })).toContainText("₦48,500.00");
  await expect(cards.filter({ hasText: names[3] })).toContainText("₦30,000.50");
  await cards.filter({ hasText: names[0] }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name: names[0] })).toBeVisible();
  await expect(page.getByText("Notes of 0, with a comma")).toBeVisible();
});

test("the owner downloads the catalogue as a CSV that Excel opens in UTF-8", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  await page.goto("/admin/products");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^unboxed-products-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = fs.readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString("utf8");
  expect(text.startsWith(HEADER + "\r\n")).toBe(true);
  expect(text).toContain("Bleu de Chanel Eau de Parfum 100ml");
});

test("the owner prints an invoice and a packing slip; the customer prints their own invoice", async ({ page, context, baseURL, browser }) => {
  test.setTimeout(90_000);
  const customer = await createCustomer(shop, `buyer-${stamp}@example.com`, "Ngozi", "Adeyemi");
  const product = await shop.db.selectFrom("products").select(["id", "name", "price"]).where("stock", ">", 5).where("archived_at", "is", null).orderBy("id").executeTakeFirstOrThrow();
  const order = await insertOrder(shop.db, { userId: customer.userId, items: [{ productId: product.id, quantity: 2 }] });
  await context.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);

  await page.goto(`/admin/orders/${order.number}`);
  await page.getByRole("link", { name: "Print invoice" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${order.number}/print$`));
  const doc = page.locator("[data-invoice=invoice]");
  await expect(doc.getByRole("heading", { level: 1, name: "Invoice" })).toBeVisible();
  await expect(doc.locator("[data-invoice-number]")).toHaveText(order.number);
  await expect(doc.getByRole("img", { name: `QR code of order ${order.number}` })).toBeVisible();
  await expect(doc.locator("[data-invoice-item]")).toContainText(product.name);
  await expect(doc.locator("[data-invoice-total]")).toHaveText(new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN" }).format((product.price * 2) / 100));
  await expect(doc.locator("[data-invoice-address]")).toContainText("Lekki");

  // Printed: the toolbar stays on screen only, and Chromium makes an A4 PDF of it.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  const a4 = await page.pdf({ preferCSSPageSize: true });
  expect(a4.subarray(0, 4).toString()).toBe("%PDF");
  // A4 is 595 x 842 points.
  expect(pageSize(a4)[0]).toBeCloseTo(595, -1);
  expect(pageSize(a4)[1]).toBeCloseTo(842, -1);
  await page.emulateMedia({ media: "screen" });

  // The packing slip on a receipt printer: no prices.
  await page.getByRole("link", { name: "Packing slip" }).click();
  await expect(page).toHaveURL(/\?doc=slip$/);
  await page.getByRole("link", { name: "80 mm receipt" }).click();
  await expect(page).toHaveURL(/doc=slip&paper=receipt/);
  const slip = page.locator("[data-invoice=slip]");
  await expect(slip.getByRole("heading", { level: 1, name: "Packing slip" })).toBeVisible();
  await expect(slip).not.toContainText("₦");
  const roll = await page.pdf({ preferCSSPageSize: true });
  // 80 mm is 227 points wide.
  expect(pageSize(roll)[0]).toBeCloseTo(227, -1);

  // The customer, from their order page.
  const theirs = await browser.newContext();
  await theirs.addCookies([{ name: "ub_session", value: customer.token, url: baseURL! }]);
  const customerPage = await theirs.newPage();
  await customerPage.goto(`/orders/${order.number}`);
  await customerPage.getByRole("link", { name: "Invoice" }).click();
  await expect(customerPage.locator("[data-invoice=invoice] [data-invoice-number]")).toHaveText(order.number);
  await expect(customerPage.getByRole("link", { name: "Packing slip" })).toHaveCount(0);
  const other = await customerPage.goto(`/orders/UB-1/invoice`);
  expect(other?.status()).toBe(404);
  await theirs.close();
});

test("a WhatsApp order arrives: the owner's alert is in the outbox and the admin shows it waiting", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const product = await shop.db.selectFrom("products").select(["id", "name", "price"]).where("stock", ">", 5).where("archived_at", "is", null).orderBy("id", "desc").executeTakeFirstOrThrow();
  // A visitor's cart, then 'Checkout on WhatsApp' (the form the cart page posts).
  const add = await page.request.post("/cart", { form: { intent: "add", productId: String(product.id) }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(add.status()).toBeLessThan(400);
  const order = await page.request.post("/cart", { form: { intent: "whatsapp" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(order.status()).toBe(303);
  const number = order.headers().location.split("/").pop()!;
  expect(number).toMatch(/^UB-\d+$/);

  // The outbox worker writes the owner's e-mail (OWNER_EMAIL, here SHOP_EMAIL) as a file.
  await expect
    .poll(async () => (await readOutbox(path.resolve(E2E_DATA_DIR), "hello@unboxed.example")).filter((m) => m.raw.includes(number)).length, { timeout: 30_000 })
    .toBe(1);
  const [alert] = (await readOutbox(path.resolve(E2E_DATA_DIR), "hello@unboxed.example")).filter((m) => m.raw.includes(number));
  const body = decodeQuotedPrintable(alert.raw);
  // The subject is MIME-encoded (it holds ₦): "=?UTF-8?Q?New_order_UB-10042:_..."
  expect(body).toMatch(new RegExp(`^Subject: .*New.order.${number}`, "m"));
  expect(body).toContain(`A new order has arrived: ${number} (WhatsApp).`);
  expect(body).toContain(`1 x ${product.name}`);
  expect(body).toContain(`/admin/orders/${number}`);

  // The owner's admin area counts it among the orders waiting.
  const waiting = Number(
    (await shop.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "in", ["pending", "confirmed"]).executeTakeFirstOrThrow()).n,
  );
  const owner = await browser.newContext();
  await owner.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const adminPage = await owner.newPage();
  await adminPage.goto("/admin");
  await expect(adminPage.locator("[data-orders-waiting]")).toHaveAttribute("data-orders-waiting", String(waiting));
  await expect(adminPage.getByRole("heading", { name: "Waiting for you" })).toBeVisible();
  await expect(adminPage.locator("[data-waiting-order]").first()).toBeVisible();
  await adminPage.goto(`/admin/orders/${number}`);
  await expect(adminPage.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
  await owner.close();
});
