import { type Browser, expect, type Page, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { addLine, userCartId } from "~/domain/shopper/cart.server";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { aProductNotOnSale, hydrated, naira } from "./support";

// Discount codes (docs/decisions/219), in both languages: an influencer's code limited to two uses,
// used by two shoppers and refused to a third with the reason; a free-delivery code at a checkout
// without JavaScript.

const OUR_ADDRESS = { "X-Forwarded-For": "203.0.113.71" };
test.use({ extraHTTPHeaders: OUR_ADDRESS });

const TEXTS = {
  en: { usedUp: "this code has been used up.", applied: (code: string) => `Code ${code} applied.` },
  es: { usedUp: "este código se ha agotado.", applied: (code: string) => `Código ${code} aplicado.` },
} as const;

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();

/** A signed-in shopper with one perfume in the cart, speaking `lang`. */
async function shopper(browser: Browser, baseURL: string, productId: number, lang: "en" | "es", javaScript = true): Promise<Page> {
  const shop = await openShopDatabase();
  let token: string;
  try {
    const customer = await createCustomer(shop, `promo-${unique().toLowerCase()}@example.com`);
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
  await page.goto(`/cart?lng=${lang}`);
  return page;
}

async function enterCode(page: Page, where: "cart" | "checkout", code: string) {
  const box = page.getByTestId("discount-code");
  await box.locator("input[name=code]").fill(code);
  await box.locator("button[type=submit]").click();
  await expect(page).toHaveURL(new RegExp(`/${where}$`));
}

async function checkOut(page: Page, { twice = false } = {}) {
  await page.goto("/checkout");
  const form = page.locator("#checkout-form");
  await form.locator("input[name=phone]").fill("0803 123 4567");
  await form.locator("input[name=street]").fill("15 Bourdillon Road");
  await form.locator("input[name=city]").fill("Ikoyi");
  await form.locator("select[name=state]").selectOption("Lagos");
  await form.locator("input[name=paymentMethod][value=bank_transfer]").check();
  await page.locator("button[form=checkout-form]").click();
  // Without JavaScript the page first shows the fee and the total, and the shopper confirms them.
  if (twice) {
    await expect(page.getByRole("status").filter({ hasText: "₦" }).first()).toBeVisible();
    await page.locator("#checkout-form input[name=paymentMethod][value=bank_transfer]").check();
    await page.locator("button[form=checkout-form]").click();
  }
  await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
  return page.url().split("/").pop()!;
}

for (const lang of ["en", "es"] as const) {
  test(`an influencer's code limited to two: two shoppers have it, the third is told it is used up (${lang})`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const product = await aProductNotOnSale();
    const code = `AMAKA${unique()}`;

    // The owner creates the code in the admin area.
    const shop = await openShopDatabase();
    let adminToken: string;
    try {
      adminToken = (await createAdmin(shop, `promo-owner-${unique().toLowerCase()}@example.com`)).token;
    } finally {
      await shop.close();
    }
    const ownerContext = await browser.newContext({ extraHTTPHeaders: OUR_ADDRESS });
    await ownerContext.addCookies([{ name: "ub_session", value: adminToken, url: baseURL! }]);
    const owner = await ownerContext.newPage();
    await owner.goto("/admin/promotions?lng=en");
    await owner.getByLabel("Code", { exact: true }).fill(code);
    await owner.getByRole("radio", { name: "Percentage off" }).check();
    await owner.getByLabel("Amount").fill("10");
    await owner.getByLabel("Total uses (optional)").fill("2");
    await owner.getByRole("button", { name: "Create code" }).click();
    await expect(owner).toHaveURL(/\/admin\/promotions\/\d+$/);
    await expect(owner.getByRole("heading", { name: code })).toBeVisible();

    const discount = Math.floor((product.price * 10 + 50) / 100);
    const numbers: string[] = [];
    for (let i = 0; i < 2; i++) {
      const page = await shopper(browser, baseURL!, product.id, lang);
      await hydrated(page);
      // Typed in lower case: codes are matched in any case.
      await enterCode(page, "cart", code.toLowerCase());
      await expect(page.getByTestId("discount-status")).toHaveText(TEXTS[lang].applied(code));
      await expect(page.getByTestId("discount-amount")).toHaveText(`−₦${(discount / 100).toLocaleString("en-NG", { minimumFractionDigits: 2 })}`);
      await hydrated(page);
      const number = await checkOut(page);
      numbers.push(number);
      // The invoice carries the code's line too (docs/decisions/223).
      await page.goto(`/orders/${number}/invoice`);
      await expect(page.locator("[data-invoice-discount]")).toHaveText(`−${naira(discount)}`);
      await page.context().close();
    }

    // The third shopper is told why, in their language, and pays the full price.
    const third = await shopper(browser, baseURL!, product.id, lang);
    await hydrated(third);
    await enterCode(third, "cart", code);
    await expect(third.getByTestId("discount-status")).toContainText(TEXTS[lang].usedUp);
    await expect(third.getByTestId("discount-amount")).toHaveCount(0);
    await third.context().close();

    // The owner sees both orders, the discount they were given and what they brought.
    await owner.reload();
    await expect(owner.getByTestId("promotion-ordersCount")).toHaveText("2");
    await expect(owner.getByTestId("promotion-discountGiven")).toHaveText(`₦${((2 * discount) / 100).toLocaleString("en-NG", { minimumFractionDigits: 2 })}`);
    for (const number of numbers) await expect(owner.getByRole("link", { name: number })).toBeVisible();
    // Each order's page shows the discount, and so does the accountant's CSV.
    await owner.goto(`/admin/orders/${numbers[0]}`);
    await expect(owner.getByTestId("admin-order-discount")).toHaveText(`−${naira(discount)}`);
    const csv = await (await owner.request.get("/admin/orders/export")).text();
    const row = (parse(csv, { bom: true, columns: true }) as Record<string, string>[]).find((r) => r.order === numbers[0]);
    expect(row).toMatchObject({ promotion_code: code, discount_ngn: (discount / 100).toFixed(2) });
    await owner.goto("/admin/promotions");
    await expect(owner.getByRole("row").filter({ hasText: code }).getByTestId("promotion-state")).toHaveText("Used up");
    await ownerContext.close();
  });

  test(`a free-delivery code at a checkout without JavaScript (${lang})`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const product = await aProductNotOnSale();
    const code = `FREESHIP${unique()}`;
    const shop = await openShopDatabase();
    try {
      const at = new Date().toISOString();
      await shop.db
        .insertInto("promotions")
        .values({ code, code_key: code.toLowerCase(), kind: "free_delivery", value: 0, min_subtotal: null, starts_at: null, ends_at: null, usage_limit: null, per_customer_limit: null, combines_with_sale: 0, paused_at: null, created_at: at, updated_at: at })
        .execute();
    } finally {
      await shop.close();
    }
    const page = await shopper(browser, baseURL!, product.id, lang, false);
    await enterCode(page, "cart", code);
    await expect(page.getByTestId("discount-status")).toHaveText(TEXTS[lang].applied(code));

    const number = await checkOut(page, { twice: true });
    const total = `₦${(product.price / 100).toLocaleString("en-NG", { minimumFractionDigits: 2 })}`;
    await expect(page.getByTestId("order-total")).toHaveText(total);
    await page.context().close();
    const check = await openShopDatabase();
    try {
      const order = await check.db.selectFrom("orders").select(["shipping", "total", "promotion_code"]).where("number", "=", number).executeTakeFirstOrThrow();
      expect(order).toEqual({ shipping: 0, total: product.price, promotion_code: code });
    } finally {
      await check.close();
    }
  });
}
