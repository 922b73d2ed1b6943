import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { addLine, userCartId } from "~/domain/shopper/cart.server";
import { LOCALES } from "~/lib/i18n";
import { LOCALE_COOKIE } from "~/lib/locale-detect";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";

// The JavaScript budget of the storefront (design.md; docs/decisions/140-javascript-budget.md): at most
// 120 KiB of gzipped JavaScript per page (zlib level 6, as `npm run bench:lighthouse` counts it).
// Checked against the production build this run serves, twice:
// - from the build's route manifest: the code every storefront route imports (before its language's
//   texts and lazy chunks) must fit the 120 KiB budget;
// - in a real Chromium: every script a page actually loads, texts included, as a shopper gets it, must
//   fit the budget too, to the byte (the figures printed are rounded), in every language the shop
//   speaks (each loads its own texts, and Spanish ones are longer).
//   `BUDGET_DETAIL=1` prints every script each page loads, with its size.
const BUDGET_KIB = 120;
const CLIENT_DIR = "build/client";

const gzipKiB = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(CLIENT_DIR, file)), { level: 6 }).length / 1024;
const round = (kib: number) => Math.round(kib * 10) / 10;

interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

function readManifest(): Manifest {
  const file = fs.readdirSync(path.join(CLIENT_DIR, "assets")).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("no route manifest in build/client/assets: run `npm run build` first");
  const text = fs.readFileSync(path.join(CLIENT_DIR, "assets", file), "utf8");
  return JSON.parse(text.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as Manifest;
}

test("every storefront route's scripts, as the build's manifest lists them, fit the budget", () => {
  const manifest = readManifest();
  // The admin area is the shop owner's tool, not a storefront page: it is outside this budget.
  const storefront = Object.values(manifest.routes).filter((route) => !route.id.startsWith("routes/admin"));
  const sizes = storefront.map((route) => {
    const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
    for (let at: ManifestRoute | undefined = route; at; at = at.parentId ? manifest.routes[at.parentId] : undefined) {
      files.add(at.module);
      for (const file of at.imports ?? []) files.add(file);
    }
    return { route: route.id, kib: [...files].reduce((sum, file) => sum + gzipKiB(file), 0) };
  });
  // The check reads real files: a storefront route always carries React and the router (well over 50 KiB).
  expect(sizes.find((s) => s.route === "routes/_store.home")?.kib).toBeGreaterThan(50);
  console.log(sizes.map((s) => `${round(s.kib).toFixed(1).padStart(6)} KiB  ${s.route}`).join("\n"));
  expect(sizes.filter((s) => s.kib > BUDGET_KIB).map((s) => `${s.route}: ${s.kib.toFixed(2)} KiB`)).toEqual([]);
});

test("no page a shopper opens, in any language, loads more than 120 KiB of gzipped JavaScript", async ({ browser, baseURL, request }) => {
  test.setTimeout(240_000);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const product = sitemap.match(/<loc>[^<]*?(\/shop\/\d+)<\/loc>/)?.[1];
  expect(product).toBeTruthy();

  // A signed-in shopper with two perfumes in the cart, for the cart, the checkout and the profile.
  const shop = await openShopDatabase();
  let token: string;
  try {
    const customer = await createCustomer(shop, `budget-${Date.now().toString(36)}@example.com`);
    token = customer.token;
    const cartId = await userCartId(shop.db, customer.userId);
    const products = await shop.db.selectFrom("products").select("id").where("stock", ">", 2).where("archived_at", "is", null).orderBy("id").limit(2).execute();
    for (const { id } of products) await addLine(shop.db, cartId, id);
  } finally {
    await shop.close();
  }

  const pages = [
    { path: "/", signedIn: false },
    { path: "/shop", signedIn: false },
    { path: product!, signedIn: false },
    { path: "/auth", signedIn: false },
    { path: "/cart", signedIn: true },
    { path: "/checkout", signedIn: true },
    { path: "/profile", signedIn: true },
    { path: "/privacy", signedIn: false },
    { path: "/profile/privacy", signedIn: true },
  ];
  const measured: { page: string; kib: number; scripts: number }[] = [];
  for (const locale of LOCALES)
    for (const { path: pagePath, signedIn } of pages) {
      const context = await browser.newContext();
      // The language a returning shopper chose, remembered in its cookie.
      await context.addCookies([{ name: LOCALE_COOKIE, value: locale, url: baseURL! }]);
      if (signedIn) await context.addCookies([{ name: "ub_session", value: token, url: baseURL! }]);
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on("response", (response) => {
        const url = new URL(response.url());
        if (response.request().resourceType() === "script" && url.origin === new URL(baseURL!).origin) scripts.add(url.pathname);
      });
      const response = await page.goto(pagePath);
      const label = `${pagePath} (${locale})`;
      expect(response?.status(), label).toBe(200);
      // The page is the language's, and so are the texts the browser loads (it reads the language from here).
      await expect(page.locator("html"), label).toHaveAttribute("lang", locale);
      // Hydrated: React has attached its handlers to the page's links.
      await page.waitForFunction(() => Object.keys(document.querySelector("a[href]") ?? {}).some((key) => key.startsWith("__reactProps")));
      await page.waitForLoadState("networkidle");
      const missing = [...scripts].filter((file) => !fs.existsSync(path.join(CLIENT_DIR, file)));
      expect(missing, `${label} loaded scripts the build does not hold`).toEqual([]);
      if (process.env.BUDGET_DETAIL) console.log(label + "\n" + [...scripts].map((f) => `   ${gzipKiB(f).toFixed(2).padStart(6)} ${f}`).join("\n"));
      measured.push({ page: label, kib: [...scripts].reduce((sum, file) => sum + gzipKiB(file), 0), scripts: scripts.size });
      await context.close();
    }
  console.log(measured.map((m) => `${m.kib.toFixed(2).padStart(6)} KiB  ${String(m.scripts).padStart(2)} scripts  ${m.page}`).join("\n"));
  for (const m of measured) expect(m.kib, `${m.page} loads too much JavaScript`).toBeGreaterThan(50);
  expect(measured.filter((m) => m.kib > BUDGET_KIB).map((m) => `${m.page}: ${m.kib.toFixed(2)} KiB`)).toEqual([]);
});
