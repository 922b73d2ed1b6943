import { type Browser, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { hydrated } from "./support";

// Buying without an account (docs/decisions/217): guest checkout, the order's private link, "Track
// your order", paying online later, and an account afterwards. Each journey has its own shopper
// address (the server trusts the local proxy's X-Forwarded-For), so the per-IP limits are its own.

let shop: DatabaseHandle;
let counter = 0;
const stamp = Date.now().toString(36);
const uniqueEmail = (label: string) => `${label}-${stamp}-${++counter}@example.com`;
/** Each journey its own mobile number too: a guest may have only 3 open orders per phone. */
let phones = 0;
const uniquePhone = () => ({ typed: `0803 123 45${10 + ++phones}`, stored: `+23480312345${10 + phones}`, shown: `+234 803 123 45${10 + phones}` });

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.db.destroy();
});

const TEXTS = {
  en: {
    add: "Add to Cart",
    name: "Full name",
    email: "E-mail",
    phone: "Mobile number",
    street: "Street Address",
    city: "City",
    state: "State",
    onDelivery: /Pay on delivery/,
    bankTransfer: /Bank transfer/,
    process: "Process Order",
    confirmLagos: /Delivery to Lagos is ₦3,000\.00\. Your total is ₦[\d,.]+\./,
    footer: "Track your order",
    number: "Order number",
    contact: "Phone or e-mail",
    track: "Track order",
    pending: "pending",
    payOnDelivery: "To be paid on delivery",
    notFound: "We could not find an order with that number and that phone or e-mail. Please check both.",
  },
  es: {
    add: "Añadir al carrito",
    name: "Nombre completo",
    email: "Correo electrónico",
    phone: "Número de móvil",
    street: "Dirección",
    city: "Ciudad",
    state: "Estado",
    onDelivery: /Pago contra entrega/,
    bankTransfer: /Transferencia bancaria/,
    process: "Procesar pedido",
    confirmLagos: /El envío a Lagos cuesta ₦3,000\.00\. Tu total es ₦[\d,.]+/,
    footer: "Sigue tu pedido",
    number: "Número de pedido",
    contact: "Teléfono o correo electrónico",
    track: "Seguir pedido",
    pending: "pendiente",
    payOnDelivery: "Por pagar contra entrega",
    notFound: "No encontramos ningún pedido con ese número y ese teléfono o correo. Revisa ambos.",
  },
} as const;
type Lang = keyof typeof TEXTS;

async function guestBrowser(browser: Browser, address: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { "X-Forwarded-For": address } });
  return { context, page: await context.newPage() };
}

/** Puts the first perfume of the home page that can be bought into the cart (in the page's language). */
async function addFirst(page: Page, lang: Lang, javaScript: boolean) {
  await page.goto(lang === "es" ? "/?lng=es" : "/");
  if (javaScript) await hydrated(page);
  const add = TEXTS[lang].add;
  const card = page.locator("main article").filter({ has: page.getByRole("button", { name: add }) }).first();
  const before = Number(await page.getByTestId("cart-count").innerText());
  const answered = javaScript ? page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/cart")) : null;
  await card.getByRole("button", { name: add }).click();
  await answered;
  await expect(page.getByTestId("cart-count")).toHaveText(String(before + 1));
}

/** Fills the guest checkout for delivery to Lagos and places the order; returns the order's number and private link. */
async function checkOutAsGuest(
  page: Page,
  { lang, javaScript, email, payment, state = "Lagos", phone = uniquePhone().typed }: { lang: Lang; javaScript: boolean; email: string; payment: "onDelivery" | "bankTransfer" | "paystack"; state?: string; phone?: string },
): Promise<{ number: string; link: string } | null> {
  const x = TEXTS[lang];
  await page.goto("/checkout");
  if (javaScript) await hydrated(page);
  await page.getByLabel(x.name, { exact: true }).fill("Ada Obi");
  await page.getByLabel(x.email, { exact: true }).fill(email);
  await page.getByLabel(x.phone, { exact: true }).fill(phone);
  await page.getByLabel(x.street, { exact: true }).fill("3 Awolowo Road");
  await page.getByLabel(x.city, { exact: true }).fill("Ikoyi");
  await page.getByLabel(x.state, { exact: true }).selectOption(state);
  if (payment !== "paystack") await page.getByRole("radio", { name: x[payment] }).check();
  await page.getByRole("button", { name: x.process }).click();
  if (!javaScript) {
    // Without a script the page cannot show the fee first: it asks to confirm the total.
    if (state === "Lagos") await expect(page.getByText(x.confirmLagos)).toBeVisible();
    await expect(page.getByLabel(x.email, { exact: true })).toHaveValue(email);
    await page.getByRole("button", { name: x.process }).click();
  }
  if (payment === "paystack") return null;
  await expect(page).toHaveURL(/\/track\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/UB-\d+/);
  const number = ((await page.getByRole("heading", { level: 1 }).innerText()).match(/UB-\d+/) ?? [""])[0];
  return { number, link: new URL(page.url()).pathname };
}

async function trackByPhone(page: Page, lang: Lang, number: string, contact: string) {
  const x = TEXTS[lang];
  await page.getByRole("contentinfo").getByRole("link", { name: x.footer }).click();
  await expect(page).toHaveURL(/\/track$/);
  await page.getByLabel(x.number).fill(number);
  await page.getByLabel(x.contact).fill(contact);
  await page.getByRole("button", { name: x.track }).click();
}

for (const lang of ["en", "es"] as const) {
  for (const javaScript of [true, false]) {
    test(`a guest buys with pay on delivery and tracks the order by number and phone (${lang}, ${javaScript ? "with" : "without"} JavaScript)`, async ({ browser }) => {
      test.setTimeout(90_000);
      const x = TEXTS[lang];
      const { context, page } = await guestBrowser(browser, `203.0.113.${(lang === "en" ? 110 : 120) + (javaScript ? 1 : 2)}`, javaScript);
      await addFirst(page, lang, javaScript);
      const email = uniqueEmail(`guest-${lang}`);
      const phone = uniquePhone();
      const placed = (await checkOutAsGuest(page, { lang, javaScript, email, payment: "onDelivery", phone: phone.typed }))!;
      await expect(page.getByTestId("order-payment")).toHaveText(x.payOnDelivery);
      await expect(page.getByText(phone.shown)).toBeVisible();
      const row = await shop.db.selectFrom("orders").select(["user_id", "email", "phone", "payment_method"]).where("number", "=", placed.number).executeTakeFirstOrThrow();
      expect(row).toEqual({ user_id: null, email, phone: phone.stored, payment_method: "on_delivery" });
      // The confirmation carries the private link.
      await expect
        .poll(async () => (await readOutbox(E2E_DATA_DIR, email)).map((m) => decodeQuotedPrintable(m.raw)).some((m) => m.includes(placed.link)), { timeout: 20_000 })
        .toBe(true);

      // Tracked by number and phone, typed another way; a wrong phone finds nothing.
      await trackByPhone(page, lang, placed.number, "0803 999 0000");
      await expect(page.getByRole("alert")).toHaveText(x.notFound);
      await trackByPhone(page, lang, placed.number.toLowerCase(), phone.shown);
      const tracked = page.getByTestId("tracked-order");
      await expect(tracked).toContainText(placed.number);
      await expect(tracked).toContainText(x.pending);
      await expect(tracked).toContainText(x.payOnDelivery);
      await context.close();
    });
  }
}

test("a second guest reaches the first guest's order by no URL", async ({ browser }) => {
  test.setTimeout(90_000);
  const first = await guestBrowser(browser, "203.0.113.131");
  await addFirst(first.page, "en", true);
  const placed = (await checkOutAsGuest(first.page, { lang: "en", javaScript: true, email: uniqueEmail("first"), payment: "bankTransfer" }))!;
  await first.context.close();

  const second = await guestBrowser(browser, "203.0.113.132");
  const { page } = second;
  // The signed-in pages of the order ask to sign in; the private link with any other token is not found.
  for (const path of [`/orders/${placed.number}`, `/orders/${placed.number}/invoice`, `/orders/${placed.number}/pay`]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  }
  const token = placed.link.split("/").pop()!;
  const other = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
  for (const path of [`/track/${other}`, `/track/${other}/invoice`, `/track/${other}/pay`, `/track/${placed.number}`, "/track/%00"]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
  }
  // Nor by tracking it without its phone or e-mail.
  await page.goto("/track");
  await page.getByLabel("Order number").fill(placed.number);
  await page.getByLabel("Phone or e-mail").fill("someone@example.com");
  await page.getByRole("button", { name: "Track order" }).click();
  await expect(page.getByRole("alert")).toHaveText(TEXTS.en.notFound);
  await expect(page.getByTestId("tracked-order")).toHaveCount(0);
  await second.context.close();
});

test("a guest pays online through Paystack and comes back to the paid order", async ({ browser }) => {
  test.setTimeout(90_000);
  const { context, page } = await guestBrowser(browser, "203.0.113.141");
  await addFirst(page, "en", true);
  const email = uniqueEmail("guest-online");
  await checkOutAsGuest(page, { lang: "en", javaScript: true, email, payment: "paystack", state: "Kano" });
  await expect(page.getByRole("heading", { name: "Paystack Checkout" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("button", { name: /with card/ }).click();
  await expect(page).toHaveURL(/\/track\/[A-Za-z0-9_-]{43}$/);
  await expect(page.locator("header [data-payment-status]")).toHaveText("paid");
  await expect(page.getByTestId("order-payment")).toContainText("Paid online with Paystack");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/UB-\d+/);
  const number = ((await page.getByRole("heading", { level: 1 }).innerText()).match(/UB-\d+/) ?? [""])[0];
  const row = await shop.db.selectFrom("orders").select(["payment_status", "user_id"]).where("number", "=", number).executeTakeFirstOrThrow();
  expect(row).toEqual({ payment_status: "paid", user_id: null });
  // The invoice prints from the private link. The click waits for the page to be hydrated: a click
  // while React attaches its handlers can be dropped.
  await hydrated(page);
  await page.getByRole("link", { name: "Invoice" }).click();
  await expect(page).toHaveURL(/\/track\/[A-Za-z0-9_-]{43}\/invoice$/);
  await expect(page.getByText(number).first()).toBeVisible();
  await context.close();
});

test("a guest creates an account from the order's page and finds the order in their profile", async ({ browser }) => {
  test.setTimeout(90_000);
  const { context, page } = await guestBrowser(browser, "203.0.113.151");
  await addFirst(page, "en", true);
  const email = uniqueEmail("guest-joins");
  const placed = (await checkOutAsGuest(page, { lang: "en", javaScript: true, email, payment: "bankTransfer" }))!;
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Password").evaluate((input: HTMLInputElement) => input.removeAttribute("minlength"));
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByText("Your password must be at least 8 characters")).toBeVisible();
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page).toHaveURL(/\/profile\?tab=orders$/);
  await expect(page.getByText(placed.number).first()).toBeVisible();
  const user = await shop.db.selectFrom("users").select(["id", "role"]).where("email", "=", email).executeTakeFirstOrThrow();
  expect(user.role).toBe("customer");
  const order = await shop.db.selectFrom("orders").select("user_id").where("number", "=", placed.number).executeTakeFirstOrThrow();
  expect(order.user_id).toBe(user.id);
  // The order's own page now opens for the account; the private link no longer offers an account.
  await page.goto(`/orders/${placed.number}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${placed.number}`);
  await page.goto(placed.link);
  await expect(page.getByRole("heading", { name: "Create an account" })).toHaveCount(0);
  await context.close();
});
