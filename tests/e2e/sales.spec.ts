import { type Browser, expect, type Page, test } from "@playwright/test";
import { addCategory, addProduct } from "../support/catalogue";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { hydrated, naira } from "./support";

// Automatic sales (docs/decisions/225), in both languages: the owner creates a weekend sale on a
// category; a shopper sees the struck price, the sale price and the sale's end on the cards and the
// product page, the cart and the checkout charge the sale price without any code, and the audit log
// shows the sale's creation. Pausing it puts the price back; deleting it takes it off the list.

const OUR_ADDRESS = { "X-Forwarded-For": "203.0.113.72" };
test.use({ extraHTTPHeaders: OUR_ADDRESS });

const TEXTS = {
  en: {
    name: "Name",
    percent: "A percentage of the regular price",
    amount: "How much",
    ends: "Ends (Lagos time)",
    categories: "Only for these categories",
    create: "Create sale",
    pause: "Pause",
    addToCart: "Add to Cart",
    saleEnds: (date: string) => `Sale ends ${date}`,
    created: "Created sale",
    kindChange: "Type: Percentage off",
    running: "Running",
    deleteSale: "Delete sale",
    deleted: (name: string) => `Sale “${name}” deleted.`,
  },
  es: {
    name: "Nombre",
    percent: "Un porcentaje del precio normal",
    amount: "Cuánto",
    ends: "Termina (hora de Lagos)",
    categories: "Solo para estas categorías",
    create: "Crear rebaja",
    pause: "Pausar",
    addToCart: "Añadir al carrito",
    saleEnds: (date: string) => `Hasta ${date}`,
    created: "Creó rebaja",
    kindChange: "Tipo: Porcentaje de descuento",
    running: "En curso",
    deleteSale: "Eliminar la rebaja",
    deleted: (name: string) => `Rebaja «${name}» eliminada.`,
  },
} as const;

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();

/** This week's Sunday at 23:59 in Lagos (next week's when that is less than an hour away): as the form takes it, and as ISO. */
function comingSundayNight(): { input: string; iso: string } {
  const lagosNow = new Date(Date.now() + 3_600_000);
  let days = (7 - lagosNow.getUTCDay()) % 7;
  const sunday = () => new Date(Date.UTC(lagosNow.getUTCFullYear(), lagosNow.getUTCMonth(), lagosNow.getUTCDate() + days));
  if (Date.parse(`${sunday().toISOString().slice(0, 10)}T23:59:00+01:00`) - Date.now() < 3_600_000) days += 7;
  const day = sunday().toISOString().slice(0, 10);
  return { input: `${day}T23:59`, iso: new Date(`${day}T23:59:00+01:00`).toISOString() };
}

async function signedIn(browser: Browser, baseURL: string, token: string, lang: "en" | "es", javaScript = true): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: OUR_ADDRESS, javaScriptEnabled: javaScript });
  await context.addCookies([
    { name: "ub_session", value: token, url: baseURL },
    { name: "lng", value: lang, url: baseURL },
  ]);
  return context.newPage();
}

for (const lang of ["en", "es"] as const) {
  test(`a weekend sale on a category shows on cards and the product page, is charged at checkout, then paused and deleted (${lang})`, async ({ browser, baseURL }) => {
    test.setTimeout(150_000);
    const T = TEXTS[lang];
    const tag = unique();
    const price = 5_000_000;
    // 15 % off ₦50,000.
    const salePrice = 4_250_000;
    const shop = await openShopDatabase();
    let product: { id: number; name: string };
    let category: { id: number; name: string };
    let ownerToken: string;
    let shopperToken: string;
    try {
      // A category and a perfume of this journey's own, so the sale moves no price another journey reads;
      // arrived long ago and named unlike the demo's categories, so the shop's newest arrivals and its
      // category filters stay as the storefront journeys expect.
      category = await addCategory(shop.db, `Weekend picks ${tag}`);
      const brand = await shop.db.selectFrom("brands").select("id").orderBy("id").executeTakeFirstOrThrow();
      product = await addProduct(shop.db, { brandId: brand.id, categoryId: category.id, name: `Rose Sale ${tag}`, price, stock: 30, createdAt: "2024-01-05T09:00:00.000Z" });
      ownerToken = (await createAdmin(shop, `sale-owner-${tag.toLowerCase()}@example.com`)).token;
      shopperToken = (await createCustomer(shop, `sale-shopper-${tag.toLowerCase()}@example.com`)).token;
    } finally {
      await shop.close();
    }
    const ends = comingSundayNight();
    // Lagos time, as the sales clock writes it for the cards and the product page.
    const endsShown = T.saleEnds(ends.input.replace("T", " "));

    // The owner creates the sale: 15 % off the category until Sunday night, from now (in Spanish with
    // JavaScript off: the owner's forms are plain forms).
    const owner = await signedIn(browser, baseURL!, ownerToken, lang, lang === "en");
    await owner.goto(`/admin/promotions?lng=${lang}`);
    const form = owner.getByTestId("sale-form");
    await form.getByLabel(T.name, { exact: true }).fill(`Weekend ${tag}`);
    await form.getByRole("radio", { name: T.percent }).check();
    await form.getByLabel(T.amount, { exact: true }).fill("15");
    await form.getByLabel(T.ends).fill(ends.input);
    await form.getByLabel(T.categories).selectOption({ label: category.name });
    await form.getByRole("button", { name: T.create }).click();
    await expect(owner).toHaveURL(/\/admin\/promotions\/sale-\d+$/);
    await expect(owner.getByRole("heading", { name: `Weekend ${tag}` })).toBeVisible();
    await expect(owner.getByTestId("sale-summary")).toContainText(T.running);
    await expect(owner.getByTestId("sale-sizesNow")).toHaveText("1");
    const salePage = owner.url();

    // A shopper sees the struck price, the sale price and its end on the card and on the product page.
    const page = await signedIn(browser, baseURL!, shopperToken, lang);
    await page.goto(`/shop?q=${encodeURIComponent(tag)}&lng=${lang}`);
    const card = page.locator("article.card").filter({ hasText: product.name });
    await expect(card).toHaveCount(1);
    await expect(card.locator("p").filter({ hasText: naira(salePrice) }).first()).toBeVisible();
    await expect(card.locator("s")).toContainText(naira(price));
    await expect(card.locator("s + small")).toHaveText(endsShown);

    await page.goto(`/shop/${product.id}?lng=${lang}`);
    await hydrated(page);
    const main = page.locator("main article").first();
    await expect(main.locator("s").first()).toContainText(naira(price));
    await expect(main.locator("s + small")).toHaveText(endsShown);
    await expect(main).toContainText(naira(salePrice));

    // Into the cart without any code: the sale price; and at checkout too.
    await main.getByRole("button", { name: T.addToCart }).click();
    await expect(page.locator("header")).toContainText(naira(salePrice));
    await page.goto(`/cart?lng=${lang}`);
    await expect(page.getByTestId("line-total")).toHaveText(naira(salePrice));
    await expect(page.getByTestId("cart-subtotal")).toHaveText(naira(salePrice));
    await page.goto(`/checkout?lng=${lang}`);
    await expect(page.locator("main")).toContainText(naira(salePrice));
    const checkout = page.locator("#checkout-form");
    await checkout.locator("input[name=phone]").fill("0803 123 4567");
    await checkout.locator("input[name=street]").fill("15 Bourdillon Road");
    await checkout.locator("input[name=city]").fill("Ikoyi");
    await checkout.locator("select[name=state]").selectOption("Lagos");
    await checkout.locator("input[name=paymentMethod][value=bank_transfer]").check();
    await page.locator("button[form=checkout-form]").click();
    await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
    const number = page.url().split("/").pop()!;
    await expect(page.locator("main")).toContainText(naira(salePrice));
    const check = await openShopDatabase();
    try {
      const order = await check.db.selectFrom("orders").select(["id", "subtotal", "discount"]).where("number", "=", number).executeTakeFirstOrThrow();
      expect(order).toMatchObject({ subtotal: salePrice, discount: 0 });
      const items = await check.db.selectFrom("order_items").select(["unit_price", "quantity"]).where("order_id", "=", order.id).execute();
      expect(items).toEqual([{ unit_price: salePrice, quantity: 1 }]);
    } finally {
      await check.close();
    }
    await page.context().close();

    // The owner sees what it sold, and its creation in the audit log.
    await owner.goto(salePage);
    await expect(owner.getByTestId("sale-orders")).toHaveText("1");
    await expect(owner.getByTestId("sale-revenue")).toHaveText(naira(salePrice));
    await expect(owner.getByRole("link", { name: number })).toBeVisible();
    await owner.goto(`/admin/audit?entity=sale&lng=${lang}`);
    const entry = owner.locator('[data-audit-entry="sale:create"]').filter({ hasText: `Weekend ${tag}` });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(T.created);
    // Its fields named in the owner's language, not by their keys.
    await expect(entry.locator('[data-change="kind"]')).toHaveText(T.kindChange);
    await expect(entry).not.toContainText("admin.audit.fields");

    // Paused: the price before it is back, without an end date.
    await owner.goto(salePage);
    await owner.getByRole("button", { name: T.pause, exact: true }).click();
    await expect(owner.getByTestId("sale-sizesNow")).toHaveText("0");
    const after = await signedIn(browser, baseURL!, shopperToken, lang);
    await after.goto(`/shop/${product.id}?lng=${lang}`);
    await expect(after.locator("main article").first()).toContainText(naira(price));
    await expect(after.locator("main article").first().locator("s + small")).toHaveCount(0);
    await after.context().close();

    // Deleted, after a second question: gone from the list, and in the audit log.
    await owner.goto(salePage);
    await owner.getByRole("link", { name: T.deleteSale }).click();
    await owner.getByRole("dialog").getByRole("button", { name: T.deleteSale }).click();
    await expect(owner.getByText(T.deleted(`Weekend ${tag}`))).toBeVisible();
    await expect(owner.getByRole("link", { name: `Weekend ${tag}` })).toHaveCount(0);
    await owner.goto(`/admin/audit?entity=sale&lng=${lang}`);
    await expect(owner.locator('[data-audit-entry="sale:delete"]').filter({ hasText: `Weekend ${tag}` })).toHaveCount(1);
    await owner.context().close();
  });
}
