import { type BrowserContext, expect, type Page } from "@playwright/test";
import { readOutbox } from "../../app/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createCustomer, openShopDatabase } from "../support/e2e-shop";
import { confirmLinks } from "../support/mail";

/** Waits until React has hydrated the page, so clicks go to its handlers rather than plain forms. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const button = document.querySelector("main button, main form");
    return !!button && Object.keys(button).some((k) => k.startsWith("__reactProps"));
  });
}

/** The link in the newest registration e-mail to the address, once the shop's outbox has sent it. */
export async function confirmLinkFor(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const messages = await readOutbox(E2E_DATA_DIR, email);
        link = confirmLinks(messages.at(-1)?.raw ?? "")[0];
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return link!;
}

/** After 'Sign up': the shopper is asked to check their e-mail, opens the link and creates the account. */
export async function confirmFromEmail(page: Page, email: string) {
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await page.goto(await confirmLinkFor(email));
  await page.getByRole("button", { name: "Create my account" }).click();
}

/** The toast with this text (sonner's, shown with JavaScript). */
export const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/**
 * Adds the first product of the home page that can be bought. With JavaScript the badge moves at once
 * (optimistically), so this waits for the shop's answer too: a navigation right after could cut the
 * add short.
 */
export async function addFirstFromHome(page: Page, { javaScript = true } = {}) {
  await page.goto("/");
  if (javaScript) await hydrated(page);
  const card = page.locator("main article").filter({ has: page.getByRole("button", { name: "Add to Cart" }) }).first();
  const before = Number(await page.getByTestId("cart-count").innerText());
  const answered = javaScript ? page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/cart")) : null;
  await card.getByRole("button", { name: "Add to Cart" }).click();
  await answered;
  await expect(page.getByTestId("cart-count")).toHaveText(String(before + 1));
}

/**
 * Signs the browser context in as a new customer made straight in the shop's database (no sign-up
 * pages, no password hashing): for journeys that start where sign-up ends. Sign-up itself has its own
 * journeys (accounts.spec.ts, and checkout.spec.ts's first one).
 */
export async function signedInAsNewCustomer(context: BrowserContext, baseURL: string, email: string, firstName?: string, lastName?: string) {
  const shop = await openShopDatabase();
  try {
    const customer = await createCustomer(shop, email, firstName, lastName);
    await context.addCookies([{ name: "ub_session", value: customer.token, url: baseURL }]);
    return customer;
  } finally {
    await shop.close();
  }
}

/** Naira as a shopper reads it, written by Intl here, independently of the shop's own formatNaira. */
export const naira = (kobo: number) => `₦${(kobo / 100).toLocaleString("en-NG", { minimumFractionDigits: 2 })}`;

/**
 * A perfume with stock for every journey that is not on sale (codes that do not combine with sale prices
 * skip it otherwise), under the free-delivery threshold and dearer than `above` kobo, with its price (kobo).
 */
export async function aProductNotOnSale(above = 0): Promise<{ id: number; price: number }> {
  const shop = await openShopDatabase();
  try {
    const row = await shop.db
      .selectFrom("products as p")
      .innerJoin("product_sizes as s", "s.product_id", "p.id")
      .select(["p.id", "s.price"])
      .where("p.archived_at", "is", null)
      .where("s.stock", ">", 20)
      .where("s.price", ">", above)
      .where("s.price", "<", 20_000_000)
      .where("s.position", "=", 0)
      .where((eb) => eb.or([eb("s.discount", "is", null), eb("s.discount", "=", 0)]))
      .orderBy("p.id")
      .executeTakeFirstOrThrow();
    return { id: row.id, price: Number(row.price) };
  } finally {
    await shop.close();
  }
}
