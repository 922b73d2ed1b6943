import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { addBrand, addCategory, addProduct } from "../support/catalogue";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";
import { formatNaira } from "../../app/lib/money";
import { hydrated } from "./support";

// What a shopper meets on a phone: pages that must not crash, names that match what is shown.

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);
// Made long ago, so they stay out of the home page's newest products that other journeys use.
const LONG_AGO = "2020-01-01T00:00:00.000Z";

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.close();
});

function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

test.describe("a product page", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("with no related items, or only one, hydrates and sells", async ({ page }) => {
    const [brand, alone, pair] = await Promise.all([addBrand(shop.db, `Lone Brand ${stamp}`), addCategory(shop.db, `Alone ${stamp}`), addCategory(shop.db, `Pair ${stamp}`)]);
    const only = await addProduct(shop.db, { brandId: brand.id, categoryId: alone.id, name: `First Of Its Kind ${stamp}`, createdAt: LONG_AGO });
    const first = await addProduct(shop.db, { brandId: brand.id, categoryId: pair.id, name: `One Of Two ${stamp}`, createdAt: LONG_AGO });
    await addProduct(shop.db, { brandId: brand.id, categoryId: pair.id, name: `Two Of Two ${stamp}`, createdAt: LONG_AGO });

    const problems = watch(page);
    await page.goto(`/shop/${only.id}`);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: only.name })).toBeVisible();
    await expect(page.getByRole("region", { name: "Related Items" })).toHaveCount(0);
    await page.getByRole("main").getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await expect(page.getByText("Something went wrong")).toHaveCount(0);

    await page.goto(`/shop/${first.id}`);
    await hydrated(page);
    const related = page.getByRole("region", { name: "Related Items" });
    await expect(related.locator("article")).toHaveCount(1);
    await expect(related.getByRole("link", { name: `Two Of Two ${stamp}` })).toBeVisible();
    await page.getByRole("main").getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(page.getByTestId("cart-count")).toHaveText("2");
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});

test.describe("the header", () => {
  test("the cart link's accessible name contains what it shows, in both languages and on a phone", async ({ page, browser }) => {
    await page.goto("/faq");
    const cart = page.getByRole("banner").getByRole("link", { name: /^Cart: 0 items, ₦0\.00$/ });
    await expect(cart).toHaveAttribute("href", "/cart");
    const mismatch = async (p: Page) => {
      const results = await new AxeBuilder({ page: p }).withRules(["label-content-name-mismatch"]).analyze();
      return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    };
    expect(await mismatch(page)).toEqual([]);

    await page.goto("/faq?lng=es");
    await expect(page.getByRole("banner").getByRole("link", { name: /^Carrito: 0 artículos, ₦0\.00$/ })).toBeVisible();
    expect(await mismatch(page)).toEqual([]);

    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const small = await phone.newPage();
    await small.goto("/faq");
    // The total is not shown on a phone, yet screen readers still hear it.
    await expect(small.getByRole("banner").getByRole("link", { name: /^Cart: 0 items, ₦0\.00$/ })).toBeVisible();
    expect(await mismatch(small)).toEqual([]);
    await phone.close();
  });

  test("the language menu says ESPAÑOL", async ({ page }) => {
    await page.goto("/about?lng=es");
    await expect(page.getByRole("banner").locator("summary")).toContainText("ESPAÑOL");
    await expect(page.locator("body")).not.toContainText("ESPANYOL");
  });
});

test.describe("checkout on a phone", () => {
  const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

  async function shopperWithACart(browser: Browser, baseURL: string, javaScriptEnabled: boolean, tag: string) {
    const { token } = await createCustomer(shop, `phone-checkout-${tag}-${stamp}@example.com`);
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled });
    await context.addCookies([{ name: "ub_session", value: token, url: baseURL }]);
    const page = await context.newPage();
    const [{ id }] = await shop.db.selectFrom("products").select("id").where("archived_at", "is", null).where("stock", ">", 5).orderBy("id").limit(1).execute();
    const added = await page.request.post("/cart", { form: { intent: "add", productId: String(id) }, headers: { Origin: baseURL }, maxRedirects: 0 });
    expect(added.status()).toBe(303);
    return { context, page };
  }

  for (const javaScriptEnabled of [true, false]) {
    test(`an empty address is reported at the top, focused, with links to the fields (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser, baseURL }) => {
      const { context, page } = await shopperWithACart(browser, baseURL!, javaScriptEnabled, javaScriptEnabled ? "js" : "nojs");
      await page.goto("/checkout");
      if (javaScriptEnabled) await hydrated(page);
      // The button sits below the form on a phone: the shopper has scrolled down to it.
      await page.getByRole("button", { name: "Process Order" }).scrollIntoViewIfNeeded();
      await page.getByRole("button", { name: "Process Order" }).click();

      const summary = page.getByRole("alert").filter({ hasText: "Please check your shipping address" });
      await expect(summary).toBeFocused();
      await expect(summary).toBeInViewport();
      await expect(summary.getByRole("link")).toHaveText(["Please input your street name", "Please input your city", "Please input your state", "Please input your mobile number"]);
      await expect(page).toHaveURL(/\/checkout$/);
      await summary.getByRole("link", { name: "Please input your city" }).click();
      if (javaScriptEnabled) await expect(page.getByLabel("City")).toBeFocused();
      else await expect(page).toHaveURL(/#checkout-city$/);
      await expect(page.getByLabel("City")).toBeInViewport();

      // Fixed, the order goes through.
      await page.getByLabel("Mobile number").fill("0803 123 4567");
      await page.getByLabel("Street Address").fill("7 Awolowo Road");
      await page.getByLabel("City").fill("Ikoyi");
      await page.getByLabel("State").selectOption("Lagos");
      await page.getByRole("radio", { name: /Pay on delivery/ }).check();
      await page.getByRole("button", { name: "Process Order" }).click();
      if (!javaScriptEnabled) {
        // Without JavaScript the page first shows the delivery fee and the total, then places the order.
        await expect(page.getByText(/Your total is ₦[\d,.]+\. Press Process Order/)).toBeVisible();
        await page.getByRole("button", { name: "Process Order" }).click();
      }
      await expect(page).toHaveURL(/\/orders\/UB-\d+$/);
      await context.close();
    });
  }

  test("the summary speaks Spanish", async ({ browser, baseURL }) => {
    const { context, page } = await shopperWithACart(browser, baseURL!, true, "es");
    await page.goto("/checkout?lng=es");
    await hydrated(page);
    await page.getByRole("button", { name: "Procesar pedido" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "Revisa tu dirección de envío" });
    await expect(summary).toBeFocused();
    await expect(summary.getByRole("link").first()).toBeVisible();
    await context.close();
  });
});

test.describe("orders on a phone", () => {
  test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });

  test("order lines and totals show without sideways scrolling; an unsent WhatsApp order says so and can be sent again", async ({ page, context, baseURL }) => {
    const { userId, token } = await createCustomer(shop, `phone-orders-${stamp}@example.com`, "Oluwaseyifunmi", "Adeyemi-Okonkwo");
    await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
    const [{ id: productId }] = await shop.db.selectFrom("products").select("id").where("archived_at", "is", null).orderBy((eb) => eb.fn("length", ["name"]), "desc").limit(1).execute();
    const checkout = await insertOrder(shop.db, { userId, items: [{ productId, quantity: 2 }] });
    const unsent = await insertOrder(shop.db, { userId, channel: "whatsapp", items: [{ productId, quantity: 1 }], address: null });
    const confirmed = await insertOrder(shop.db, { userId, channel: "whatsapp", status: "confirmed", items: [{ productId, quantity: 1 }], address: null });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

    await page.goto(`/orders/${checkout.number}`);
    expect(await fits()).toBe(true);
    const total = page.getByTestId("order-total");
    await total.scrollIntoViewIfNeeded();
    await expect(total).toBeInViewport({ ratio: 1 });
    await expect(total).toHaveText(formatNaira(checkout.total));
    const line = page.getByRole("row").filter({ has: page.getByRole("link") }).first();
    await line.scrollIntoViewIfNeeded();
    await expect(line.getByText(formatNaira(checkout.total))).toBeInViewport({ ratio: 1 });
    await expect(page.getByText("How to pay")).toBeVisible();

    await page.goto("/profile?tab=orders");
    expect(await fits()).toBe(true);
    // The initials circle keeps its shape next to a long name.
    const circle = page.locator("header span[aria-hidden=true]").filter({ hasText: "OA" });
    const box = (await circle.boundingBox())!;
    expect(Math.round(box.width)).toBe(Math.round(box.height));
    const row = (number: string) => page.getByRole("row").filter({ hasText: number });
    const rowTotal = row(checkout.number).getByText(formatNaira(checkout.total));
    await rowTotal.scrollIntoViewIfNeeded();
    await expect(rowTotal).toBeInViewport({ ratio: 1 });
    await expect(row(unsent.number)).toContainText("WhatsApp order — awaiting your message");
    const again = row(unsent.number).getByRole("link", { name: /^Send it on WhatsApp again/ });
    await expect(again).toHaveAttribute("href", `/cart/whatsapp/${unsent.number}`);
    await expect(row(confirmed.number)).not.toContainText("awaiting your message");
    await expect(row(confirmed.number).getByRole("link", { name: /Send it on WhatsApp again/ })).toHaveCount(0);
    await expect(row(checkout.number)).not.toContainText("awaiting your message");
    // The link leads to the hand-off page, which opens WhatsApp with the message written out.
    const handOff = await page.request.get(`/cart/whatsapp/${unsent.number}`);
    expect(handOff.status()).toBe(200);
    expect(await handOff.text()).toContain("https://wa.me/");

    await page.goto(`/orders/${unsent.number}?lng=es`);
    await expect(page.getByRole("heading", { name: "Pedido por WhatsApp — esperando tu mensaje" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Enviarlo de nuevo por WhatsApp" })).toHaveAttribute("href", `/cart/whatsapp/${unsent.number}`);
    await expect(page.getByText("Cómo pagar")).toHaveCount(0);
  });
});
