import { expect, type Page, test } from "@playwright/test";
import { generate } from "otplib";
import { readOutbox } from "~/platform/mail.server";
import type { DatabaseHandle } from "~/db/client.server";
import { createOrPromoteAdmin } from "~/domain/accounts/accounts.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createAdmin, createCustomer, openShopDatabase } from "../support/e2e-shop";
import { decodeQuotedPrintable } from "../support/mail";
import { insertOrder } from "../support/orders";
import { toast } from "./support";

// The staff (docs/decisions/218, 222): the owner invites a packer, who accepts, signs in, ships an
// order and prints its slip, and finds the money, the customers and the staff closed to them; a
// manager sets up a second factor and signs in with its code; a removed staff member is signed out.

let shop: DatabaseHandle;
let owner: { userId: number; token: string };
let orderNumber: string;
let productId: number;
const stamp = Date.now().toString(36);
const packerEmail = `packer-${stamp}@example.com`;
const packerPassword = "cardboard tape and twine 42";

test.beforeAll(async () => {
  shop = await openShopDatabase();
  owner = await createAdmin(shop, `staff-owner-${stamp}@unboxed.example`, "Bisi", "Owner");
  const customer = await createCustomer(shop, `parcel-${stamp}@example.com`, "Ngozi", "Adeyemi");
  const [product] = await shop.db.selectFrom("products").select("id").where("archived_at", "is", null).where("stock", ">", 5).orderBy("id").limit(1).execute();
  const order = await insertOrder(shop.db, { userId: customer.userId, items: [{ productId: product.id, quantity: 1 }], status: "confirmed", paidAt: new Date().toISOString(), phone: "+2348031234567" });
  orderNumber = order.number;
  productId = product.id;
});
test.afterAll(async () => {
  await shop?.close();
});

/** The invitation link in the newest e-mail to the address, once the outbox has sent it. */
async function invitationLinkFor(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const messages = await readOutbox(E2E_DATA_DIR, email);
        link = decodeQuotedPrintable(messages.at(-1)?.raw ?? "").match(/https?:\/\/[^\s"<>]+\/auth\/invitation\?token=[A-Za-z0-9_-]{43}/)?.[0];
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return link!;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth?redirectTo=%2Fadmin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("the owner invites a packer, who accepts, ships an order, prints its slip and is refused money, customers and staff; removing them signs them out", async ({ page, context, baseURL, browser }) => {
  test.setTimeout(120_000);
  await context.addCookies([{ name: "ub_session", value: owner.token, url: baseURL! }]);

  // The owner invites them with the fulfilment role.
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Staff" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
  const invite = page.locator("[data-invite-form]");
  await invite.getByLabel("Email").fill(packerEmail);
  await invite.getByLabel("Role").selectOption("fulfilment");
  await invite.getByRole("button", { name: "Send invitation" }).click();
  await expect(toast(page, `Invitation sent to ${packerEmail}.`)).toBeVisible();
  await expect(page.locator(`[data-invitation="${packerEmail}"]`)).toContainText("Fulfilment");

  // They open the link in their own browser and choose a password.
  const link = await invitationLinkFor(packerEmail);
  const theirs = await browser.newContext();
  const packer = await theirs.newPage();
  await packer.goto(link);
  await expect(packer.getByRole("heading", { name: "Join the Unboxed staff" })).toBeVisible();
  await expect(packer.getByText(`as Fulfilment, with the address ${packerEmail}`)).toBeVisible();
  await packer.getByLabel("First Name").fill("Emeka");
  await packer.getByLabel("Last Name").fill(`Packer${stamp}`);
  await packer.getByLabel("Password", { exact: true }).fill(packerPassword);
  await packer.getByLabel("Confirm Password").fill(packerPassword);
  await packer.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(toast(packer, "Your staff account is ready")).toBeVisible();
  // The link works once.
  const again = await theirs.newPage();
  expect((await again.goto(link))?.status()).toBe(410);
  await again.close();

  // They sign in, and see only what their role opens.
  await signIn(packer, packerEmail, packerPassword);
  await expect(packer).toHaveURL(/\/admin$/);
  const nav = packer.getByRole("navigation", { name: "Admin" });
  await expect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  for (const hidden of ["Customers", "Staff", "Audit log", "Delivery", "Categories", "Brands", "Promotions"]) await expect(nav.getByRole("link", { name: hidden })).toHaveCount(0);
  // No revenue on the dashboard.
  await expect(packer.locator("[data-figure$='-revenue']")).toHaveCount(0);

  // A packer need not use a second factor until the owner requires it of every role: then the admin
  // reminds them to set one up; the owner puts it back.
  await expect(packer.locator("[data-second-factor-reminder]")).toHaveCount(0);
  await page.goto("/admin/staff");
  await page.getByRole("button", { name: "Require it of every staff role" }).click();
  await expect(toast(page, "Every staff role must now use a second factor.")).toBeVisible();
  await packer.goto("/admin");
  await expect(packer.locator("[data-second-factor-reminder]")).toBeVisible();
  await page.getByRole("button", { name: "Require it of owners and managers only" }).click();
  await expect(toast(page, "Only owners and managers must now use a second factor.")).toBeVisible();
  await packer.goto("/admin");
  await expect(packer.locator("[data-second-factor-reminder]")).toHaveCount(0);

  // They ship the order and print its packing slip.
  await packer.goto(`/admin/orders/${orderNumber}`);
  await expect(packer.getByRole("button", { name: /refund/i })).toHaveCount(0);
  await expect(packer.getByRole("link", { name: "Print invoice" })).toHaveCount(0);
  await expect(packer.locator("main")).not.toContainText("803 123 4567");
  await packer.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(toast(packer, `Order ${orderNumber} is now`)).toBeVisible();
  await packer.getByRole("link", { name: "Packing slip" }).click();
  await expect(packer).toHaveURL(/\?doc=slip$/);
  const slip = packer.locator("[data-invoice=slip]");
  await expect(slip.getByRole("heading", { level: 1, name: "Packing slip" })).toBeVisible();
  await expect(slip.locator("[data-invoice-phone]")).toHaveCount(0);
  await expect(slip).not.toContainText(`parcel-${stamp}@example.com`);

  // The products list counts stock without a price or a way to the sizes' prices.
  await packer.goto("/admin/products");
  await expect(packer.locator("main table")).toBeVisible();
  await expect(packer.locator("main table")).not.toContainText("₦");
  await expect(packer.locator("[data-sizes-count]")).toHaveCount(0);
  await expect(packer.locator(`a[href="/admin/products/${productId}/sizes"]`)).toHaveCount(0);

  // Revenue (the dashboard's figures), prices (the invoice, the sizes), the customers' export, the
  // customers, promotions, the staff and their roles: 403.
  for (const path of [`/admin/orders/${orderNumber}/print`, `/admin/products/${productId}/sizes`, "/admin/products/export", "/admin/orders/export", "/admin/customers", "/admin/promotions", "/admin/staff", "/admin/audit"]) {
    expect((await packer.goto(path))?.status(), path).toBe(403);
  }
  await packer.goto("/admin/orders");
  await expect(packer.getByRole("button", { name: /export/i })).toHaveCount(0);
  await expect(packer.getByRole("link", { name: /export/i })).toHaveCount(0);
  // A refund sent by hand is refused too.
  const refund = await packer.request.post(`/admin/orders/${orderNumber}`, { form: { intent: "refund" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(refund.status()).toBe(403);
  const role = await packer.request.post("/admin/staff", { form: { intent: "role", userId: String(owner.userId), role: "fulfilment" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(role.status()).toBe(403);

  // The owner signed in more than 15 minutes ago: a change on the staff screen asks the password again
  // and comes back to it.
  await shop.db.updateTable("sessions").set({ authenticated_at: new Date(Date.now() - 20 * 60_000).toISOString() }).where("user_id", "=", owner.userId).execute();
  await page.goto("/admin/staff");
  await page.locator(`[data-staff-member="${packerEmail}"]`).getByRole("link", { name: "Remove" }).click();
  await page.getByRole("dialog", { name: `Remove Emeka Packer${stamp} from the staff?` }).getByRole("button", { name: "Remove" }).click();
  await expect(page).toHaveURL(/\/auth\/confirm-password\?redirectTo=%2Fadmin%2Fstaff/);
  await expect(page.getByRole("heading", { name: "Confirm your password" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("a long test passphrase");
  await page.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(toast(page, "Password confirmed. You can continue.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/staff$/);
  // Nothing was done on the way: the packer is still on the staff, still signed in.
  await expect(page.locator(`[data-staff-member="${packerEmail}"]`)).toHaveCount(1);

  // The owner sees when they last signed in, then removes them: their session ends at once.
  await page.goto("/admin/staff");
  const row = page.locator(`[data-staff-member="${packerEmail}"]`);
  await expect(row).toHaveAttribute("data-staff-role", "fulfilment");
  await expect(row.locator("[data-last-sign-in]")).not.toHaveText("Never");
  await row.getByRole("link", { name: "Remove" }).click();
  const dialog = page.getByRole("dialog", { name: `Remove Emeka Packer${stamp} from the staff?` });
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(toast(page, `${packerEmail} is no longer on the staff`)).toBeVisible();
  await expect(page.locator(`[data-staff-member="${packerEmail}"]`)).toHaveCount(0);

  await packer.goto("/admin/orders");
  await expect(packer).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Forders/);
  await theirs.close();

  // The audit log has the invitation, its acceptance and the removal.
  await page.goto(`/admin/audit`);
  await expect(page.locator("[data-audit-entry]").filter({ hasText: packerEmail })).toHaveCount(3);
  // Filtered by person: the packer's own doings only, their shipment among them.
  const packerName = `Emeka Packer${stamp}`;
  await page.getByLabel("Person").selectOption({ label: packerName });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]by=\d+/);
  const entries = page.locator("[data-audit-entry]");
  await expect(entries.filter({ hasText: orderNumber }).first()).toBeVisible();
  const who = await entries.locator("td:nth-child(2)").allTextContents();
  expect(who.length).toBeGreaterThan(0);
  expect(new Set(who)).toEqual(new Set([packerName]));
});

test("a manager sets up a second factor from their own page, then signs in with a code from the app and creates a promotion", async ({ browser }) => {
  test.setTimeout(90_000);
  const email = `manager-${stamp}@unboxed.example`;
  const password = "saffron and cedar notes 9";
  const { userId } = await createOrPromoteAdmin(shop.db, { email, password, firstName: "Tolu", lastName: "Manager" });
  await shop.db.updateTable("users").set({ role: "manager" }).where("id", "=", userId).execute();

  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/admin$/);
  // Within the grace the admin opens, with a reminder.
  await expect(page.locator("[data-second-factor-reminder]")).toBeVisible();
  await page.getByRole("link", { name: "Set it up now" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your sign-in" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.locator("[data-totp-secret]").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // A code from an hour ago is refused.
  await page.getByLabel("Code from the app").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 3600 }));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.locator("[data-account-problem]")).toContainText("That code does not match");
  await page.getByLabel("Code from the app").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.locator("[data-recovery-code]")).toHaveCount(10);
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page.locator("[data-second-factor-reminder]")).toHaveCount(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).not.toHaveURL(/\/admin/);

  // The password alone no longer signs in: the code is asked.
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/auth\/second-factor$/);
  // No session yet: the admin asks to sign in.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin/);
  await page.goto("/auth/second-factor");
  await page.getByLabel("Code", { exact: true }).fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 3600 }));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("That code is not right")).toBeVisible();
  // The code the app shows next (the one used to turn it on is not accepted twice).
  await page.getByLabel("Code", { exact: true }).fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  // A manager's change: a promotion, opened from the sidebar.
  const code = `STAFF${stamp.toUpperCase()}`.slice(0, 20);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Promotions" }).click();
  await expect(page).toHaveURL(/\/admin\/promotions$/);
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByRole("radio", { name: "Percentage off" }).check();
  await page.getByLabel("Amount").fill("10");
  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page).toHaveURL(/\/admin\/promotions\/\d+$/);
  await expect(page.getByRole("heading", { name: code })).toBeVisible();
  const created = await shop.db.selectFrom("promotions").select(["code"]).where("code", "=", code).executeTakeFirst();
  expect(created?.code).toBe(code);
  // Still not an owner's: the staff and the shop's settings stay closed.
  for (const path of ["/admin/staff", "/admin/delivery"]) expect((await page.goto(path))?.status(), path).toBe(403);
  await context.close();
});
