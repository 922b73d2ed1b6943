import { expect, type Page, test } from "@playwright/test";
import { hydrated } from "./support";
import Database from "better-sqlite3";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { E2E_DATA_DIR } from "../../playwright.config";

const NAIRA = /₦\d{1,3}(,\d{3})*\.\d{2}/;
const toNaira = (text: string) => Number(text.replace(/[₦,]/g, ""));

/** Fails on console errors, uncaught exceptions and raw translation keys on the page. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

async function expectNoRawKeys(page: Page) {
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/\b(?:store|common)\.[a-zA-Z]+(?:\.[a-zA-Z]+)*\b/);
  const labels = await page.locator("[aria-label]").evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")).join("\n"));
  expect(labels).not.toMatch(/\b(?:store|common)\.[a-zA-Z]+\.[a-zA-Z]/);
}

async function cardPrices(page: Page): Promise<number[]> {
  const texts = await page.locator("main article p > span.font-semibold").allInnerTexts();
  return texts.map(toNaira);
}

test.describe("home", () => {
  test("renders the hero, the carousels and the banners on the server, and the hero fades on its own", async ({ page }) => {
    const problems = watch(page);
    await page.goto("/");
    const hero = page.getByRole("region", { name: "Featured" });
    await expect(hero.getByRole("heading", { name: "Luxury Scents Within Reach" })).toBeVisible();
    await expect(hero.getByRole("group")).toHaveCount(2);
    await expect(hero.getByRole("group", { name: "1 of 2" }).getByRole("link", { name: "Shop Now" })).toHaveAttribute("href", "/shop");

    await expect(page.getByRole("region", { name: "New Arrivals" }).locator("article")).toHaveCount(5);
    const mens = page.getByRole("region", { name: "Mens Fragrances", exact: true }).locator("article");
    const womens = page.getByRole("region", { name: "Womens Fragrances" }).locator("article");
    expect(await mens.count()).toBeGreaterThanOrEqual(5);
    expect(await womens.count()).toBeGreaterThanOrEqual(5);
    for (const promise of ["DOOR STEP DELIVERY", "24 x 7 SERVICE", "ONLINE SUPPORT"]) await expect(page.getByText(promise)).toBeVisible();
    const deals = page.getByRole("region", { name: "BEST DEALS" });
    await expect(deals.getByRole("link", { name: "Shop Now" })).toHaveAttribute("href", "/shop");

    // The second slide takes over after 4 s, then the first again: a loop.
    const dots = hero.getByRole("button", { name: /Show slide/ });
    await expect(dots.nth(0)).toHaveAttribute("aria-current", "true");
    await expect(dots.nth(1)).toHaveAttribute("aria-current", "true", { timeout: 6000 });
    await expect(hero.getByRole("heading", { name: "Smell Expensive, Shop Smart" })).toBeVisible();
    await expect(dots.nth(0)).toHaveAttribute("aria-current", "true", { timeout: 6000 });

    // A product card in stock: picture with its size, name linking to the product, price pair, controls.
    // (Other journeys add products, some sold out, so the newest card is not always one in stock.)
    const card = page.getByRole("region", { name: "New Arrivals" }).locator("article").filter({ hasNot: page.getByText("Sold out") }).first();
    await expect(card.locator("img")).toHaveAttribute("srcset", /320w.*640w.*1024w/);
    await expect(card.getByRole("link")).toHaveAttribute("href", /^\/shop\/\d+$/);
    await expect(card.getByText(NAIRA).first()).toBeVisible();
    await expect(card.getByRole("button", { name: "Add to Cart" })).toBeVisible();
    await expect(card.getByRole("button", { name: "Add to wishlist" })).toBeVisible();

    await page.waitForLoadState("networkidle");
    await expectNoRawKeys(page);
    expect(problems).toEqual([]);
  });

  test("carousels stop for focus and stay still for shoppers who prefer reduced motion", async ({ page }) => {
    // The page's clock is Playwright's: the 4.8 s in which a carousel would have moved (every 4 s) pass at once.
    await page.clock.install();
    await page.goto("/");
    await hydrated(page);
    const hero = page.getByRole("region", { name: "Featured" });
    await hero.getByRole("link", { name: "Shop Now" }).first().focus();
    await page.clock.runFor(4800);
    await expect(hero.getByRole("button", { name: "Show slide 1" })).toHaveAttribute("aria-current", "true");

    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    const track = page.getByRole("region", { name: "Mens Fragrances", exact: true }).getByRole("list");
    const womens = page.getByRole("region", { name: "Womens Fragrances" }).getByRole("list");
    await hydrated(page);
    const start = await womens.evaluate((el) => el.scrollLeft);
    await page.clock.runFor(4800);
    await expect(page.getByRole("region", { name: "Featured" }).getByRole("button", { name: "Show slide 1" })).toHaveAttribute("aria-current", "true");
    expect(await track.evaluate((el) => el.scrollLeft)).toBe(0);
    expect(await womens.evaluate((el) => el.scrollLeft)).toBe(start);

    // The buttons still move it, and the keyboard reaches every card.
    await page.getByRole("region", { name: "Mens Fragrances", exact: true }).getByRole("button", { name: "Next slides" }).click();
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});

test.describe("shop", () => {
  test("filter by brand and price, paginate, open a product and its related items", async ({ page }) => {
    const problems = watch(page);
    await page.goto("/shop");
    await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
    await expect(page.getByText(/Showing 1–8 of \d+ perfumes/)).toBeVisible();
    await expect(page.locator("main article")).toHaveCount(8);

    // Brand: applied at once, back to page 1, in the URL.
    const filters = page.getByRole("complementary", { name: "Filters" });
    await filters.getByRole("radio", { name: "Dior" }).check();
    await expect(page).toHaveURL(/\/shop\?brand=\d+$/);
    // The address changes as the new list is fetched; the cards follow a moment later.
    await expect
      .poll(async () => [...new Set((await page.locator("main article p.uppercase").allInnerTexts()).map((b) => b.toLowerCase()))].join(","))
      .toBe("dior");
    const brands = await page.locator("main article p.uppercase").allInnerTexts();
    expect(brands.length).toBeGreaterThan(1);
    expect(new Set(brands.map((b) => b.toLowerCase()))).toEqual(new Set(["dior"]));

    // Price: the lower handle, applied after it stops moving.
    await filters.getByRole("slider", { name: "Minimum price" }).fill("150000");
    await expect(page).toHaveURL(/brand=\d+&min=150000$/);
    await expect(filters.locator("output").first()).toHaveText("₦150,000.00");
    // The URL changes before the new list is shown: wait for the list, not just the address.
    await expect.poll(async () => Math.min(...(await cardPrices(page)))).toBeGreaterThanOrEqual(150_000);
    const prices = await cardPrices(page);
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toBeGreaterThanOrEqual(150_000);
    // The lower handle cannot pass the upper one.
    await filters.getByRole("slider", { name: "Maximum price" }).fill("200000");
    await filters.getByRole("slider", { name: "Minimum price" }).fill("590000");
    await expect(filters.getByRole("slider", { name: "Minimum price" })).toHaveValue("199999");
    await expect(page).toHaveURL(/min=199999&max=200000$/);

    // Back walks through the filters, and the form follows the URL.
    await page.goBack();
    await expect(page).toHaveURL(/brand=\d+&min=150000$/);
    await expect(filters.getByRole("slider", { name: "Maximum price" })).toHaveValue("600000");
    await page.goBack();
    await expect(page).toHaveURL(/\/shop\?brand=\d+$/);
    await expect(filters.getByRole("slider", { name: "Minimum price" })).toHaveValue("0");
    await expect(filters.getByRole("radio", { name: "Dior" })).toBeChecked();
    await filters.getByRole("link", { name: "Reset brands" }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(filters.getByRole("radio", { name: "Dior" })).not.toBeChecked();

    // Paginate the whole shop.
    await page.goto("/shop");
    const firstPage = await page.locator("main article h3").allInnerTexts();
    const pages = page.getByRole("navigation", { name: "Pages" });
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/shop\?page=2$/);
    await expect(pages.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText(/Showing 9–16 of/)).toBeVisible();
    const secondPage = await page.locator("main article h3").allInnerTexts();
    expect(secondPage.filter((name) => firstPage.includes(name))).toEqual([]);
    await pages.getByRole("link", { name: "Page 3" }).click();
    await expect(page).toHaveURL(/page=3$/);
    await expect(page.getByText(/Showing 17–24 of/)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/page=2$/);
    await expect(page.getByText(/Showing 9–16 of/)).toBeVisible();
    expect(await page.locator("main article h3").allInnerTexts()).toEqual(secondPage);

    // A product: its page, and up to five others of its category.
    const name = (await page.locator("main article h3").first().innerText()).trim();
    await page.locator("main article h3 a").first().click();
    await expect(page).toHaveURL(/\/shop\/\d+$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText("Door Step Delivery")).toBeVisible();
    await expect(page.getByText("24 x 7 Service")).toBeVisible();
    await expect(page.locator("main").getByRole("button", { name: "Add to Cart" }).first()).toBeVisible();
    const related = page.getByRole("region", { name: "Related Items" }).locator("article");
    const count = await related.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(5);
    expect(await related.locator("h3").allInnerTexts()).not.toContain(name);

    await expectNoRawKeys(page);
    expect(problems).toEqual([]);
  });

  test("the header search goes to the shop, case-insensitively, on product and brand names", async ({ page }) => {
    await page.goto("/about");
    const search = page.getByRole("search").first();
    await search.getByRole("searchbox", { name: "Search products" }).fill("CHANEL");
    await search.getByRole("searchbox").press("Enter");
    await expect(page).toHaveURL(/\/shop\?q=CHANEL$/);
    await expect(page.getByText(/results for “CHANEL”/)).toBeVisible();
    const brands = await page.locator("main article p.uppercase").allInnerTexts();
    expect(brands.length).toBeGreaterThan(0);
    for (const brand of brands) expect(brand.toLowerCase()).toBe("chanel");

    await page.goto("/shop?q=no%20such%20perfume%20anywhere");
    await expect(page.getByText("No perfumes match these filters.")).toBeVisible();
    await page.getByRole("link", { name: "Reset all filters" }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(page.locator("main article")).toHaveCount(8);
  });

  test("the filters work without JavaScript: a plain form and plain links", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/shop");
    const filters = page.getByRole("complementary", { name: "Filters" });
    await filters.getByRole("radio", { name: "Women" }).check();
    await filters.getByRole("radio", { name: "Chanel" }).check();
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/category=\d+.*brand=\d+/);
    const brands = await page.locator("main article p.uppercase").allInnerTexts();
    expect(brands.length).toBeGreaterThan(0);
    for (const brand of brands) expect(brand.toLowerCase()).toBe("chanel");
    await expect(filters.getByRole("radio", { name: "Women" })).toBeChecked();

    await page.goto("/shop");
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2$/);
    await expect(page.getByText(/Showing 9–16 of/)).toBeVisible();
    await context.close();

    // On a phone, the drawers open through the browser's own invoker commands.
    const phone = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await small.goto("/shop");
    await small.getByRole("button", { name: "Filters" }).click();
    const drawer = small.getByRole("dialog", { name: "Filters" });
    await expect(drawer).toBeVisible();
    await drawer.getByRole("radio", { name: "Dior" }).check();
    await drawer.getByRole("button", { name: "Show results" }).click();
    await expect(small).toHaveURL(/brand=\d+/);
    await small.getByRole("button", { name: "Open the menu" }).click();
    await expect(small.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "About" })).toBeVisible();
    await phone.close();
  });

  test("any query string reaches a valid page, never a 500 and never reflected unescaped", async ({ page, request }) => {
    const attempts = [
      "page=-3",
      "page=99999",
      "min=abc",
      "min=500000&max=10",
      "category=999",
      "brand=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      `q=${"a".repeat(5000)}`,
      "q=%27%20OR%201%3D1%3B%20DROP%20TABLE%20products%3B--",
      "q=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
      "page=1e9&min=-1&max=1e99",
    ];
    for (const query of attempts) {
      const response = await request.get(`/shop?${query}`);
      expect(response.status(), query).toBe(200);
      const html = await response.text();
      expect(html, query).not.toContain("<script>alert(1)");
      expect(html, query).not.toContain("<img src=x onerror");
    }
    await page.goto("/shop?page=99999");
    await expect(page.getByRole("navigation", { name: "Pages" }).locator("[aria-current=page]")).toHaveText(/^\d+$/);
    await page.goto("/shop?q=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
    await expect(page.getByText("results for “<img src=x onerror=alert(1)>”")).toBeVisible();

    for (const id of ["abc", "0", "999999", "12abc", "-1"]) {
      expect((await request.get(`/shop/${id}`)).status(), id).toBe(404);
    }
    await page.goto("/shop/abc");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page).toHaveTitle("Page not found | Unboxed");
    await page.goto("/no/such/page?lng=es");
    await expect(page).toHaveTitle("Página no encontrada | Unboxed");
  });
});

test.describe("layout", () => {
  test("switches to Español and back on the same page, and remembers the choice", async ({ page }) => {
    await page.goto("/shop?page=2");
    await hydrated(page);
    const summary = page.getByRole("banner").locator("summary", { hasText: "ENGLISH" });
    // A click elsewhere or Escape closes the menu, as any menu does.
    await summary.click();
    await expect(page.getByRole("link", { name: "ESPAÑOL" })).toBeVisible();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByRole("link", { name: "ESPAÑOL" })).toBeHidden();
    await summary.click();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("link", { name: "ESPAÑOL" })).toBeHidden();
    await summary.click();
    await page.getByRole("link", { name: "ESPAÑOL" }).click();
    await expect(page).toHaveURL(/\/shop\?page=2&lng=es$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1, name: "Tienda" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Iniciar sesión" })).toBeVisible();
    await expect(page.locator("main article").first().getByText(NAIRA).first()).toBeVisible();
    await expectNoRawKeys(page);
    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1, name: "Nuestra historia" })).toBeVisible();
    await expectNoRawKeys(page);

    await page.getByRole("banner").locator("summary", { hasText: "ESPAÑOL" }).click();
    await page.getByRole("link", { name: "ENGLISH" }).click();
    await expect(page).toHaveURL(/\/about\?lng=en$/);
    await expect(page.getByRole("heading", { level: 1, name: "Our story" })).toBeVisible();
  });

  test("header: phone, currency, search, cart badge and total, nav with the active page, footer", async ({ page }) => {
    await page.goto("/faq");
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: /Call us/ })).toHaveAttribute("href", /^tel:\+?\d+$/);
    await expect(header.getByText("NGN", { exact: true })).toBeVisible();
    const cart = header.getByRole("link", { name: /^Cart: 0 items, ₦0\.00$/ });
    await expect(cart).toHaveAttribute("href", "/cart");
    await expect(cart).toContainText("0");
    await expect(cart).toContainText("₦0.00");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "FAQ" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Home" })).not.toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "ALL DEPARTMENTS" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    await expect(header.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/auth");

    const footer = page.getByRole("contentinfo");
    for (const [name, href] of [
      ["Home", "/"],
      ["About", "/about"],
      ["Shop", "/shop"],
      ["Return Policy", "/returns-refunds"],
      ["Cart", "/cart"],
      ["Return & Refund Policy", "/returns-refunds"],
      ["Privacy Policy", "/privacy"],
    ]) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(footer.getByRole("link", { name: "Instagram" })).toHaveAttribute("href", /^https:\/\//);
    await expect(footer.getByRole("link", { name: "TikTok" })).toHaveAttribute("href", /^https:\/\//);
    await expect(footer.locator("#privacy-policy")).toBeVisible();
    await expect(footer.getByText(`Copyright © ${new Date().getFullYear()}. All rights reserved`)).toBeVisible();

    // FAQ: real questions, answers open on demand.
    const questions = page.locator("main details");
    expect(await questions.count()).toBeGreaterThanOrEqual(8);
    await page.getByText("Why do your perfumes come without a box?").click();
    await expect(page.getByText(/remove them to cut the price/)).toBeVisible();
  });

  test("shows the signed-in shopper's name, profile, Sign out, and admin links only to admins", async ({ browser, baseURL }) => {
    const db = new Database(path.join(E2E_DATA_DIR, "shop.db"));
    const signIn = (email: string, firstName: string, role: "customer" | "admin") => {
      const now = new Date().toISOString();
      let user = db.prepare("select id from users where email = ?").get(email) as { id: number } | undefined;
      user ??= db
        .prepare("insert into users (email, password_hash, first_name, last_name, role, created_at) values (?, 'x', ?, 'Test', ?, ?) returning id")
        .get(email, firstName, role, now) as { id: number };
      const token = randomBytes(32).toString("base64url");
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      db.prepare("insert into sessions (id, user_id, expires_at, created_at) values (?, ?, ?, ?)").run(
        createHash("sha256").update(token).digest("hex"),
        user.id,
        expires,
        now,
      );
      return { name: "ub_session", value: token, url: baseURL! };
    };
    try {
      const customer = await browser.newContext();
      await customer.addCookies([signIn("ngozi@example.com", "Ngozi", "customer")]);
      let page = await customer.newPage();
      await page.goto("/shop");
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: /Ngozi/ })).toHaveAttribute("href", "/profile");
      await expect(header.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
      expect(await header.locator("form:has(button)").filter({ hasText: "Sign out" }).getAttribute("action")).toBe("/auth/logout");
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" })).toHaveCount(0);
      await customer.close();

      const admin = await browser.newContext();
      await admin.addCookies([signIn("admin@unboxed.example", "Demo", "admin")]);
      page = await admin.newPage();
      await page.goto("/");
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const [name, href] of [
        ["Dashboard", "/admin"],
        ["Products", "/admin/products"],
        ["Categories", "/admin/categories"],
        ["Brands", "/admin/brands"],
      ]) {
        await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
      }
      // The admin's own page, never one a shared cache may keep.
      const response = await page.goto("/shop");
      expect(response?.headers()["cache-control"]).toBe("private, no-store");
      await expect(nav.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
      await admin.close();
    } finally {
      db.close();
    }
  });

  test("on a phone, the nav and the filters open in drawers from the left", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByRole("button", { name: "Open the menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("searchbox", { name: "Search products" })).toBeVisible();
    await menu.getByRole("link", { name: "Shop" }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(menu).toBeHidden();

    await page.getByRole("button", { name: "Filters" }).click();
    const drawer = page.getByRole("dialog", { name: "Filters" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("slider", { name: "Minimum price" })).toHaveAttribute("step", "10");
    await drawer.getByRole("radio", { name: "Men", exact: true }).check();
    await expect(page).toHaveURL(/category=\d+$/);
    await drawer.getByRole("button", { name: "Show results" }).click();
    await expect(drawer).toBeHidden();
    // Two page buttons on a narrow screen; a page change scrolls to the top.
    const pages = page.getByRole("navigation", { name: "Pages" });
    await expect(pages.getByRole("link", { name: /^Page \d+$/ }).filter({ visible: true })).toHaveCount(2);
    await pages.getByRole("link", { name: "Next" }).scrollIntoViewIfNeeded();
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2$/);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);

    await context.close();
  });
});

test.describe("content pages, search engines and sharing", () => {
  test("about, returns, FAQ and contact pages say what the shop promises, with its contact details", async ({ page }) => {
    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1, name: "Our story" })).toBeVisible();
    await expect(page.getByText("Everyone deserves to smell expensive.")).toBeVisible();
    await expect(page.getByText(/100% authentic/).first()).toBeVisible();

    await page.goto("/returns-refunds");
    await expect(page.getByRole("heading", { level: 2, name: /^\d\. / })).toHaveCount(7);
    await expect(page.getByRole("link", { name: /^WhatsApp / })).toHaveAttribute("href", /^https:\/\/wa\.me\/\d+$/);
    await expect(page.getByRole("link", { name: /^E-mail / })).toHaveAttribute("href", /^mailto:/);

    await page.goto("/contact");
    await expect(page.getByRole("link", { name: /^\+?[\d ]+$/ })).toHaveAttribute("href", /^tel:/);
    await expect(page.getByRole("link", { name: "Chat with us on WhatsApp" })).toHaveAttribute("href", /^https:\/\/wa\.me\//);
    await expect(page.getByRole("heading", { name: "Opening hours" })).toBeVisible();
  });

  test("every page has a title, description, canonical URL and Open Graph tags; products have JSON-LD", async ({ page, baseURL }) => {
    for (const url of ["/", "/shop", "/about", "/faq", "/contact", "/returns-refunds"]) {
      await page.goto(url);
      expect(await page.title(), url).toMatch(/Unboxed/);
      await expect(page.locator('meta[name="description"]'), url).toHaveAttribute("content", /.{40,}/);
      await expect(page.locator('link[rel="canonical"]'), url).toHaveAttribute("href", `${baseURL}${url}`);
      await expect(page.locator('meta[property="og:title"]'), url).toHaveAttribute("content", /Unboxed/);
      await expect(page.locator('meta[property="og:url"]'), url).toHaveAttribute("content", `${baseURL}${url}`);
    }
    await page.goto("/shop");
    const href = await page.locator("main article h3 a").first().getAttribute("href");
    await page.goto(href!);
    const name = await page.getByRole("heading", { level: 1 }).innerText();
    expect(await page.title()).toBe(`${name} | Unboxed`);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "product");
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", new RegExp(`^${baseURL}/images/.+-1024\\.webp$`));
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(jsonLd).toMatchObject({ "@type": "Product", name, offers: { "@type": "Offer", priceCurrency: "NGN", price: expect.stringMatching(/^\d+\.\d{2}$/) } });
    expect(jsonLd.offers.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock)$/);
  });

  test("sitemap.xml lists the pages and every product; robots.txt keeps admin and account areas out", async ({ request, baseURL }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.headers()["content-type"]).toMatch(/^application\/xml/);
    const xml = await sitemap.text();
    for (const page of ["/", "/shop", "/about", "/faq", "/contact", "/returns-refunds", "/privacy"]) expect(xml).toContain(`<loc>${baseURL}${page}</loc>`);
    expect(xml.match(/\/shop\/\d+<\/loc>/g)?.length).toBeGreaterThanOrEqual(48);

    const robots = await (await request.get("/robots.txt")).text();
    for (const area of ["/admin", "/profile", "/checkout", "/auth"]) expect(robots).toContain(`Disallow: ${area}`);
    expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test("anonymous pages may be kept by a shared cache, with a policy that names their own scripts; a shopper's are private", async ({ request }) => {
    const first = await request.get("/faq");
    expect(first.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(first.headers()["set-cookie"]).toBeUndefined();
    const html = await first.text();
    // The policy allows exactly the page's inline scripts, by hash: right for every visitor a cache sends it to.
    const policy = first.headers()["content-security-policy"];
    expect(policy).not.toContain("nonce");
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, body]) => body);
    expect(inline.length).toBeGreaterThan(0);
    for (const body of inline) expect(policy).toContain(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
    // A browser that has the page is told so, without the page again.
    const etag = first.headers()["etag"];
    expect((await request.get("/faq", { headers: { "If-None-Match": etag } })).status()).toBe(304);
    // A cart cookie gets a page of its own that no cache keeps.
    const withCart = await request.get("/faq", { headers: { Cookie: "ub_cart=abcdefghijklmnopqrstuvwxyz" } });
    expect(withCart.headers()["cache-control"]).toBe("private, no-store");
    expect(withCart.headers()["etag"]).toBeUndefined();
    // Each language has its own address: a saved choice is sent there once, and that page may be kept too.
    const chosen = await request.get("/faq", { headers: { Cookie: "lng=es" }, maxRedirects: 0 });
    expect(chosen.status()).toBe(302);
    expect(chosen.headers()["location"]).toBe("/faq?lng=es");
    expect(chosen.headers()["cache-control"]).toBe("private, no-store");
    const spanish = await request.get("/faq?lng=es", { headers: { Cookie: "lng=es" } });
    expect(await spanish.text()).toContain("Preguntas frecuentes");
    expect(spanish.headers()["cache-control"]).toMatch(/^public, /);
    expect(await spanish.text()).toContain('hrefLang="en" href="http://127.0.0.1:');
  });

  test("a page is sent compressed as the browser asks, and reads the same", async ({ request }) => {
    const sent = async (url: string, encoding: string) => {
      const response = await request.get(url, { headers: { "accept-encoding": encoding } });
      expect(response.status(), url).toBe(200);
      return { headers: response.headers(), html: await response.text() };
    };
    const plain = await sent("/cart", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const [asked, encoding] of [["br", "br"], ["gzip", "gzip"], ["gzip, deflate, br", "br"], ["br;q=0, gzip", "gzip"]]) {
      const packed = await sent("/cart", asked);
      expect(packed.headers["content-encoding"], asked).toBe(encoding);
      expect(packed.headers["vary"], asked).toMatch(/accept-encoding/i);
      expect(packed.html.replace(/sha256-[^']+/g, ""), asked).toBe(plain.html.replace(/sha256-[^']+/g, ""));
    }
  });
});
