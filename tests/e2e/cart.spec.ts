import { type APIRequestContext, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { hydrated } from "./support";
import Database from "better-sqlite3";
import path from "node:path";
import { formatNaira } from "../../app/lib/money";
import { E2E_DATA_DIR } from "../../playwright.config";

// The server under test runs on the SQLite file of playwright.config.ts's E2E data folder.
const DB_FILE = path.resolve(E2E_DATA_DIR, "shop.db");

function readDb<T>(query: (db: Database.Database) => T): T {
  const db = new Database(DB_FILE, { readonly: true, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

function kobo(text: string): number {
  const match = text.match(/₦([\d,]+)\.(\d{2})/);
  if (!match) throw new Error(`no naira amount in ${JSON.stringify(text)}`);
  return Number(match[1].replace(/,/g, "")) * 100 + Number(match[2]);
}

const header = (page: Page) => ({ count: page.getByTestId("cart-count"), total: page.getByTestId("cart-total") });
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Waits until React has taken over the page, so clicks go through fetchers rather than plain forms. */

interface Card {
  article: Locator;
  id: number;
  name: string;
  price: number;
}

/** The first `count` cards that can be added (not sold out), each located by its product link. */
async function homeCards(page: Page, count: number): Promise<Card[]> {
  const addable = page.locator("main article").filter({ has: page.getByRole("button", { name: "Add to Cart" }) });
  // A product can show in more than one carousel: each is taken once, by its first card.
  const hrefs = [...new Set(await addable.locator("h3 a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!)))];
  const cards: Card[] = [];
  for (const href of hrefs.slice(0, count)) {
    const article = page.locator("main article").filter({ has: page.locator(`h3 a[href="${href}"]`) }).first();
    cards.push({
      article,
      id: Number(href.split("/").pop()),
      name: (await article.locator("h3 a").innerText()).trim(),
      price: kobo(await article.getByText(/^₦/).first().innerText()),
    });
  }
  if (cards.length < count) throw new Error(`only ${cards.length} cards can be added`);
  return cards;
}

async function post(request: APIRequestContext, baseURL: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return request.post("/cart", { form, headers: { Origin: baseURL, ...headers }, maxRedirects: 0 });
}

function lineRow(page: Page, name: string): Locator {
  return page.locator("tbody tr").filter({ hasText: name });
}

test.describe("cart with JavaScript", () => {
  test("adds from home page cards: toasts, badge and header total, without a page reload", async ({ page }) => {
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto("/");
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
    const { count, total } = header(page);
    await expect(count).toHaveText("0");
    await expect(total).toHaveText("₦0.00");
    const [first, second] = await homeCards(page, 2);

    // The badge moves as soon as the button is pressed, before the server has answered.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/cart.data*", async (route) => {
      await held;
      await route.continue();
    });
    await first.article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(count).toHaveText("1");
    await expect(first.article.getByRole("button", { name: "Adding…" })).toBeVisible();
    release();

    await expect(toast(page, "Added to cart successfully")).toBeVisible();
    await expect(count).toHaveText("1");
    await expect(total).toHaveText(formatNaira(first.price));
    // Toasts sit top-right.
    const toaster = page.locator("[data-sonner-toaster]");
    await expect(toaster).toHaveAttribute("data-y-position", "top");
    await expect(toaster).toHaveAttribute("data-x-position", "right");

    await first.article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(toast(page, "Already added to Cart")).toBeVisible();
    await expect(count).toHaveText("1");
    await expect(total).toHaveText(formatNaira(first.price));

    await second.article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(count).toHaveText("2");
    await expect(total).toHaveText(formatNaira(first.price + second.price));

    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(problems).toEqual([]);
  });

  test("plus, minus, typed quantity and remove on the cart page; the empty cart", async ({ page, baseURL }) => {
    await page.goto("/");
    const [a, b] = await homeCards(page, 2);
    for (const card of [a, b]) expect((await post(page.request, baseURL!, { intent: "add", productId: String(card.id) })).status()).toBe(303);

    await page.goto("/cart");
    await hydrated(page);
    const { count, total } = header(page);
    const subtotal = page.getByTestId("cart-subtotal");
    const rowA = lineRow(page, a.name);
    const quantityA = rowA.getByRole("spinbutton", { name: `Quantity of ${a.name}` });
    await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
    await expect(page.getByText("Taxes and shipping calculated at checkout")).toBeVisible();
    await expect(rowA.getByRole("link", { name: a.name })).toHaveAttribute("href", `/shop/${a.id}`);
    await expect(rowA.locator("img")).toBeVisible();
    await expect(quantityA).toHaveValue("1");
    await expect(subtotal).toHaveText(formatNaira(a.price + b.price));

    await rowA.getByRole("button", { name: `Increase the quantity of ${a.name}` }).click();
    await expect(quantityA).toHaveValue("2");
    await expect(rowA.getByTestId("line-total")).toHaveText(formatNaira(2 * a.price));
    await expect(subtotal).toHaveText(formatNaira(2 * a.price + b.price));
    await expect(total).toHaveText(formatNaira(2 * a.price + b.price));
    await expect(count).toHaveText("2");

    await quantityA.fill("3");
    await quantityA.press("Enter");
    await expect(subtotal).toHaveText(formatNaira(3 * a.price + b.price));
    await page.waitForLoadState("networkidle");
    await page.reload();
    await expect(quantityA).toHaveValue("3");

    await rowA.getByRole("button", { name: `Decrease the quantity of ${a.name}` }).click();
    await expect(quantityA).toHaveValue("2");
    await rowA.getByRole("button", { name: `Decrease the quantity of ${a.name}` }).click();
    await expect(quantityA).toHaveValue("1");
    await expect(total).toHaveText(formatNaira(a.price + b.price));
    // At 1, minus removes the line.
    await rowA.getByRole("button", { name: `Decrease the quantity of ${a.name}` }).click();
    await expect(rowA).toHaveCount(0);
    await expect(toast(page, `${a.name} was removed from your cart`)).toBeVisible();
    await expect(count).toHaveText("1");
    await expect(total).toHaveText(formatNaira(b.price));

    await lineRow(page, b.name).getByRole("button", { name: `Remove ${b.name} from your cart` }).click();
    await expect(page.getByText("Your cart is empty")).toBeVisible();
    await expect(count).toHaveText("0");
    await expect(total).toHaveText("₦0.00");
    await expect(page.getByRole("button", { name: "Checkout on WhatsApp" })).toBeDisabled();
    // Still the one page: every change went through without a reload, and Back leaves the cart.
    expect(new URL(page.url()).pathname).toBe("/cart");
  });

  test("'Checkout on WhatsApp' opens wa.me with every line, the total and a reference, recorded once as a pending order", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.goto("/");
    const [a, b] = await homeCards(page, 2);
    for (const card of [a, b]) await post(page.request, baseURL!, { intent: "add", productId: String(card.id) });
    await post(page.request, baseURL!, { intent: "increment", productId: String(a.id) });
    await blockWhatsApp(context);

    await page.goto("/cart");
    const { text, phone, reference } = await pressWhatsApp(page);
    expect(phone).toBe("2348012345678");
    const lines = text.split("\n");
    expect(lines[0]).toBe("Hello Unboxed! I would like to order:");
    expect(lines).toContain(`• ${a.name} × 2: ${formatNaira(2 * a.price)}`);
    expect(lines).toContain(`• ${b.name} × 1: ${formatNaira(b.price)}`);
    expect(lines).toContain(`Total: ${formatNaira(2 * a.price + b.price)}`);
    expect(reference).toMatch(/^UB-\d{5,}$/);

    const order = readDb((db) =>
      db.prepare("select id, channel, status, user_id, total from orders where number = ?").get(reference),
    ) as { id: number; channel: string; status: string; user_id: number | null; total: number };
    expect(order).toMatchObject({ channel: "whatsapp", status: "pending", user_id: null, total: 2 * a.price + b.price });
    const items = readDb((db) => db.prepare("select name, unit_price, quantity from order_items where order_id = ? order by id").all(order.id));
    expect(items).toEqual([
      { name: a.name, unit_price: a.price, quantity: 2 },
      { name: b.name, unit_price: b.price, quantity: 1 },
    ]);
    expect(readDb((db) => db.prepare("select status from order_events where order_id = ?").all(order.id))).toEqual([{ status: "pending" }]);

    // Same cart, pressed again: same order and reference.
    const again = await pressWhatsApp(page);
    expect(again.reference).toBe(reference);
    expect(readDb((db) => db.prepare("select count(*) as n from orders where number = ?").get(reference))).toEqual({ n: 1 });

    // A changed cart is a new order.
    await post(page.request, baseURL!, { intent: "remove", productId: String(b.id) });
    await page.reload();
    const changed = await pressWhatsApp(page);
    expect(changed.reference).not.toBe(reference);
    expect(changed.text).not.toContain(b.name);
  });

  test("adds from the product page: toast, badge and total, and a second add says it is already there", async ({ page }) => {
    await page.goto("/shop?category=men");
    const href = await page
      .locator("main article")
      .filter({ has: page.getByRole("button", { name: "Add to Cart" }) })
      .first()
      .locator("h3 a")
      .getAttribute("href");
    await page.goto(href!);
    await hydrated(page);
    const price = await page.locator("main").getByText(/^₦[\d,]+\.\d{2}$/).first().innerText();
    const { count, total } = header(page);
    await page.locator("main").getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(toast(page, "Added to cart successfully")).toBeVisible();
    await expect(count).toHaveText("1");
    await expect(total).toHaveText(price);
    await page.locator("main").getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(toast(page, "Already added to Cart")).toBeVisible();
    await expect(count).toHaveText("1");
  });

  test("speaks Spanish in the toasts and the cart", async ({ page }) => {
    await page.goto("/?lng=es");
    await hydrated(page);
    const card = page.locator("main article").filter({ has: page.getByRole("button", { name: "Añadir al carrito" }) }).first();
    await card.getByRole("button", { name: "Añadir al carrito" }).click();
    await expect(toast(page, "Añadido al carrito correctamente")).toBeVisible();
    await page.goto("/cart");
    await expect(page.getByRole("heading", { level: 1, name: "Tu carrito" })).toBeVisible();
    await expect(page.getByText("Impuestos y envío calculados al finalizar la compra")).toBeVisible();
  });
});

async function blockWhatsApp(context: BrowserContext) {
  // The test machine has no internet: wa.me answers with a stub page, and we read the URL it was given.
  await context.route("https://wa.me/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<p>WhatsApp</p>" }));
  await context.route("https://api.whatsapp.com/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<p>WhatsApp</p>" }));
}

async function pressWhatsApp(page: Page): Promise<{ text: string; phone: string; reference: string }> {
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Checkout on WhatsApp" }).click();
  const popup = await popupPromise;
  await popup.waitForURL(/^https:\/\/wa\.me\//);
  const url = new URL(popup.url());
  await popup.close();
  const text = url.searchParams.get("text") ?? "";
  const reference = text.match(/^Order reference: (UB-\d+)$/m)?.[1] ?? "";
  return { text, phone: url.pathname.slice(1), reference };
}

test.describe("cart without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("adds from a card, changes quantities, removes, and orders on WhatsApp with plain forms", async ({ page, context }) => {
    await page.goto("/");
    const [a] = await homeCards(page, 1);
    await a.article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("[data-toast-fallback]")).toHaveText("Added to cart successfully");
    await expect(header(page).count).toHaveText("1");
    await expect(header(page).total).toHaveText(formatNaira(a.price));

    await (await homeCards(page, 1))[0].article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.locator("[data-toast-fallback]")).toHaveText("Already added to Cart");
    await expect(header(page).count).toHaveText("1");

    await page.goto("/cart");
    const row = lineRow(page, a.name);
    await row.getByRole("button", { name: `Increase the quantity of ${a.name}` }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(row.getByRole("spinbutton")).toHaveValue("2");
    await expect(page.getByTestId("cart-subtotal")).toHaveText(formatNaira(2 * a.price));
    await expect(header(page).total).toHaveText(formatNaira(2 * a.price));

    await blockWhatsApp(context);
    const { text, reference } = await pressWhatsApp(page);
    expect(text).toContain(`• ${a.name} × 2: ${formatNaira(2 * a.price)}`);
    expect(text).toContain(`Total: ${formatNaira(2 * a.price)}`);
    expect(reference).toMatch(/^UB-\d+$/);

    await row.getByRole("button", { name: `Decrease the quantity of ${a.name}` }).click();
    await expect(row.getByRole("spinbutton")).toHaveValue("1");
    await row.getByRole("button", { name: `Remove ${a.name} from your cart` }).click();
    await expect(page.locator("[data-toast-fallback]")).toHaveText(`${a.name} was removed from your cart`);
    await expect(page.getByText("Your cart is empty")).toBeVisible();
    await expect(page.getByRole("button", { name: "Checkout on WhatsApp" })).toBeDisabled();
  });
});

test.describe("bad input", () => {
  test("malformed ids and quantities are 400, unknown products 404, stock conflicts 409; never a 500", async ({ request, baseURL }) => {
    const soldOut = readDb((db) => db.prepare("select id from products where stock = 0 and archived_at is null limit 1").get()) as { id: number };
    const inStock = readDb((db) => db.prepare("select id, stock from products where stock between 2 and 20 limit 1").get()) as {
      id: number;
      stock: number;
    };
    const status = async (form: Record<string, string>) => (await post(request, baseURL!, form)).status();

    expect(await status({ intent: "add", productId: String(inStock.id) })).toBe(303);
    for (const productId of ["abc", "1.5", "-1", "0", "1e9", ""]) expect(await status({ intent: "add", productId }), productId).toBe(400);
    expect(await status({ intent: "add", productId: "999999" })).toBe(404);
    expect(await status({ intent: "add", productId: String(soldOut.id) })).toBe(409);
    for (const quantity of ["0", "-1", "1.5", "abc", "1e9"]) {
      expect(await status({ intent: "set", productId: String(inStock.id), quantity }), quantity).toBe(400);
    }
    expect(await status({ intent: "set", productId: String(inStock.id), quantity: String(inStock.stock + 1) })).toBe(409);
    expect(await status({ intent: "set", productId: String(inStock.id), quantity: String(inStock.stock) })).toBe(303);
    expect(await status({ intent: "increment", productId: String(inStock.id) })).toBe(409);
    expect(await status({ intent: "increment", productId: "999999" })).toBe(404);
    expect(await status({ intent: "fly" })).toBe(400);
    expect(await status({})).toBe(400);

    // The refusal is explained on the page a shopper without JavaScript lands on.
    const page = await request.post("/cart", { form: { intent: "add", productId: String(soldOut.id) }, headers: { Origin: baseURL! } });
    expect(await page.text()).toContain("Out of stock");
  });

  test("a forged or unknown cart cookie gets a fresh cart", async ({ playwright, baseURL }) => {
    const forged = "A".repeat(32);
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: `ub_cart=${forged}` } });
    const id = (readDb((db) => db.prepare("select id from products where stock > 0 and archived_at is null limit 1").get()) as { id: number }).id;
    const response = await post(request, baseURL!, { intent: "add", productId: String(id) });
    expect(response.status()).toBe(303);
    const cookie = response.headers()["set-cookie"] ?? "";
    const fresh = cookie.match(/ub_cart=([A-Za-z0-9_-]+)/)?.[1];
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(forged);
    expect(cookie).toMatch(/ub_cart=[^;]+; Path=\/; SameSite=Lax; Max-Age=\d+; HttpOnly/);
    expect(readDb((db) => db.prepare("select count(*) as n from carts where id = ?").get(forged))).toEqual({ n: 0 });
    const forms: Record<string, string>[] = [{ intent: "remove", productId: String(id) }, { intent: "clear" }];
    for (const form of forms) {
      expect((await post(request, baseURL!, form)).status()).toBe(303);
    }
    await request.dispose();
  });

  test("the same product added from two tabs at once ends in one line", async ({ context, baseURL }) => {
    const [tabA, tabB] = [await context.newPage(), await context.newPage()];
    await tabA.goto("/");
    const id = (await homeCards(tabA, 1))[0].id;
    // First add creates the cart; then both tabs add another product at the same moment.
    await post(tabA.request, baseURL!, { intent: "add", productId: String(id) });
    await tabB.goto("/");
    const other = (await homeCards(tabB, 2))[1].id;
    const answers = await Promise.all([tabA, tabB].map((tab) => post(tab.request, baseURL!, { intent: "add", productId: String(other) })));
    expect(answers.map((r) => r.status())).toEqual([303, 303]);
    await tabA.goto("/cart");
    await expect(tabA.locator("tbody tr")).toHaveCount(2);
    await expect(header(tabA).count).toHaveText("2");
  });
});
