import { expect, type Page, test } from "@playwright/test";
import type { DatabaseHandle } from "~/db/client.server";
import { readOutbox } from "~/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createAdmin, openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { toast } from "./support";

// A guest in the back office (docs/decisions/217): a Spanish guest buys without JavaScript; the order
// keeps the language; the owner finds the guest in the customers list, marked as a guest, opens the
// guest's page from the list and from the order, revokes the order's private link and sends a new one,
// which arrives in Spanish and opens the order while the old one opens nothing.

let shop: DatabaseHandle;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  shop = await openShopDatabase();
});
test.afterAll(async () => {
  await shop?.db.destroy();
});

async function buyAsSpanishGuest(page: Page, email: string): Promise<{ number: string; link: string }> {
  await page.goto("/?lng=es");
  const card = page.locator("main article").filter({ has: page.getByRole("button", { name: "Añadir al carrito" }) }).first();
  await card.getByRole("button", { name: "Añadir al carrito" }).click();
  await page.goto("/checkout");
  await page.getByLabel("Nombre completo", { exact: true }).fill("Lola Guest");
  await page.getByLabel("Correo electrónico", { exact: true }).fill(email);
  await page.getByLabel("Número de móvil", { exact: true }).fill("0803 777 4411");
  await page.getByLabel("Dirección", { exact: true }).fill("3 Awolowo Road");
  await page.getByLabel("Ciudad", { exact: true }).fill("Ikoyi");
  await page.getByLabel("Estado", { exact: true }).selectOption("Lagos");
  await page.getByRole("radio", { name: /Transferencia bancaria/ }).check();
  await page.getByRole("button", { name: "Procesar pedido" }).click();
  // Without a script the page asks to confirm the total first.
  await page.getByRole("button", { name: "Procesar pedido" }).click();
  await expect(page).toHaveURL(/\/track\/[A-Za-z0-9_-]{43}$/);
  const number = ((await page.getByRole("heading", { level: 1 }).innerText()).match(/UB-\d+/) ?? [""])[0];
  return { number, link: new URL(page.url()).pathname };
}

test("the owner finds a Spanish guest in the customers, reaches the guest's page from the order, and sends a new private link after revoking one", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const email = `guest-customer-${stamp}@example.com`;
  const guest = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.171" } });
  const guestPage = await guest.newPage();
  const placed = await buyAsSpanishGuest(guestPage, email);
  expect(await shop.db.selectFrom("orders").select(["user_id", "email", "locale"]).where("number", "=", placed.number).executeTakeFirstOrThrow()).toEqual({ user_id: null, email, locale: "es" });

  const admin = await createAdmin(shop, `guest-customers-owner-${stamp}@unboxed.example`);
  const owner = await browser.newContext();
  await owner.addCookies([{ name: "ub_session", value: admin.token, url: baseURL! }]);
  const page = await owner.newPage();

  // The customers list, guests only, searched by the guest's phone as typed elsewhere.
  await page.goto("/admin/customers?role=guest&q=8037774411");
  const row = page.locator(`tr[data-customer-row="${email}"]`);
  await expect(row).toBeVisible();
  await expect(row.locator('[data-role-badge="guest"]')).toHaveText("Guest (no account)");
  await row.getByRole("link", { name: "Lola Guest" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/customers/guest/${placed.number}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lola Guest");
  await expect(page.locator("[data-customer-email]")).toHaveText(email);
  await expect(page.locator("[data-customer-phone]")).toHaveText("+234 803 777 4411");
  await expect(page.locator("[data-customer-details]").getByText("Spanish", { exact: true })).toBeVisible();
  await page.locator(`[data-customer-order="${placed.number}"]`).getByRole("link", { name: placed.number }).click();

  // The order's page leads back to the guest's.
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${placed.number}$`));
  await page.locator("[data-guest-page]").click();
  await expect(page).toHaveURL(new RegExp(`/admin/customers/guest/${placed.number}$`));
  await page.goto(`/admin/orders/${placed.number}`);

  // Revoke, then send a new link.
  await page.getByRole("button", { name: "Revoke the private link" }).click();
  await expect(page.getByRole("button", { name: "Send the guest a new link" })).toBeVisible();
  await page.getByRole("button", { name: "Send the guest a new link" }).click();
  await expect(toast(page, `A new private link for order ${placed.number} was e-mailed to ${email}.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Revoke the private link" })).toBeVisible();
  await owner.close();

  let newLink = "";
  await expect
    .poll(
      async () => {
        const mails = (await readOutbox(E2E_DATA_DIR, email)).map((m) => decodeQuotedPrintable(m.raw)).filter((m) => m.includes(`Un enlace nuevo a tu pedido de Unboxed ${placed.number}`));
        newLink = mails[0]?.match(/\/track\/[A-Za-z0-9_-]{43}/)?.[0] ?? "";
        return newLink;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  expect(newLink).not.toBe(placed.link);
  expect((await guestPage.goto(placed.link))?.status()).toBe(404);
  await guestPage.goto(newLink);
  await expect(guestPage.getByRole("heading", { level: 1 })).toContainText(placed.number);
  await guest.close();
});
