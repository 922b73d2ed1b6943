import { expect, test } from "@playwright/test";

test.describe("the shop's front door", () => {
  test("home lists the 5 newest demo perfumes from the database, with no console errors", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));

    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1, name: "Unboxed: authentic designer perfumes without the box" })).toBeVisible();

    const cards = page.getByRole("region", { name: "New Arrivals" }).locator("article");
    await expect(cards).toHaveCount(5);
    const first = cards.first();
    await expect(first.getByText(/^₦\d{1,3}(,\d{3})*\.\d{2}$/).first()).toBeVisible();
    const img = first.locator("img");
    await expect(img).toHaveAttribute("width", /\d+/);
    await expect(img).toHaveAttribute("height", /\d+/);
    await expect(img).toHaveAttribute("srcset", /-320\.webp 320w, .*-640\.webp 640w, .*-1024\.webp 1024w/);
    // The image really is there and decodes.
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
  });

  test("sends a strict Content-Security-Policy naming the page's own scripts, and caches fingerprinted assets for a year", async ({ page, request }) => {
    const response = await page.goto("/");
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]{44}')+;/);
    const html = await response!.text();

    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const assetResponse = await request.get(asset!);
    expect(assetResponse.status()).toBe(200);
    expect(assetResponse.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

    // The build's top-level files are served from a list made at start; other paths are pages.
    const favicon = await request.get("/favicon.svg");
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toContain("image/svg+xml");
    expect(favicon.headers()["cache-control"]).toBe("public, max-age=3600");
  });

  test("works with JavaScript disabled", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    const cards = page.getByRole("region", { name: "New Arrivals" }).locator("article");
    await expect(cards).toHaveCount(5);
    await expect(cards.first()).toContainText("₦");
    await context.close();
  });

  test("unknown routes show 'Page not found' with HTTP 404", async ({ page }) => {
    const response = await page.goto("/no-such-page/at-all");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("speaks Spanish with ?lng=es and remembers it", async ({ page }) => {
    await page.goto("/?lng=es");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1, name: "Unboxed: perfumes de diseñador auténticos sin caja" })).toBeVisible();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Unboxed: perfumes de diseñador auténticos sin caja" })).toBeVisible();
  });

  test("reports its health with the database checked", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "sqlite" });
  });
});

test("refuses requests that change something when they come from another site", async ({ request }) => {
  const crossSite = await request.post("/", { headers: { Origin: "https://evil.example" }, form: { x: "1" } });
  expect(crossSite.status()).toBe(403);
  const noOrigin = await request.post("/", { form: { x: "1" } });
  expect(noOrigin.status()).toBe(403);
});

test("refuses an oversized form body with 413 before reading it", async ({ request, baseURL }) => {
  const response = await request.post("/cart", {
    headers: { Origin: baseURL!, "Content-Type": "application/x-www-form-urlencoded" },
    data: `intent=add&productId=1&padding=${"x".repeat(300 * 1024)}`,
    maxRedirects: 0,
  });
  expect(response.status()).toBe(413);
});
