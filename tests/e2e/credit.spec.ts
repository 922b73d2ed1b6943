import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { addLine, userCartId } from "~/domain/shopper/cart.server";
import { formatLagosDate } from "~/lib/dates";
import { readOutbox } from "~/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { aProductNotOnSale, hydrated, naira } from "./support";

// Store credit and gift cards (docs/decisions/224), end to end: a paid order refunded in part as store
// credit and spent on the next orders (in English), and a gift card issued by the owner to someone's
// e-mail and spent over two orders by a guest, then refused (in Spanish). Each journey has its own
// shopper address, so the per-address limits are its own.

const kobo = (shown: string) => Math.round(Number(shown.replace(/[₦,\s−-]/g, "")) * 100);
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

async function signedIn(browser: Browser, baseURL: string, token: string, lang: "en" | "es", address: string, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { "X-Forwarded-For": address } });
  await context.addCookies([
    { name: "ub_session", value: token, url: baseURL },
    { name: "lng", value: lang, url: baseURL },
  ]);
  return { context, page: await context.newPage() };
}

async function ownerBrowser(browser: Browser, baseURL: string, address: string) {
  const shop = await openShopDatabase();
  let token: string;
  try {
    token = (await createAdmin(shop, `credit-owner-${unique()}@example.com`)).token;
  } finally {
    await shop.close();
  }
  return signedIn(browser, baseURL, token, "en", address);
}

async function putInCart(userId: number, productId: number) {
  const shop = await openShopDatabase();
  try {
    await addLine(shop.db, await userCartId(shop.db, userId), productId);
  } finally {
    await shop.close();
  }
}

/** The account's checkout, delivery to Lagos, paid online unless credit pays it all; the order's number. */
async function accountCheckout(page: Page, { paystack }: { paystack: "card" | "none" }): Promise<string> {
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  await page.getByLabel("Street Address").fill("15 Bourdillon Road");
  await page.getByLabel("City").fill("Ikoyi");
  await page.getByLabel("State").selectOption("Lagos");
  await expect(page.getByTestId("checkout-delivery")).toContainText("₦");
  await expect(page.getByRole("radio", { name: /Pay online/ })).toBeChecked();
  await page.getByRole("button", { name: "Process Order" }).click();
  if (paystack === "card") {
    await expect(page.getByRole("heading", { name: "Paystack Checkout" })).toBeVisible();
    await page.getByRole("button", { name: /with card/ }).click();
  }
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  return page.url().split("/").pop()!;
}

const ledger = async (where: { userId?: number; giftCardCode?: string }) => {
  const shop = await openShopDatabase();
  try {
    let q = shop.db.selectFrom("credit_ledger as l").leftJoin("orders as o", "o.id", "l.order_id").leftJoin("gift_cards as g", "g.id", "l.gift_card_id").select(["l.amount", "l.reason", "o.number"]);
    if (where.userId) q = q.where("l.user_id", "=", where.userId);
    if (where.giftCardCode) q = q.where("g.code", "=", where.giftCardCode);
    return (await q.orderBy("l.id").execute()).map((r) => ({ amount: Number(r.amount), reason: r.reason, order: r.number }));
  } finally {
    await shop.close();
  }
};

test("a paid order refunded in part as store credit, spent partly on the next order and wholly on a third (en)", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const address = "203.0.113.81";
  const product = await aProductNotOnSale(1_000_000);
  const shop = await openShopDatabase();
  const email = `credit-${unique()}@example.com`;
  let customer: { userId: number; token: string };
  try {
    customer = await createCustomer(shop, email, "Funmi", "Adeyemi");
  } finally {
    await shop.close();
  }
  const { context, page } = await signedIn(browser, baseURL!, customer.token, "en", address);

  // 1. The shopper orders and pays online.
  await putInCart(customer.userId, product.id);
  await page.goto("/checkout");
  const first = await accountCheckout(page, { paystack: "card" });
  await expect(page.locator("header [data-payment-status]")).toHaveAttribute("data-payment-status", "paid");
  const firstTotal = kobo(await page.getByTestId("order-total").innerText());

  // 2. The owner refunds ₦20,000 of it as store credit from the order's page, with a note.
  const refund = 2_000_000;
  const owner = await ownerBrowser(browser, baseURL!, address);
  await owner.page.goto(`/admin/orders/${first}`);
  const panel = owner.page.getByRole("region", { name: "Refund as store credit" });
  await expect(panel).toContainText(`Up to ${naira(firstTotal)} can still be refunded as credit.`);
  await panel.getByLabel("Amount (₦)").fill("20,000");
  await panel.getByLabel("Note (optional)").fill("One bottle arrived scratched");
  await panel.getByRole("button", { name: "Refund as store credit" }).click();
  await expect(owner.page).toHaveURL(new RegExp(`/admin/orders/${first}$`));
  await expect(owner.page.getByText(`${naira(refund)} refunded as store credit.`)).toBeVisible();
  await expect(panel).toContainText(`Up to ${naira(firstTotal - refund)} can still be refunded as credit.`);
  // More than is left is refused, with the reason, and nothing is written.
  await panel.getByLabel("Amount (₦)").fill(String(Math.ceil((firstTotal - refund) / 100) + 1));
  await panel.getByRole("button", { name: "Refund as store credit" }).click();
  await expect(owner.page.getByRole("alert").filter({ hasText: `That is more than can still be refunded as credit (${naira(firstTotal - refund)}).` })).toBeVisible();

  // Refunding the whole order through Paystack now would pay the ₦20,000 twice: refused, the order still paid.
  await owner.page.goto(`/admin/orders/${first}`);
  await owner.page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(owner.page.getByText("Part of this order was refunded as store credit: refund the rest as store credit too.")).toBeVisible();
  await expect(owner.page.locator("[data-payment-status]").first()).toHaveAttribute("data-payment-status", "paid");

  // 3. The shopper sees the balance and why in their profile.
  await page.goto("/profile");
  const credit = page.getByTestId("profile-credit");
  await expect(credit.getByTestId("credit-balance")).toHaveText(`Your balance: ${naira(refund)}`);
  await expect(credit.getByRole("row").filter({ hasText: `Refund as store credit · Order ${first}` })).toContainText(`+${naira(refund)}`);

  // 4. The next order: the credit pays ₦20,000 of it, Paystack is asked for the rest only.
  await putInCart(customer.userId, product.id);
  await page.goto("/checkout");
  await expect(page.getByTestId("credit-panel").getByTestId("credit-balance")).toHaveText(`Your store credit: ${naira(refund)}`);
  await page.getByTestId("credit-panel").getByRole("button", { name: "Use my store credit" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByTestId("credit-panel")).toContainText(`Your store credit pays up to ${naira(refund)} of this order.`);
  await hydrated(page);
  await page.getByLabel("Mobile number").fill("0803 123 4567");
  await page.getByLabel("Street Address").fill("15 Bourdillon Road");
  await page.getByLabel("City").fill("Ikoyi");
  await page.getByLabel("State").selectOption("Lagos");
  const secondTotal = kobo(await page.getByTestId("checkout-total").innerText());
  await page.getByRole("button", { name: "Process Order" }).click();
  await expect(page.getByRole("heading", { name: "Paystack Checkout" })).toBeVisible();
  await expect(page.locator("[data-amount]")).toHaveText(naira(secondTotal - refund));
  await page.getByRole("button", { name: /with card/ }).click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const second = page.url().split("/").pop()!;
  await expect(page.locator("header [data-payment-status]")).toHaveAttribute("data-payment-status", "paid");
  await expect(page.getByTestId("order-total")).toHaveText(naira(secondTotal));
  await expect(page.getByTestId("order-credit-line")).toHaveText([`Store credit−${naira(refund)}`, `To pay${naira(secondTotal - refund)}`]);
  await expect(page.getByTestId("order-payment")).toContainText("Paid online with Paystack");
  // The 'payment received' e-mail thanks for what Paystack took, not the whole total.
  await expect
    .poll(async () => (await readOutbox(E2E_DATA_DIR, email)).map((m) => decodeQuotedPrintable(m.raw)).find((m) => m.includes(`Payment received for your Unboxed order ${second}`)) ?? "", { timeout: 20_000 })
    .toContain(`We have received your payment of ${naira(secondTotal - refund)} for order ${second}.`);

  // 5. The owner gives more credit by hand, with a note; a third order is paid by it wholly: no Paystack.
  const gift = 50_000_000;
  await owner.page.goto(`/admin/customers/${customer.userId}`);
  const customerCredit = owner.page.getByRole("region", { name: "Store credit" });
  await expect(customerCredit.getByTestId("customer-credit-balance")).toHaveText("Balance: ₦0.00");
  await customerCredit.getByLabel("Amount (₦; negative to take back)").fill("500000");
  await customerCredit.getByLabel("Note (required)").fill("Sorry for the late delivery");
  await customerCredit.getByRole("button", { name: "Change balance" }).click();
  await expect(owner.page.getByText(`Store credit changed. Balance: ${naira(gift)}.`)).toBeVisible();

  await putInCart(customer.userId, product.id);
  await page.goto("/checkout");
  await page.getByTestId("credit-panel").getByRole("button", { name: "Use my store credit" }).click();
  await expect(page.getByTestId("credit-panel")).toContainText(`Your store credit pays up to ${naira(gift)} of this order.`);
  const third = await accountCheckout(page, { paystack: "none" });
  await expect(page.locator("header [data-payment-status]")).toHaveAttribute("data-payment-status", "paid");
  const thirdTotal = kobo(await page.getByTestId("order-total").innerText());
  await expect(page.getByTestId("order-credit-line")).toHaveText([`Store credit−${naira(thirdTotal)}`, `To pay${naira(0)}`]);
  await expect(page.getByTestId("order-payment")).toContainText("Paid in full with store credit and gift cards");
  // The choice was spent with the order: the next checkout starts without it.
  await putInCart(customer.userId, product.id);
  await page.goto("/checkout");
  await expect(page.getByTestId("credit-panel").getByRole("button", { name: "Use my store credit" })).toBeVisible();

  // 6. The profile and the owner's page show every movement; the audit log has the owner's two.
  const left = gift - thirdTotal;
  await page.goto("/profile");
  await expect(credit.getByTestId("credit-balance")).toHaveText(`Your balance: ${naira(left)}`);
  await expect(credit.getByRole("row")).toHaveText([
    /Date\s*What\s*Amount/,
    new RegExp(`Spent on an order · Order ${third}.*−${naira(thirdTotal).replace(/[.$]/g, "\\$&")}`),
    new RegExp(`Credit from the shop · Sorry for the late delivery.*\\+${naira(gift).replace(/[.$]/g, "\\$&")}`),
    new RegExp(`Spent on an order · Order ${second}.*−${naira(refund).replace(/[.$]/g, "\\$&")}`),
    new RegExp(`Refund as store credit · Order ${first}.*\\+${naira(refund).replace(/[.$]/g, "\\$&")}`),
  ]);
  expect(await ledger({ userId: customer.userId })).toEqual([
    { amount: refund, reason: "refund", order: first },
    { amount: -refund, reason: "spent", order: second },
    { amount: gift, reason: "issued", order: null },
    { amount: -thirdTotal, reason: "spent", order: third },
  ]);
  await owner.page.reload();
  await expect(customerCredit.getByTestId("customer-credit-balance")).toHaveText(`Balance: ${naira(left)}`);
  await expect(customerCredit.getByRole("listitem").filter({ hasText: `Refund as store credit · ${first} · One bottle arrived scratched` })).toContainText(`+${naira(refund)}`);
  // The order's page tells the owner what the credit paid and that nothing is left to collect.
  await owner.page.goto(`/admin/orders/${third}`);
  await expect(owner.page.getByTestId("admin-order-credit-line")).toHaveText([`Store credit−${naira(thirdTotal)}`, `To pay${naira(0)}`]);
  await owner.page.goto("/admin/audit");
  const refundEntry = owner.page.getByRole("row").filter({ hasText: first }).filter({ hasText: "Refunded as store credit" });
  await expect(refundEntry).toContainText(`Refunded as store credit: none → ${naira(refund)}`);
  await expect(refundEntry).toContainText("One bottle arrived scratched");
  await expect(owner.page.getByRole("row").filter({ hasText: email }).filter({ hasText: "Store credit" })).toContainText(`Store credit: ₦0.00 → ${naira(gift)}`);
  await owner.context.close();
  await context.close();
});

const ES = {
  add: "Añadir al carrito",
  giftLabel: "¿Tienes una tarjeta regalo?",
  giftApply: "Aplicar tarjeta regalo",
  process: "Procesar pedido",
  confirmLagos: /El envío a Lagos cuesta ₦3,000\.00\. Tu total es ₦[\d,.]+/,
} as const;

/** A guest (speaking Spanish) with the perfume in the cart, on the checkout with the gift card's code applied. */
async function guestWithCard(browser: Browser, baseURL: string, address: string, productId: number, code: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { "X-Forwarded-For": address } });
  await context.addCookies([{ name: "lng", value: "es", url: baseURL }]);
  const page = await context.newPage();
  await page.goto(`/shop/${productId}`);
  if (javaScriptEnabled) await hydrated(page);
  const answered = javaScriptEnabled ? page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/cart")) : null;
  await page.getByRole("main").getByRole("button", { name: ES.add }).first().click();
  await answered;
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await page.goto("/checkout");
  const panel = page.getByTestId("credit-panel");
  // Typed as people type codes: in lower case, with spaces for the dashes.
  await panel.getByLabel(ES.giftLabel).fill(code.toLowerCase().replace(/-/g, " "));
  await panel.getByRole("button", { name: ES.giftApply }).click();
  return { context, page, panel };
}

/** The guest's checkout, delivery to Lagos, the rest paid on delivery; the order's number. */
async function guestCheckout(page: Page, email: string, phone: string, javaScript: boolean): Promise<string> {
  await expect(page).toHaveURL(/\/checkout$/);
  if (javaScript) await hydrated(page);
  await page.getByLabel("Nombre completo", { exact: true }).fill("Ngozi Okafor");
  await page.getByLabel("Correo electrónico", { exact: true }).fill(email);
  await page.getByLabel("Número de móvil", { exact: true }).fill(phone);
  await page.getByLabel("Dirección", { exact: true }).fill("3 Awolowo Road");
  await page.getByLabel("Ciudad", { exact: true }).fill("Ikoyi");
  await page.getByLabel("Estado", { exact: true }).selectOption("Lagos");
  await page.getByRole("radio", { name: /Pago contra entrega/ }).check();
  await page.getByRole("button", { name: ES.process }).click();
  if (!javaScript) {
    await expect(page.getByText(ES.confirmLagos)).toBeVisible();
    await page.getByRole("button", { name: ES.process }).click();
  }
  await expect(page).toHaveURL(/\/track\/[A-Za-z0-9_-]{43}$/);
  return ((await page.getByRole("heading", { level: 1 }).innerText()).match(/UB-\d+/) ?? [""])[0];
}

test("a gift card the owner e-mails is spent by a guest over two orders, then refused as used up (es)", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const address = "203.0.113.82";
  const product = await aProductNotOnSale(1_000_000);
  // Half as much again as the perfume: it pays the first order wholly and part of the second.
  const cardAmount = Math.round((product.price * 3) / 2 / 100) * 100;
  const recipient = `regalo-${unique()}@example.com`;

  // 1. The owner issues the card to a recipient's e-mail, with a message, the e-mail in Spanish.
  const owner = await ownerBrowser(browser, baseURL!, address);
  await owner.page.goto("/admin/gift-cards");
  await owner.page.getByLabel("Amount (₦)").fill(String(cardAmount / 100));
  // Good until the end of that day in Lagos, a year from now.
  const until = `${new Date().getUTCFullYear() + 1}-06-30`;
  const expiresAt = `${until}T22:59:59.999Z`;
  await owner.page.getByLabel("Expires on (optional)").fill(until);
  await owner.page.getByLabel("Recipient's name").fill("Ngozi");
  await owner.page.getByLabel("Recipient's e-mail").fill(recipient);
  await owner.page.getByLabel("Message (optional)").fill("¡Feliz cumpleaños, Ngozi!\nCon cariño, Tolu");
  await owner.page.getByLabel("E-mail language").selectOption("es");
  await owner.page.getByRole("button", { name: "Issue gift card" }).click();
  await expect(owner.page.getByText(`Gift card issued and e-mailed to ${recipient}.`)).toBeVisible();
  const row = owner.page.getByTestId("gift-card-row").filter({ hasText: recipient });
  await expect(row.getByRole("cell")).toHaveText([/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/, recipient, naira(cardAmount), naira(cardAmount), formatLagosDate(expiresAt, "en"), "Given"]);

  // 2. The recipient reads the e-mail: the amount, the message and the code, in Spanish.
  let mail = "";
  await expect
    .poll(
      async () => {
        const messages = await readOutbox(E2E_DATA_DIR, recipient);
        mail = messages.map((m) => decodeQuotedPrintable(m.raw)).join("\n");
        return messages.length;
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  expect(mail).toContain("Hola Ngozi:");
  expect(mail).toContain(`Te han regalado una tarjeta regalo de ${naira(cardAmount)} para gastar en`);
  expect(mail).toContain("¡Feliz cumpleaños, Ngozi!");
  expect(mail).toContain("Con cariño, Tolu");
  expect(mail).toContain(`Se puede usar hasta el ${formatLagosDate(expiresAt, "es")}.`);
  const code = mail.match(/El código de tu tarjeta regalo: ([A-Z2-9]{4}(?:-[A-Z2-9]{4}){3})/)?.[1] ?? "";
  expect(code).not.toBe("");
  await expect(row.getByRole("cell").first()).toHaveText(code);

  // 3. A guest spends part of it: the card pays the whole first order, which needs no other payment.
  const guestEmail = `ngozi-${unique()}@example.com`;
  const one = await guestWithCard(browser, baseURL!, address, product.id, code, true);
  await expect(one.panel.getByTestId("gift-card-status")).toHaveText(`Tarjeta regalo ${code}: quedan ${naira(cardAmount)}`);
  const first = await guestCheckout(one.page, guestEmail, "0803 765 4301", true);
  const firstTotal = kobo(await one.page.getByTestId("order-total").innerText());
  expect(firstTotal).toBeLessThan(cardAmount);
  await expect(one.page.locator("header [data-payment-status]")).toHaveAttribute("data-payment-status", "paid");
  await expect(one.page.getByTestId("order-credit-line")).toHaveText([`Tarjeta regalo (${code})−${naira(firstTotal)}`, `A pagar${naira(0)}`]);
  await expect(one.page.getByTestId("order-payment")).toContainText("Pagado por completo con saldo a favor y tarjetas regalo");
  // So does the guest's confirmation e-mail, with the card's line.
  await expect
    .poll(async () => (await readOutbox(E2E_DATA_DIR, guestEmail)).map((m) => decodeQuotedPrintable(m.raw)).find((m) => m.includes(first)) ?? "", { timeout: 20_000 })
    .toMatch(new RegExp(`Tarjeta regalo \\(${code}\\): −${naira(firstTotal).replace(/[.$]/g, "\\$&")}[\\s\\S]*Pagado por completo con saldo a favor y tarjetas regalo`));
  await one.context.close();

  // 4. On a second order (another browser, without JavaScript) it pays what is left; the rest on delivery.
  const rest = cardAmount - firstTotal;
  const two = await guestWithCard(browser, baseURL!, address, product.id, code, false);
  await expect(two.panel.getByTestId("gift-card-status")).toHaveText(`Tarjeta regalo ${code}: quedan ${naira(rest)}`);
  const second = await guestCheckout(two.page, guestEmail, "0803 765 4302", false);
  const secondTotal = kobo(await two.page.getByTestId("order-total").innerText());
  await expect(two.page.locator("header [data-payment-status]")).toHaveAttribute("data-payment-status", "unpaid");
  await expect(two.page.getByTestId("order-credit-line")).toHaveText([`Tarjeta regalo (${code})−${naira(rest)}`, `A pagar${naira(secondTotal - rest)}`]);
  await expect(two.page.getByTestId("order-payment")).toContainText("Por pagar contra entrega");
  await two.context.close();
  // The guest's e-mail says what the card paid and what is left to pay.
  await expect
    .poll(async () => (await readOutbox(E2E_DATA_DIR, guestEmail)).map((m) => decodeQuotedPrintable(m.raw)).find((m) => m.includes(second)) ?? "", { timeout: 20_000 })
    .toContain(`A pagar: ${naira(secondTotal - rest)}`);

  // 5. A third try is told the card is used up, in Spanish.
  const three = await guestWithCard(browser, baseURL!, address, product.id, code, true);
  await expect(three.page.getByRole("alert").filter({ hasText: "No se puede usar esta tarjeta regalo: ya se ha gastado." })).toBeVisible();
  await three.page.goto("/checkout");
  await expect(three.panel.getByTestId("gift-card-status")).toHaveCount(0);
  await three.context.close();

  // 6. The owner: the card has nothing left, the second order has the rest to collect, the ledger every
  // movement, and the audit log the card without its code.
  await owner.page.reload();
  await expect(row.getByRole("cell").nth(3)).toHaveText(naira(0));
  await owner.page.goto(`/admin/orders/${second}`);
  await expect(owner.page.getByTestId("admin-order-credit-line")).toHaveText([`Gift card (${code})−${naira(rest)}`, `To pay${naira(secondTotal - rest)}`]);
  // The rider collects what is left; the owner marks it paid, and the card is not taken from again.
  await owner.page.getByRole("button", { name: "Mark as paid" }).click();
  await expect(owner.page.getByText(`Order ${second} is marked as paid`)).toBeVisible();
  await expect(owner.page.locator("[data-payment-status]").first()).toHaveAttribute("data-payment-status", "paid");
  expect(await ledger({ giftCardCode: code })).toEqual([
    { amount: cardAmount, reason: "issued", order: null },
    { amount: -firstTotal, reason: "spent", order: first },
    { amount: -rest, reason: "spent", order: second },
  ]);
  await owner.page.goto("/admin/audit?entity=gift_card");
  const entry = owner.page.getByRole("row").filter({ hasText: `${code.slice(0, 4)}-…` });
  await expect(entry).toContainText(`Amount: ${naira(cardAmount)}`);
  await expect(entry).toContainText(`Recipient: ${recipient}`);
  await expect(entry).toContainText(`Expires: ${formatLagosDate(expiresAt, "en")}`);
  expect(await owner.page.locator("main").innerText()).not.toContain(code);
  await owner.context.close();
});
