import { expect, test, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import fs from "node:fs";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { hashPassword } from "~/platform/password.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { insertOrder } from "../support/orders";

// The shopper's rights (docs/decisions/221): the privacy notice in both languages; a shopper downloads
// their data and erases their account, after which the owner's lists, order pages, dashboard and CSV
// still total the same and name no one; a guest does the same by an e-mailed link, without JavaScript.

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);
const PASSWORD = "a long shopper passphrase";

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

const naira = (kobo: number) => new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN" }).format(kobo / 100);

async function csvAsOwner(page: Page): Promise<Record<string, string>[]> {
  const answer = await page.request.get("/admin/orders/export");
  expect(answer.status()).toBe(200);
  return parse(Buffer.from(await answer.body()), { bom: true, columns: true }) as Record<string, string>[];
}

async function productInStock(): Promise<number> {
  const [product] = await shop.db.selectFrom("products").select("id").where("archived_at", "is", null).where("stock", ">", 5).orderBy("id").limit(1).execute();
  return product.id;
}

/** The newest e-mail to the address, decoded, once the outbox has written it. */
async function newestMailTo(address: string, subject: string): Promise<string> {
  let text = "";
  await expect
    .poll(async () => {
      const found = (await readOutbox(E2E_DATA_DIR, address)).map((m) => decodeQuotedPrintable(m.raw)).filter((raw) => raw.includes(subject));
      text = found.at(-1) ?? "";
      return text;
    }, { timeout: 20_000 })
    .toBeTruthy();
  return text;
}

test("the privacy notice is linked from the footer, names the owner and its recipients, in English and Spanish", async ({ page, request }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  const main = page.locator("main");
  await expect(main).toContainText("Unboxed runs this shop");
  await expect(main).toContainText("hello@unboxed.example");
  await expect(main).toContainText("+234 801 234 5678");
  await expect(main).toContainText("Lekki, Lagos, Nigeria");
  for (const recipient of ["Paystack", "Termii", "WhatsApp Business Platform", "courier"]) await expect(main).toContainText(recipient);
  await expect(main).toContainText("Orders: 6 years");

  // An anonymous visitor's copy may be kept by a shared cache, like the other content pages.
  const anonymous = await request.get("/privacy", { headers: { Cookie: "" } });
  expect(anonymous.headers()["cache-control"]).toMatch(/^public/);

  await page.goto("/privacy?lng=es");
  await expect(page.getByRole("heading", { level: 1, name: "Política de privacidad" })).toBeVisible();
  await expect(main).toContainText("Unboxed gestiona esta tienda");
  await expect(main).toContainText("Paystack");
  await expect(page.getByRole("button", { name: "Enviarme un enlace" })).toBeVisible();
});

test("a shopper downloads their data, then erases the account; the owner's lists, order page, dashboard and CSV still total the same and name no one", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const email = `adaeze-${stamp}@example.com`;
  // Names no other journey uses: the owner's lists show every journey's customers.
  const firstName = `Adaeze${stamp}`;
  const lastName = `Okafor${stamp}`;
  const phone = "+2348091234567";
  const street = `${stamp} Bourdillon Road`;
  const customer = await createCustomer(shop, email, firstName, lastName);
  await shop.db.updateTable("users").set({ password_hash: await hashPassword(PASSWORD), phone }).where("id", "=", customer.userId).execute();
  const productId = await productInStock();
  const address = { street, city: "Ikoyi", state: "Lagos", country: "Nigeria" };
  const delivered = await insertOrder(shop.db, { userId: customer.userId, status: "delivered", items: [{ productId, quantity: 2 }], address, phone, paidAt: new Date().toISOString() });
  const cancelled = await insertOrder(shop.db, { userId: customer.userId, status: "cancelled", items: [{ productId, quantity: 1 }], address, phone });
  await shop.db.insertInto("addresses").values({ user_id: customer.userId, street, city: "Ikoyi", state: "Lagos", country: "Nigeria", phone, created_at: new Date().toISOString() }).execute();
  await shop.db.insertInto("wishlist").values({ user_id: customer.userId, product_id: productId, created_at: new Date().toISOString() }).execute();
  const owner = await createAdmin(shop, `privacy-owner-${stamp}@unboxed.example`, "Bisi", "Owner");
  const traces = [email, firstName, lastName, phone, street];

  const ownerContext = await browser.newContext();
  await ownerContext.addCookies([{ name: "ub_session", value: owner.token, url: baseURL! }]);
  const ownerPage = await ownerContext.newPage();
  const csvBefore = await csvAsOwner(ownerPage);
  expect(csvBefore.find((r) => r.order === delivered.number)?.email).toBe(email);

  // The shopper: profile → their data → download.
  const shopperContext = await browser.newContext();
  await shopperContext.addCookies([{ name: "ub_session", value: customer.token, url: baseURL! }]);
  const page = await shopperContext.newPage();
  await page.goto("/profile");
  await page.getByRole("link", { name: "Your data and privacy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your data and privacy" })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^unboxed-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
  expect(file.data.account).toMatchObject({ email, firstName, lastName, phone });
  expect(file.data.orders.map((o: { number: string }) => o.number)).toEqual([delivered.number, cancelled.number]);
  expect(file.data.orders[0].items[0].quantity).toBe(2);
  expect(file.data.addresses[0].street).toBe(street);
  expect(file.data.wishlist).toHaveLength(1);

  // A wrong password changes nothing; the right one erases and signs out.
  await page.getByLabel("Your password, to confirm").fill("not my password");
  await page.getByRole("button", { name: "Erase my account" }).click();
  await expect(page.getByText("That password is not right")).toBeVisible();
  await page.getByLabel("Your password, to confirm").fill(PASSWORD);
  await page.getByRole("button", { name: "Erase my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Your account is erased. Thank you for shopping with us.")).toBeVisible();
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile/);
  await shopperContext.close();

  // The owner: the list, the order page, the dashboard and the CSV total the same and name no one.
  await ownerPage.goto(`/admin/orders`);
  const row = ownerPage.locator(`[data-order-row="${delivered.number}"]`);
  await expect(row).toContainText(naira(delivered.total));
  for (const trace of traces) await expect(ownerPage.locator("main")).not.toContainText(trace);
  await ownerPage.goto(`/admin/orders/${delivered.number}`);
  await expect(ownerPage.getByRole("heading", { level: 1 })).toContainText(delivered.number);
  await expect(ownerPage.locator("main")).toContainText(naira(delivered.total));
  for (const trace of traces) await expect(ownerPage.locator("main")).not.toContainText(trace);
  await ownerPage.goto("/admin");
  for (const trace of traces) await expect(ownerPage.locator("main")).not.toContainText(trace);

  const csvAfter = await csvAsOwner(ownerPage);
  expect(csvAfter.length).toBe(csvBefore.length);
  const sum = (rows: Record<string, string>[]) => rows.reduce((s, r) => s + Math.round(Number(r.total_ngn) * 100), 0);
  expect(sum(csvAfter)).toBe(sum(csvBefore));
  const ours = csvAfter.find((r) => r.order === delivered.number)!;
  expect(Math.round(Number(ours.total_ngn) * 100)).toBe(delivered.total);
  expect(ours.state).toBe("Lagos");
  const csvText = JSON.stringify(csvAfter);
  for (const trace of traces) expect(csvText).not.toContain(trace);

  // The audit log records it, and the owner was told by e-mail.
  await ownerPage.goto("/admin/audit");
  await expect(ownerPage.locator('[data-audit-entry="user:erase"]').first()).toContainText(`customer #${customer.userId}`);
  const notice = await newestMailTo("hello@unboxed.example", "A shopper's personal data was erased");
  expect(notice).toContain(delivered.number);
  for (const trace of traces) expect(notice).not.toContain(trace);
  await ownerContext.close();
});

test("without JavaScript a guest asks by e-mail, opens the link, downloads and erases what is kept", async ({ browser }) => {
  test.setTimeout(60_000);
  const email = `guest-${stamp}@example.com`;
  const productId = await productInStock();
  await shop.db
    .insertInto("back_in_stock_requests")
    .values({ product_id: productId, size_id: null, email, user_id: null, locale: "en", token: `privacy-${stamp}`, created_at: new Date().toISOString(), notified_at: null })
    .execute();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/privacy");
  await page.getByLabel("E-mail address").fill("not an address");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText("please enter a valid email address")).toBeVisible();
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText("If that address is yours, a link is on its way to it.")).toBeVisible();

  const mail = await newestMailTo(email, "Your data at Unboxed");
  const link = mail.match(/https?:\/\/[^\s"<>]+\/privacy\/confirm\?token=[A-Za-z0-9_-]{43}/)![0];
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Your data" })).toBeVisible();
  await expect(page.locator("[data-held]")).toContainText("1 back-in-stock request");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data" }).click()]);
  const file = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
  expect(file.subject).toEqual({ kind: "guest", email });
  expect(file.data.backInStockRequests).toHaveLength(1);

  await page.getByRole("button", { name: "Erase my data" }).click();
  await expect(page.getByText("Done: we no longer keep your personal data.")).toBeVisible();
  expect(await shop.db.selectFrom("back_in_stock_requests").select("id").where("email", "=", email).execute()).toEqual([]);
  const again = await page.goto(link);
  expect(again?.status()).toBe(410);
  await expect(page.getByText("This link has already been used.")).toBeVisible();
  await context.close();
});

test("the owner erases a customer from their page at the shopper's request; the audit log shows it", async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const email = `written-${stamp}@example.com`;
  const customer = await createCustomer(shop, email, "Halima", `Sani${stamp}`);
  const owner = await createAdmin(shop, `privacy-owner2-${stamp}@unboxed.example`, "Bisi", "Owner");
  const context = await browser.newContext();
  await context.addCookies([{ name: "ub_session", value: owner.token, url: baseURL! }]);
  const page = await context.newPage();
  await page.goto(`/admin/customers/${customer.userId}`);
  const panel = page.locator("[data-erase-panel]");
  await panel.getByRole("button", { name: "Erase personal data" }).click();
  await expect(panel.getByRole("alert")).toHaveText("Tick the box to confirm the shopper asked for this.");
  await panel.getByLabel("The shopper asked for this").check();
  await panel.getByRole("button", { name: "Erase personal data" }).click();
  await expect(page.getByText("Their personal data is erased. Their orders name no one.")).toBeVisible();
  await expect(page.locator("[data-erase-panel]")).toContainText("This account's personal data was erased.");
  await expect(page.locator("main")).not.toContainText(email);
  await expect(page.locator("main")).not.toContainText(`Sani${stamp}`);
  await page.goto("/admin/audit");
  await expect(page.locator('[data-audit-entry="user:erase"]').first()).toContainText(`customer #${customer.userId}`);
  await expect(page.locator('[data-audit-entry="user:erase"]').first()).toContainText("Bisi Owner");
  await context.close();
});
