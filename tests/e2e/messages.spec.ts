import { type Browser, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { E2E_TERMII_URL, E2E_WHATSAPP_URL } from "../../playwright.config";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import type { TermiiSent } from "../support/termii-stand-in";
import type { WhatsAppSent } from "../support/whatsapp-stand-in";
import { grantConsent } from "~/domain/messages/consent.server";
import { insertOrder } from "../support/orders";
import { addFirstFromHome, hydrated } from "./support";

// WhatsApp and SMS messages reach the stand-ins playwright.config.ts starts (the real clients talk to
// them), a provider's refusal shows on the admin's order page, and a cart reminder brings a cart back
// in another browser.

let shop: DatabaseHandle;
let admin: { userId: number; token: string };
let counter = 0;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
  admin = await createAdmin(shop, `msg-owner-${stamp}@unboxed.example`, "Ada", "Owner");
});
test.afterAll(async () => {
  await shop?.db.destroy();
});

const whatsappSent = async () => (await (await fetch(`${E2E_WHATSAPP_URL}/_stand-in/messages`)).json()) as WhatsAppSent[];
const smsSent = async () => (await (await fetch(`${E2E_TERMII_URL}/_stand-in/messages`)).json()) as TermiiSent[];

async function customer(browser: Browser, baseURL: string | undefined, phone: string) {
  const email = `msg-${stamp}-${++counter}@example.com`;
  const { userId, token } = await createCustomer(shop, email);
  await shop.db.updateTable("users").set({ phone }).where("id", "=", userId).execute();
  const context = await browser.newContext();
  await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
  return { email, userId, context, page: await context.newPage() };
}

async function placeOrder(page: Page, phone: string): Promise<string> {
  await addFirstFromHome(page);
  await page.goto("/checkout");
  await hydrated(page);
  await page.getByLabel("Mobile number").fill(phone);
  await page.getByLabel("Street Address").fill("12 Admiralty Way");
  await page.getByLabel("City").fill("Lekki");
  await page.getByLabel("State").selectOption("Lagos");
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.locator('button[form="checkout-form"]').click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  return page.url().split("/").pop()!;
}

test("an order's confirmation and shipped messages reach WhatsApp and SMS in the shopper's language", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { page, context, userId } = await customer(browser, baseURL, "+2348031230001");
  const number = await placeOrder(page, "0803 123 0001");
  await expect
    .poll(async () => (await whatsappSent()).filter((m) => m.to === "2348031230001").map((m) => [m.template, m.language, m.params[1]]))
    .toEqual([["unboxed_order_placed", "en", number]]);
  await expect.poll(async () => (await smsSent()).filter((m) => m.to === "2348031230001").map((m) => m.sms)).toEqual([expect.stringContaining(`your order ${number}`)]);
  // The shopper goes on in Spanish (the language the shop remembers): the dispatch message is in Spanish.
  await page.goto("/?lng=es");
  await expect.poll(async () => (await shop.db.selectFrom("users").select("locale").where("id", "=", userId).executeTakeFirstOrThrow()).locale).toBe("es");

  const adminContext = await browser.newContext();
  await adminContext.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const adminPage = await adminContext.newPage();
  await adminPage.goto(`/admin/orders/${number}`);
  await adminPage.getByRole("button", { name: "Mark as confirmed" }).click();
  await expect(adminPage.locator("[data-history-status]")).toHaveCount(2);
  await adminPage.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(adminPage.locator("[data-history-status]")).toHaveCount(3);
  await expect
    .poll(async () => (await whatsappSent()).filter((m) => m.to === "2348031230001").map((m) => [m.template, m.language]))
    .toEqual([["unboxed_order_placed", "en"], ["unboxed_order_shipped", "es"]]);
  await expect.poll(async () => (await smsSent()).filter((m) => m.to === "2348031230001").map((m) => m.sms)).toEqual([expect.any(String), expect.stringContaining(`tu pedido ${number} está en camino`)]);
  // Delivery reports came back signed: the order page shows the messages delivered.
  await expect.poll(async () => {
    await adminPage.reload();
    return adminPage.locator('[data-message-status="delivered"]').count();
  }).toBe(4);
  await context.close();
  await adminContext.close();
});

test("a provider's refusal shows on the admin's order page without losing the order", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  // The template is refused (132001 'template does not exist') and Termii says the balance is empty, for good.
  await fetch(`${E2E_WHATSAPP_URL}/_stand-in/fail`, { method: "POST", body: JSON.stringify({ code: 132001, times: 1 }) });
  await fetch(`${E2E_TERMII_URL}/_stand-in/fail`, { method: "POST", body: JSON.stringify({ message: "Invalid phone number", times: 1 }) });
  const { page, context } = await customer(browser, baseURL, "+2348031230002");
  const number = await placeOrder(page, "0803 123 0002");
  const adminContext = await browser.newContext();
  await adminContext.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const adminPage = await adminContext.newPage();
  await expect.poll(async () => {
    await adminPage.goto(`/admin/orders/${number}`);
    return adminPage.locator('[data-message-status="failed"]').count();
  }).toBe(2);
  await expect(adminPage.getByTestId("order-messages")).toContainText("WhatsApp 132001");
  await expect(adminPage.getByTestId("order-messages")).toContainText("The order itself is unaffected");
  await expect(adminPage.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
  await adminPage.goto("/admin");
  await expect(adminPage.locator('[data-figure="messages-whatsapp"]')).toContainText(/[1-9]\d* failed/);
  await context.close();
  await adminContext.close();
});

test("a shopper who agreed to reminders gets one for a left cart, and its link restores the cart in another browser", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { page, context, userId } = await customer(browser, baseURL, "+2348031230003");
  // The opt-in, ticked in the profile (plain HTML, unticked at first).
  await page.goto("/profile");
  const consent = page.getByTestId("marketing-consent");
  await expect(consent.getByRole("checkbox")).not.toBeChecked();
  await consent.getByRole("checkbox").check();
  await consent.getByRole("button").click();
  await expect(page.getByTestId("marketing-consent")).toContainText("You agreed to reminders and offers");
  await addFirstFromHome(page);
  // Two carts left as long that get no reminder: one whose shopper never agreed, and one whose shopper
  // agreed but has ordered since (on another device: a WhatsApp order).
  const silent = await customer(browser, baseURL, "+2348031230004");
  await addFirstFromHome(silent.page);
  const ordered = await customer(browser, baseURL, "+2348031230005");
  await grantConsent(shop.db, { userId: ordered.userId, source: "profile", locale: "en", wording: "Send me reminders and offers" });
  await addFirstFromHome(ordered.page);
  const [{ id: productId }] = await shop.db.selectFrom("products").select("id").where("stock", ">", 3).orderBy("id").limit(1).execute();
  await insertOrder(shop.db, { userId: ordered.userId, channel: "whatsapp", items: [{ productId, quantity: 1 }], address: null });
  // Left five hours ago.
  const leftAt = new Date(Date.now() - 5 * 3600_000).toISOString();
  await shop.db.updateTable("carts").set({ updated_at: leftAt }).where("user_id", "in", [silent.userId, ordered.userId]).execute();
  await shop.db.updateTable("carts").set({ updated_at: leftAt }).where("user_id", "=", userId).execute();
  await expect.poll(async () => (await whatsappSent()).filter((m) => m.to === "2348031230003" && m.template === "unboxed_cart_reminder").length, { timeout: 20_000 }).toBe(1);
  const reminder = (await whatsappSent()).find((m) => m.to === "2348031230003" && m.template === "unboxed_cart_reminder")!;
  const restoreUrl = reminder.params[1];
  expect(restoreUrl).toMatch(/\/cart\/restore\/[\w-]+$/);

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(restoreUrl);
  await expect(otherPage).toHaveURL(/\/cart$/);
  await expect(otherPage.getByTestId("cart-count")).toHaveText("1");
  // Only one reminder for that cart, however long it waits.
  await otherPage.waitForTimeout(2500);
  expect((await whatsappSent()).filter((m) => m.to === "2348031230003" && m.template === "unboxed_cart_reminder")).toHaveLength(1);
  // The looks that sent it passed the other two carts by.
  const remindedElsewhere = (await whatsappSent()).filter((m) => m.template.startsWith("unboxed_cart_reminder") && (m.to === "2348031230004" || m.to === "2348031230005"));
  expect(remindedElsewhere).toEqual([]);
  expect((await smsSent()).filter((m) => m.to === "2348031230004" || m.to === "2348031230005")).toEqual([]);
  await silent.context.close();
  await ordered.context.close();
  // The stop link ends the opt-in in one click.
  await otherPage.goto(reminder.params[2]);
  await otherPage.getByRole("button", { name: "Stop them" }).click();
  await expect(otherPage.getByRole("status")).toContainText("no more reminders");
  await other.close();
  await context.close();
});

test("a guest who ticks the box at checkout and leaves gets one reminder with the owner's code; its link brings the cart and the code to another browser, and the order counts as recovered", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // The owner picks a discount code for reminders on the messages screen.
  const code = `BACK${stamp}`.toUpperCase();
  const at = new Date().toISOString();
  await shop.db
    .insertInto("promotions")
    .values({ code, code_key: code.toLowerCase(), kind: "percent", value: 10, min_subtotal: null, starts_at: null, ends_at: null, usage_limit: null, per_customer_limit: null, combines_with_sale: 1, uses: 0, paused_at: null, created_at: at, updated_at: at })
    .execute();
  const adminContext = await browser.newContext();
  await adminContext.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const adminPage = await adminContext.newPage();
  await adminPage.goto("/admin/messages");
  await hydrated(adminPage);
  // A code the shop does not have (a forged option) is refused with a message, and nothing is saved.
  await adminPage.getByLabel("Discount code in cart reminders").evaluate((select: HTMLSelectElement) => select.add(new Option("NOSUCHCODE", "NOSUCHCODE")));
  await adminPage.getByLabel("Discount code in cart reminders").selectOption("NOSUCHCODE");
  const refused = adminPage.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/admin/messages"));
  await adminPage.getByRole("button", { name: "Save" }).click();
  expect((await refused).status()).toBe(400);
  await expect(adminPage.getByText("Please choose one of the shop's discount codes.")).toBeVisible();
  await adminPage.goto("/admin/messages");
  await expect(adminPage.getByLabel("Discount code in cart reminders")).toHaveValue("");
  await adminPage.getByLabel("Discount code in cart reminders").selectOption(code);
  await adminPage.getByRole("button", { name: "Save" }).click();
  await expect(adminPage.getByText("Message settings saved")).toBeVisible();
  await expect(adminPage.getByLabel("Discount code in cart reminders")).toHaveValue(code);
  const figure = async () => {
    await adminPage.goto("/admin");
    const text = await adminPage.locator('[data-figure="cart-reminders"]').innerText();
    const [, sent, recovered] = /(\d+) sent, (\d+) carts recovered/.exec(text) ?? [];
    return { sent: Number(sent), recovered: Number(recovered), text };
  };
  const before = await figure();

  try {
    // A guest, without JavaScript, fills the checkout, ticks the (unticked) box, and leaves before the address.
    const guest = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.201" } });
    const page = await guest.newPage();
    await page.goto("/");
    const card = page.locator("main article").filter({ has: page.getByRole("button", { name: "Add to Cart" }) }).first();
    await card.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await page.goto("/checkout");
    const box = page.getByLabel(/Send me cart reminders/);
    await expect(box).not.toBeChecked();
    await page.getByLabel("Full name", { exact: true }).fill("Ngozi Eze");
    await page.getByLabel("E-mail", { exact: true }).fill(`guest-reminded-${stamp}@example.com`);
    await page.getByLabel("Mobile number", { exact: true }).fill("0803 123 0004");
    await box.check();
    await page.getByRole("button", { name: "Process Order" }).click();
    // Refused (no address), but the choice is kept on the cart: the page shows it ticked.
    await expect(page.getByLabel(/Send me cart reminders/)).toBeChecked();
    const consent = await shop.db
      .selectFrom("marketing_consents")
      .select(["cart_id", "contact_phone", "contact_email", "source", "wording", "granted_at"])
      .where("contact_email", "=", `guest-reminded-${stamp}@example.com`)
      .executeTakeFirstOrThrow();
    expect(consent).toMatchObject({ contact_phone: "+2348031230004", source: "checkout", wording: expect.stringContaining("Send me cart reminders") });
    // Left five hours ago.
    await shop.db.updateTable("carts").set({ updated_at: new Date(Date.now() - 5 * 3600_000).toISOString() }).where("id", "=", consent.cart_id!).execute();
    const reminders = async () => (await whatsappSent()).filter((m) => m.to === "2348031230004" && m.template.startsWith("unboxed_cart_reminder"));
    await expect.poll(async () => (await reminders()).length, { timeout: 20_000 }).toBe(1);
    const [reminder] = await reminders();
    expect(reminder.template).toBe("unboxed_cart_reminder_code");
    expect(reminder.params.slice(0, 2)).toEqual(["Ngozi Eze", code]);
    const restoreUrl = reminder.params[2];
    expect(restoreUrl).toMatch(/\/cart\/restore\/[\w-]+$/);

    // Another browser, with JavaScript: the cart and the code come back; the guest orders there.
    const other = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.202" } });
    const otherPage = await other.newPage();
    await otherPage.goto(restoreUrl);
    await expect(otherPage).toHaveURL(/\/cart$/);
    await expect(otherPage.getByText(`Your cart is back, with the code ${code}.`)).toBeVisible();
    await expect(otherPage.getByTestId("cart-count")).toHaveText("1");
    expect((await shop.db.selectFrom("cart_reminders").select("promotion_code").where("cart_id", "=", consent.cart_id!).executeTakeFirstOrThrow()).promotion_code).toBe(code);
    await otherPage.goto("/checkout");
    await hydrated(otherPage);
    await otherPage.getByLabel("Full name", { exact: true }).fill("Ngozi Eze");
    await otherPage.getByLabel("E-mail", { exact: true }).fill(`guest-reminded-${stamp}@example.com`);
    await otherPage.getByLabel("Mobile number", { exact: true }).fill("0803 123 0004");
    await otherPage.getByLabel("Street Address", { exact: true }).fill("3 Awolowo Road");
    await otherPage.getByLabel("City", { exact: true }).fill("Ikoyi");
    await otherPage.getByLabel("State", { exact: true }).selectOption("Lagos");
    await otherPage.getByRole("radio", { name: /Bank transfer/ }).check();
    await otherPage.getByRole("button", { name: "Process Order" }).click();
    await expect(otherPage).toHaveURL(/\/track\/[A-Za-z0-9_-]{43}$/);
    const number = ((await otherPage.getByRole("heading", { level: 1 }).innerText()).match(/UB-\d+/) ?? [""])[0];
    // The code was judged at checkout and took its 10 % off.
    const order = await shop.db.selectFrom("orders").select(["id", "total", "promotion_code", "discount"]).where("number", "=", number).executeTakeFirstOrThrow();
    expect(order.promotion_code).toBe(code);
    expect(Number(order.discount)).toBeGreaterThan(0);
    // One reminder, however long the cart waits; the dashboard counts it, and the cart that came back.
    expect(await reminders()).toHaveLength(1);
    const after = await figure();
    expect(after.sent - before.sent).toBe(1);
    expect(after.recovered - before.recovered).toBe(1);
    expect((await shop.db.selectFrom("cart_reminders").select("order_total").where("cart_id", "=", consent.cart_id!).executeTakeFirstOrThrow()).order_total).toBe(Number(order.total));
    await guest.close();
    await other.close();
  } finally {
    // The next journeys' reminders carry no code.
    await shop.db.updateTable("cart_reminder_settings").set({ promotion_code: null }).execute();
    await adminContext.close();
  }
});
