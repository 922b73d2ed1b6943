import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { insertOrder } from "../support/orders";
import { adjustStock } from "~/domain/catalogue/stock-adjustments.server";

// Every page of the shop, on the two phone widths most of our shoppers have, in both languages, signed
// out, as a customer and as the admin: the document is never wider than the screen, and axe finds no
// accessibility problem. One load per page and language: the narrower width is measured first, then the
// page is widened to 390 px and measured again. axe then checks the page as a phone shows it in English
// and as a computer shows it (1280 px: the desktop header, filters and admin tables) in Spanish, so each
// page's two layouts and two languages are each checked once.

const WIDTHS = [360, 390] as const;
const LANGUAGES = ["en", "es"] as const;
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

let shop: DatabaseHandle;
let customer: { userId: number; token: string };
let admin: { userId: number; token: string };
// Its six tests may run side by side when the run has several workers: each worker makes its own accounts.
test.describe.configure({ mode: "parallel" });
const stamp = `${Date.now().toString(36)}-${process.env.TEST_WORKER_INDEX ?? 0}`;
const pages: Record<"signedOut" | "customer" | "admin", string[]> = { signedOut: [], customer: [], admin: [] };

test.beforeAll(async () => {
  shop = await openShopDatabase();
  customer = await createCustomer(shop, `sweep-${stamp}@example.com`, "Oluwaseyifunmi", "Adeyemi-Okonkwo");
  admin = await createAdmin(shop, `sweep-owner-${stamp}@unboxed.example`, "Ada", "Owner");
  const products = await shop.db
    .selectFrom("products")
    .select(["id", "name"])
    .where("archived_at", "is", null)
    .where("stock", ">", 5)
    .orderBy("id")
    .limit(2)
    .execute();
  const [first, second] = products;
  // The longest name in the catalogue, so the narrowest layouts get the hardest text.
  const longest = await shop.db.selectFrom("products").select("id").where("archived_at", "is", null).orderBy((eb) => eb.fn("length", ["name"]), "desc").executeTakeFirstOrThrow();
  const items = [{ productId: first.id, quantity: 2 }, { productId: longest.id, quantity: 1 }];
  const checkout = await insertOrder(shop.db, { userId: customer.userId, items });
  const whatsapp = await insertOrder(shop.db, { userId: customer.userId, channel: "whatsapp", items: [{ productId: second.id, quantity: 1 }], address: null });
  // A stock history row with a long note, so the stock page shows its table.
  await adjustStock(shop.db, longest.id, { reason: "received", change: 1, note: "Carton from the Dubai supplier, checked and shelved by the weekend team", expected: null }, admin.userId);
  await shop.db.insertInto("addresses").values({ user_id: customer.userId, street: "Plot 1415 Adetokunbo Ademola Street, Victoria Island", city: "Lagos", state: "Lagos", country: "Nigeria", created_at: new Date().toISOString() }).execute();

  pages.signedOut = [
    "/",
    "/shop",
    `/shop/${longest.id}`,
    "/about",
    "/faq",
    "/contact",
    "/returns-refunds",
    "/cart",
    "/auth",
    "/auth/register",
    "/auth/forgot-password",
    "/auth/reset-password?token=not-a-real-token",
    "/no-such-page",
  ];
  pages.customer = [
    "/",
    "/shop?page=2",
    `/shop/${first.id}`,
    "/cart",
    "/checkout",
    `/orders/${checkout.number}`,
    `/orders/${whatsapp.number}`,
    "/profile?tab=orders",
    "/profile?tab=favourites",
    "/profile?tab=addresses",
    "/wishlist",
  ];
  pages.admin = [
    "/",
    "/admin",
    "/admin/orders",
    `/admin/orders/${checkout.number}`,
    `/admin/orders/${checkout.number}?cancel=1`,
    "/admin/products",
    "/admin/products?new=1",
    `/admin/products?edit=${longest.id}`,
    `/admin/products/${longest.id}/stock`,
    `/admin/products/${longest.id}/photos`,
    "/admin/products/photos",
    "/admin/products/import",
    "/admin/categories",
    "/admin/categories?new=1",
    "/admin/brands",
    "/admin/brands?q=nothing-matches",
    "/admin/audit",
    "/admin/customers",
    "/admin/customers?q=adeyemi-okonkwo",
    "/admin/customers?role=admin",
    `/admin/customers/${customer.userId}`,
    `/admin/customers/${customer.userId}?role=admin`,
    "/admin/delivery",
    "/admin/reviews",
    `/admin/products/${longest.id}/sizes`,
    "/admin/promotions",
    "/admin/gift-cards",
    "/admin/messages",
    "/admin/staff",
    "/admin/account",
  ];
});
test.afterAll(async () => {
  await shop?.close();
});

async function signedIn(context: BrowserContext, token: string | null, baseURL: string) {
  if (token) await context.addCookies([{ name: "ub_session", value: token, url: baseURL }]);
}

/** How far the document reaches past the screen, and the elements that stick out (for the message). */
async function overflow(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const excess = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - width;
    const culprits: string[] = [];
    if (excess > 0) {
      for (const el of document.body.querySelectorAll("*")) {
        const box = el.getBoundingClientRect();
        if (box.width > 0 && box.right > width + 1 && culprits.length < 5) {
          culprits.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${String(el.className).split(" ").slice(0, 3).join(".")} (right ${Math.round(box.right)})`);
        }
      }
    }
    return { excess, culprits };
  });
}

for (const [who, token] of [
  ["signedOut", null],
  ["customer", "customer"],
  ["admin", "admin"],
] as const) {
  for (const lng of LANGUAGES) {
    test(`${who} in ${lng}: every page fits 360 and 390 px screens and passes axe`, async ({ browser, baseURL }) => {
      test.setTimeout(300_000);
      // Reduced motion: axe judges colours as they settle, not mid-way through the listing's fade-in.
      const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 780 }, isMobile: true, hasTouch: true, locale: lng === "es" ? "es-ES" : "en-GB", reducedMotion: "reduce" });
      await signedIn(context, token === "customer" ? customer.token : token === "admin" ? admin.token : null, baseURL!);
      const page = await context.newPage();
      if (who === "customer") {
        // Something in the cart, so the cart and checkout pages show their full layout.
        const [{ id }] = await shop.db.selectFrom("products").select("id").where("archived_at", "is", null).where("stock", ">", 5).orderBy("id", "desc").limit(1).execute();
        const added = await page.request.post("/cart", { form: { intent: "add", productId: String(id) }, headers: { Origin: baseURL! }, maxRedirects: 0 });
        expect(added.status()).toBe(303);
        // The 'Added to your cart' toast it leaves for the next page is taken here, not shown mid-sweep.
        await page.request.get("/cart");
      }
      const problems: string[] = [];
      for (const path of pages[who]) {
        const url = `${path}${path.includes("?") ? "&" : "?"}lng=${lng}`;
        await page.setViewportSize({ width: WIDTHS[0], height: 780 });
        const response = await page.goto(url);
        // The unknown page is a 404 and a reset link with a bad token a 400; both are pages to check.
        expect(response?.status(), url).toBeLessThan(path === "/no-such-page" || path.startsWith("/auth/reset-password") ? 500 : 400);
        await expect(page.locator("html")).toHaveAttribute("lang", lng);
        for (const width of WIDTHS) {
          if (width !== WIDTHS[0]) await page.setViewportSize({ width, height: 844 });
          const { excess, culprits } = await overflow(page);
          if (excess > 0) problems.push(`${url} at ${width}px is ${excess}px too wide: ${culprits.join(", ")}`);
        }
        if (lng === "es") await page.setViewportSize({ width: 1280, height: 900 });
        // Legacy mode: axe runs in the page itself (the shop has no frames), rather than in a new tab opened
        // for each page to put the frames' results together.
        const results = await new AxeBuilder({ page })
          .setLegacyMode()
          .options({ runOnly: { type: "tag", values: AXE_TAGS }, rules: { "label-content-name-mismatch": { enabled: true } } })
          .analyze();
        for (const v of results.violations) problems.push(`${url} axe ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      }
      await context.close();
      expect(problems).toEqual([]);
    });
  }
}
