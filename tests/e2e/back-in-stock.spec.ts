import path from "node:path";
import { expect, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { addProduct } from "../support/catalogue";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { insertOrder } from "../support/orders";
import { toast } from "./support";
import { E2E_DATA_DIR } from "../../playwright.config";

// A shopper asks to hear when a sold-out perfume is back; the owner puts it back in stock (here by
// cancelling the order that took the last bottle); the e-mail arrives with the product and a working
// link to stop such alerts (docs/decisions/133).

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

test("a visitor without JavaScript asks for a sold-out perfume; the owner restocks it and the e-mail arrives once", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const email = `waiting-${stamp}@example.com`;
  const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
  const category = await shop.db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  const name = `Last Bottle Oud ${stamp}`;
  const product = await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name, stock: 1 });
  // Dated long ago, so it is not among the newest products other journeys pick (it has no picture).
  await shop.db.updateTable("products").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", product.id).execute();
  // A customer's order took the last bottle.
  const buyer = await createCustomer(shop, `last-bottle-buyer-${stamp}@example.com`);
  const order = await insertOrder(shop.db, { userId: buyer.userId, items: [{ productId: product.id, quantity: 1 }] });

  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const page = await visitor.newPage();
  await page.goto(`/shop/${product.id}`);
  const form = page.getByRole("form", { name: "Out of stock for now" });
  await form.getByRole("button", { name: "Email me when it's back" }).click();
  // The browser's own check asks for the address first; a bad one sent anyway gets the shop's message.
  await page.evaluate(() => document.querySelector<HTMLInputElement>("#back-in-stock-email")?.removeAttribute("required"));
  await form.getByLabel("Your e-mail").fill("not-an-address");
  await page.evaluate(() => document.querySelector<HTMLInputElement>("#back-in-stock-email")?.setAttribute("type", "text"));
  await form.getByRole("button", { name: "Email me when it's back" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please enter a valid e-mail address." })).toBeVisible();
  await page.getByLabel("Your e-mail").fill(email);
  await page.getByRole("button", { name: "Email me when it's back" }).click();
  await expect(page).toHaveURL(new RegExp(`/shop/${product.id}$`));
  await expect(page.locator("[data-toast-fallback]")).toHaveText("We will e-mail you when it is back in stock.");
  await visitor.close();

  // The owner cancels the order: the bottle is back in stock.
  const admin = await createAdmin(shop, `restock-owner-${stamp}@unboxed.example`);
  const owner = await browser.newContext();
  await owner.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const ownerPage = await owner.newPage();
  await ownerPage.goto(`/admin/orders/${order.number}?cancel=1`);
  const confirm = ownerPage.getByRole("dialog", { name: `Cancel order ${order.number}?` });
  await confirm.getByRole("button", { name: "Cancel order" }).click();
  await expect(toast(ownerPage, `Order ${order.number} is now Cancelled`)).toBeVisible();
  await owner.close();

  const outbox = path.resolve(E2E_DATA_DIR);
  await expect.poll(async () => (await readOutbox(outbox, email)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await readOutbox(outbox, email);
  const raw = decodeQuotedPrintable(mail.raw);
  expect(raw).toContain(`Subject: Back in stock: ${name}`);
  expect(raw).toContain(`/shop/${product.id}`);
  const stopLink = raw.match(/https?:\/\/\S+\/back-in-stock\/stop\?token=[\w-]+/)![0];

  // The link asks before it stops anything.
  const reader = await browser.newContext();
  const mailPage = await reader.newPage();
  await mailPage.goto(stopLink.replace(/^https?:\/\/[^/]+/, ""));
  await mailPage.getByRole("button", { name: "Stop the alerts" }).click();
  await expect(mailPage.getByRole("status")).toContainText(`Done: ${email} will get no more back-in-stock alerts`);
  await reader.close();
  // Once only.
  await new Promise((r) => setTimeout(r, 1500));
  expect(await readOutbox(outbox, email)).toHaveLength(1);
});
