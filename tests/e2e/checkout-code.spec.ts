import { type Browser, expect, type Page, test } from "@playwright/test";
import type { PromotionKind } from "~/db/schema";
import { addLine, userCartId } from "~/domain/shopper/cart.server";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";
import { aProductNotOnSale, hydrated, naira } from "./support";

// A discount code entered, refused and removed at the checkout itself (docs/decisions/219): with
// JavaScript the box posts beside the checkout's form, which keeps what the shopper typed; without it,
// plain forms that come back to /checkout. The reasons are in the shopper's language.

const OUR_ADDRESS = { "X-Forwarded-For": "203.0.113.72" };
test.use({ extraHTTPHeaders: OUR_ADDRESS });

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();

/** A code written straight into the shop's database. */
async function aCode(code: string, kind: PromotionKind, value: number, rules: { minSubtotal?: number; endsAt?: string } = {}) {
  const shop = await openShopDatabase();
  try {
    const at = new Date().toISOString();
    await shop.db
      .insertInto("promotions")
      .values({ code, code_key: code.toLowerCase(), kind, value, min_subtotal: rules.minSubtotal ?? null, starts_at: null, ends_at: rules.endsAt ?? null, usage_limit: null, per_customer_limit: null, combines_with_sale: 0, paused_at: null, created_at: at, updated_at: at })
      .execute();
  } finally {
    await shop.close();
  }
}

/** A signed-in shopper with one perfume in the cart, on the checkout, speaking `lang`. */
async function atCheckout(browser: Browser, baseURL: string, productId: number, lang: "en" | "es", javaScript: boolean): Promise<Page> {
  const shop = await openShopDatabase();
  let token: string;
  try {
    const customer = await createCustomer(shop, `code-at-checkout-${unique().toLowerCase()}@example.com`);
    token = customer.token;
    await addLine(shop.db, await userCartId(shop.db, customer.userId), productId);
  } finally {
    await shop.close();
  }
  const context = await browser.newContext({ javaScriptEnabled: javaScript, extraHTTPHeaders: OUR_ADDRESS });
  await context.addCookies([
    { name: "ub_session", value: token, url: baseURL },
    { name: "lng", value: lang, url: baseURL },
  ]);
  const page = await context.newPage();
  await page.goto(`/checkout?lng=${lang}`);
  return page;
}

async function enterCode(page: Page, code: string) {
  const box = page.getByTestId("discount-code");
  await box.locator("input[name=code]").fill(code);
  await box.locator("button[type=submit]").click();
}

async function removeCode(page: Page) {
  await page.getByTestId("discount-code").locator("button[type=submit]").click();
}

async function typeAddress(page: Page) {
  const form = page.locator("#checkout-form");
  await form.locator("input[name=phone]").fill("0803 123 4567");
  await form.locator("input[name=street]").fill("15 Bourdillon Road");
  await form.locator("input[name=city]").fill("Ikoyi");
  await form.locator("select[name=state]").selectOption("Lagos");
}

async function orderIn(number: string) {
  const shop = await openShopDatabase();
  try {
    return await shop.db.selectFrom("orders").select(["subtotal", "discount", "shipping", "total", "promotion_code"]).where("number", "=", number).executeTakeFirstOrThrow();
  } finally {
    await shop.close();
  }
}

test("with JavaScript, a code entered at the checkout: refused with its reason, then applied, and the typed address is kept (en)", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const product = await aProductNotOnSale();
  const tooHigh = `BIGSPEND${unique()}`;
  const good = `TENK${unique()}`;
  await aCode(tooHigh, "fixed", 100_000, { minSubtotal: product.price + 1_000_000 });
  await aCode(good, "fixed", 1_000_000);

  const page = await atCheckout(browser, baseURL!, product.id, "en", true);
  await hydrated(page);
  await typeAddress(page);
  const fee = await page.getByTestId("checkout-delivery").textContent();
  const box = page.getByTestId("discount-code");

  // A code the shop does not have: told so under the box, on the checkout still.
  await enterCode(page, "NOSUCHCODE1");
  await expect(box.getByRole("alert")).toHaveText("We have no discount code “NOSUCHCODE1”. Check the spelling and try again.");
  await expect(page).toHaveURL(/\/checkout(\?lng=\w+)?$/);

  // A code whose minimum the cart does not reach: kept on the cart, with the reason, and nothing off.
  await enterCode(page, tooHigh.toLowerCase());
  await expect(page.getByTestId("discount-status")).toHaveText(`Code ${tooHigh} does not apply: your order must come to at least ${naira(product.price + 1_000_000)}.`);
  await expect(page.getByTestId("discount-amount")).toHaveCount(0);
  await removeCode(page);
  await expect(box.locator("input[name=code]")).toBeVisible();

  // A code that applies: the discount line and the new total, and the address typed before is still there.
  await enterCode(page, good);
  await expect(page.getByTestId("discount-status")).toHaveText(`Code ${good} applied.`);
  await expect(page.getByTestId("discount-amount")).toHaveText(`−${naira(1_000_000)}`);
  await expect(page).toHaveURL(/\/checkout(\?lng=\w+)?$/);
  const form = page.locator("#checkout-form");
  await expect(form.locator("input[name=street]")).toHaveValue("15 Bourdillon Road");
  await expect(form.locator("input[name=city]")).toHaveValue("Ikoyi");
  await expect(form.locator("select[name=state]")).toHaveValue("Lagos");
  await expect(page.getByTestId("checkout-delivery")).toHaveText(fee!);
  const shipping = fee === "FREE" ? 0 : Math.round(Number(fee!.replace(/[^\d.]/g, "")) * 100);
  await expect(page.getByTestId("checkout-total")).toHaveText(naira(product.price - 1_000_000 + shipping));

  await form.locator("input[name=paymentMethod][value=bank_transfer]").check();
  await page.locator("button[form=checkout-form]").click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const number = page.url().split("/").pop()!;
  expect(await orderIn(number)).toEqual({ subtotal: product.price, discount: 1_000_000, shipping, total: product.price - 1_000_000 + shipping, promotion_code: good });
  await page.context().close();
});

test("without JavaScript, a code at the checkout: an expired one refused with its reason, an unknown one explained, a good one applied (es)", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const product = await aProductNotOnSale();
  const expired = `VIEJO${unique()}`;
  const good = `AMIGA${unique()}`;
  await aCode(expired, "percent", 10, { endsAt: new Date(Date.now() - 86_400_000).toISOString() });
  await aCode(good, "percent", 10);
  const discount = Math.floor((product.price * 10 + 50) / 100);

  const page = await atCheckout(browser, baseURL!, product.id, "es", false);
  await enterCode(page, expired);
  await expect(page).toHaveURL(/\/checkout(\?lng=\w+)?$/);
  await expect(page.getByTestId("discount-status")).toHaveText(`El código ${expired} no se aplica: este código ha caducado.`);
  await expect(page.getByTestId("discount-amount")).toHaveCount(0);
  await removeCode(page);
  await expect(page).toHaveURL(/\/checkout(\?lng=\w+)?$/);

  // A code the shop does not have: a page that says so, and the way back to the checkout.
  await enterCode(page, "NOEXISTE1");
  await expect(page.getByRole("alert")).toHaveText("No tenemos el código de descuento «NOEXISTE1». Revisa cómo está escrito e inténtalo de nuevo.");
  await page.getByRole("link", { name: "Volver a finalizar la compra" }).click();
  await expect(page).toHaveURL(/\/checkout(\?lng=\w+)?$/);

  await enterCode(page, good.toLowerCase());
  await expect(page).toHaveURL(/\/checkout(\?lng=\w+)?$/);
  await expect(page.getByTestId("discount-status")).toHaveText(`Código ${good} aplicado.`);
  await expect(page.getByTestId("discount-amount")).toHaveText(`−${naira(discount)}`);

  // The order, confirmed on the second step as always without JavaScript, carries the discount.
  await typeAddress(page);
  await page.locator("#checkout-form input[name=paymentMethod][value=bank_transfer]").check();
  await page.locator("button[form=checkout-form]").click();
  await expect(page.getByRole("status").filter({ hasText: "₦" }).first()).toBeVisible();
  await page.locator("#checkout-form input[name=paymentMethod][value=bank_transfer]").check();
  await page.locator("button[form=checkout-form]").click();
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  const order = await orderIn(page.url().split("/").pop()!);
  expect(order).toMatchObject({ subtotal: product.price, discount, promotion_code: good });
  expect(order.total).toBe(product.price - discount + order.shipping);
  await page.context().close();
});

test("with JavaScript, a code the shop does not have is explained under the cart's box too (en)", async ({ browser, baseURL }) => {
  const product = await aProductNotOnSale();
  const page = await atCheckout(browser, baseURL!, product.id, "en", true);
  await page.goto("/cart");
  await hydrated(page);
  await enterCode(page, "NOSUCHCODE2");
  await expect(page.getByTestId("discount-code").getByRole("alert")).toHaveText("We have no discount code “NOSUCHCODE2”. Check the spelling and try again.");
  await expect(page).toHaveURL(/\/cart$/);
  await page.context().close();
});
