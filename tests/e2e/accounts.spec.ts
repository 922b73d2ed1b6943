import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { readOutbox } from "../../app/platform/mail.server";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createAdmin, openShopDatabase } from "../support/e2e-shop";
import { resetLinks } from "../support/mail";
import { confirmFromEmail, confirmLinkFor } from "./support";

// Customer accounts in a real Chromium against the built server. The server's outbox is
// E2E_DATA_DIR/mail: the reset link is read from the e-mail the shop wrote there.

// These journeys register and sign in a good deal. They come from their own shopper address (the
// server trusts X-Forwarded-For from the local proxy, i.e. 127.0.0.1), so the per-IP limits of other
// journeys in the same run are not used up by them.
const OUR_ADDRESS = { "X-Forwarded-For": "203.0.113.10" };
test.use({ extraHTTPHeaders: OUR_ADDRESS });

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

async function resetLinkFor(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const messages = await readOutbox(E2E_DATA_DIR, email);
      link = resetLinks(messages.at(-1)?.raw ?? "")[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

async function registerAccount(request: APIRequestContext, baseURL: string, email: string, password: string) {
  const response = await request.post("/auth/register", {
    headers: { Origin: baseURL },
    form: { firstName: "Ada", lastName: "Obi", email, password },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  expect(response.headers()["location"]).toBe("/auth/register?sent=1");
  const token = new URL(await confirmLinkFor(email)).searchParams.get("token")!;
  const confirmed = await request.post("/auth/register/confirm", { headers: { Origin: baseURL }, form: { token }, maxRedirects: 0 });
  expect(confirmed.status()).toBe(303);
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("register, sign out, sign in, forget the password, reset it from the e-mail, sign in with the new one", async ({ page, baseURL }) => {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  const email = uniqueEmail("journey");

  await page.goto("/");
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole("link", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByLabel("First Name").fill("Ada");
  await page.getByLabel("Last Name").fill("Obi");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("first password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await confirmFromEmail(page, email);
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByText("Welcome to Unboxed, Ada! Your account is ready.")).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("You are signed out.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();

  // Sign in, with the spinner showing while the form is on its way.
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.route("**/auth.data*", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 600));
    await route.continue();
  });
  await page.getByLabel("Email").fill(email);
  const password = page.getByLabel("Password", { exact: true });
  await password.fill("first password");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide password" }).click();
  await expect(password).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("spinner")).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByText("Welcome back, Ada!")).toBeVisible();
  await page.unroute("**/auth.data*");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();

  // Forgot password.
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByRole("link", { name: "Forgot Your Password?" }).click();
  await expect(page.getByText("We will send you an email to reset your passwords.")).toBeVisible();
  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("If an account exists for this email, a reset link is on its way")).toBeVisible();

  const link = await resetLinkFor(email);
  expect(link.startsWith(`${baseURL}/auth/reset-password?token=`)).toBe(true);
  await page.goto(link);
  await expect(page.getByText("Kindly input your new password.")).toBeVisible();
  const fresh = page.getByLabel("Password", { exact: true });
  const confirm = page.getByLabel("Confirm Password");
  await fresh.fill("second password");
  await confirm.fill("second passwor");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  // One toggle shows and hides both fields.
  await page.getByRole("button", { name: "Show passwords" }).click();
  await expect(fresh).toHaveAttribute("type", "text");
  await expect(confirm).toHaveAttribute("type", "text");
  await confirm.fill("second password");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(`${baseURL}/auth`);
  await expect(page.getByText("Your password has been changed and you have been signed out on every device.", { exact: false })).toBeVisible();

  await signInThroughForm(page, email, "first password");
  await expect(page.getByRole("alert")).toHaveText("That email and password do not match an account. Please check them and try again.");
  await signInThroughForm(page, email, "second password");
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  // The link worked once.
  expect((await page.goto(link))?.status()).toBe(410);
  await expect(page.getByText("This reset link has already been used.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/auth/forgot-password");

  expect(problems).toEqual([]);
});

test("comes back to the page it was sent from after signing in or registering", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("roundtrip");
  await registerAccount(request, baseURL!, email, "round trip password");

  await page.goto(`/auth?redirectTo=${encodeURIComponent("/?lng=en")}`);
  await signInThroughForm(page, email, "round trip password");
  await expect(page).toHaveURL(`${baseURL}/?lng=en`);
  await expect(page.getByRole("heading", { level: 1, name: "Unboxed: authentic designer perfumes without the box" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  // A signed-in shopper opening the sign-in or register page goes home.
  await page.goto(`/auth?redirectTo=${encodeURIComponent("/?lng=en")}`);
  await expect(page).toHaveURL(`${baseURL}/`);
  await page.goto("/auth/register");
  await expect(page).toHaveURL(`${baseURL}/`);

  // Registering from a sign-in page that was given a destination keeps it.
  await page.context().clearCookies();
  await page.goto(`/auth?redirectTo=${encodeURIComponent("/?lng=en")}`);
  await page.getByRole("link", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth\/register\?redirectTo=%2F%3Flng%3Den$/);
  await page.getByLabel("First Name").fill("Bola");
  await page.getByLabel("Last Name").fill("Ade");
  const newcomer = uniqueEmail("roundtrip-new");
  await page.getByLabel("Email").fill(newcomer);
  await page.getByLabel("Password", { exact: true }).fill("another password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await confirmFromEmail(page, newcomer);
  await expect(page).toHaveURL(`${baseURL}/?lng=en`);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});

test("open-redirect attempts land on the home page", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("redirect");
  await registerAccount(request, baseURL!, email, "redirect password");
  for (const evil of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
    await page.context().clearCookies();
    await page.goto(`/auth?redirectTo=${encodeURIComponent(evil)}`);
    await signInThroughForm(page, email, "redirect password");
    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  }
  // A hand-made post with the destination changed goes home too.
  const forged = await request.post("/auth", {
    headers: { Origin: baseURL! },
    form: { email, password: "redirect password", redirectTo: "//evil.example/phish" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(303);
  expect(forged.headers()["location"]).toBe("/");
});

test("shows the spec's messages next to the fields, in English and Spanish, without JavaScript too", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: OUR_ADDRESS });
  const page = await context.newPage();
  await page.goto("/auth/register?lng=en");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByLabel("First Name")).toHaveAccessibleDescription("Please input your first name");
  await expect(page.getByLabel("Last Name")).toHaveAccessibleDescription("Please input your last name");
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("please input your email");
  await expect(page.getByLabel("Password")).toHaveAccessibleDescription("please add your password");

  await page.getByLabel("First Name").fill("A".repeat(10_000));
  await page.getByLabel("Last Name").fill("Obi");
  await page.getByLabel("Email").fill("ada obi@example.com");
  await page.getByLabel("Password").fill("short");
  const response = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Sign up" }).click();
  expect((await response).status()).toBe(400);
  await expect(page.getByLabel("First Name")).toHaveAccessibleDescription("First name can have at most 100 characters");
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("please enter a valid email address");
  await expect(page.getByLabel("Password")).toHaveAccessibleDescription("password must have at least 8 characters");

  await page.goto("/auth?lng=es");
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  await expect(page.getByLabel("Correo electrónico")).toHaveAccessibleDescription("introduce tu correo electrónico");
  await expect(page.getByLabel("Contraseña")).toHaveAccessibleDescription("introduce tu contraseña");

  // A common password is refused, and the form says why, in the shopper's language.
  for (const [lng, labels, submit, weak, reason] of [
    ["en", ["First Name", "Last Name", "Email", "Password"], "Sign up", "password", "This password is one of the most common ones. Please choose another."],
    ["es", ["Nombre", "Apellido", "Correo electrónico", "Contraseña"], "Registrarse", "12345678", "Esta contraseña es una de las más comunes. Elige otra, por favor."],
  ] as const) {
    await page.goto(`/auth/register?lng=${lng}`);
    await page.getByLabel(labels[0]).fill("Ada");
    await page.getByLabel(labels[1]).fill("Obi");
    await page.getByLabel(labels[2]).fill(uniqueEmail("weak"));
    await page.getByLabel(labels[3]).fill(weak);
    const refused = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: submit }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByLabel(labels[3])).toHaveAccessibleDescription(reason);
  }

  // Without JavaScript the whole registration still works.
  await page.goto("/auth/register?lng=en");
  await page.getByLabel("First Name").fill("Kemi");
  await page.getByLabel("Last Name").fill("Bello");
  const nojs = uniqueEmail("nojs");
  await page.getByLabel("Email").fill(nojs);
  await page.getByLabel("Password").fill("no script password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await confirmFromEmail(page, nojs);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expect(page.getByText("Welcome to Unboxed, Kemi! Your account is ready.")).toBeVisible();
  await context.close();
});

test("too many failed sign-ins get HTTP 429 with a clear message", async ({ browser, request, baseURL }) => {
  // Its own address (the server trusts the local proxy's X-Forwarded-For), so other tests keep theirs.
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.99" } });
  const page = await context.newPage();
  const email = uniqueEmail("limited");
  await registerAccount(request, baseURL!, email, "the real password");
  await page.goto("/auth");
  for (let i = 0; i < 5; i++) {
    const answered = page.waitForResponse((r) => r.request().method() === "POST");
    await signInThroughForm(page, email, `guess number ${i}`);
    expect((await answered).status()).toBe(401);
    await expect(page.getByRole("alert")).toContainText("do not match an account");
  }
  const refused = page.waitForResponse((r) => r.request().method() === "POST");
  await signInThroughForm(page, email, "the real password");
  const answer = await refused;
  expect(answer.status()).toBe(429);
  expect(Number(answer.headers()["retry-after"])).toBeGreaterThan(800);
  await expect(page.getByRole("alert")).toHaveText("Too many attempts. Please wait 15 minutes and try again.");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();

  // The same refusal without JavaScript carries its Retry-After too.
  const plain = await context.request.post("/auth", { headers: { Origin: baseURL! }, form: { email, password: "the real password" }, maxRedirects: 0 });
  expect(plain.status()).toBe(429);
  expect(Number(plain.headers()["retry-after"])).toBeGreaterThan(800);
  await context.close();

  // Guesses from that address do not lock the owner out: from their own address they sign in.
  const owner = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.98" } });
  const ownerPage = await owner.newPage();
  await ownerPage.goto("/auth");
  await signInThroughForm(ownerPage, email, "the real password");
  await expect(ownerPage.getByRole("button", { name: "Sign out" })).toBeVisible();
  await owner.close();
});

test("a form on another site cannot sign the shopper out (403)", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("csrf");
  await registerAccount(request, baseURL!, email, "csrf passphrase");
  await page.goto("/auth");
  await signInThroughForm(page, email, "csrf passphrase");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  await page.route("http://evil.test/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form method="post" action="${baseURL}/auth/logout"><button>Win a prize</button></form>`,
    }),
  );
  await page.goto("http://evil.test/prize");
  const refused = page.waitForResponse(`${baseURL}/auth/logout`);
  await page.getByRole("button", { name: "Win a prize" }).click();
  expect((await refused).status()).toBe(403);

  await page.goto("/");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});

test("an admin whose password was printed on the console chooses a new one at first sign-in", async ({ browser }) => {
  // As the demo admin is made at the first start: a password the owner did not choose, to be changed.
  const shop = await openShopDatabase();
  const email = uniqueEmail("first-admin");
  try {
    await createAdmin(shop, email, "Demo", "Admin");
    await shop.db.updateTable("users").set({ must_change_password: 1 }).where("email", "=", email).execute();
  } finally {
    await shop.close();
  }
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.97" } });
  const page = await context.newPage();
  await page.goto("/admin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a long test passphrase");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/auth\/change-password\?redirectTo=%2Fadmin$/);
  await expect(page.getByText("Please choose your own password before you continue.")).toBeVisible();
  // The admin area stays closed until then.
  await page.goto("/admin/products");
  await expect(page).toHaveURL(/\/auth\/change-password\?redirectTo=%2Fadmin%2Fproducts$/);

  await page.getByLabel("Password", { exact: true }).fill("12345678");
  await page.getByLabel("Confirm Password").fill("12345678");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription("This password is one of the most common ones. Please choose another.");
  await page.getByLabel("Password", { exact: true }).fill("ogogoro by the lagoon");
  await page.getByLabel("Confirm Password").fill("ogogoro by the lagoon");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByRole("heading", { level: 1, name: "Product List" })).toBeVisible();
  await expect(page.getByText("Your new password is saved.")).toBeVisible();
  await context.close();
});

test("registering with an address that has an account looks the same, and its owner is told by e-mail", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("owner");
  await registerAccount(request, baseURL!, email, "the owner's passphrase");
  await page.goto("/auth/register");
  await page.getByLabel("First Name").fill("Someone");
  await page.getByLabel("Last Name").fill("Else");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a different passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect
    .poll(async () => (await readOutbox(E2E_DATA_DIR, email)).some((m) => m.raw.includes("Someone tried to create an Unboxed account")), { timeout: 20_000 })
    .toBe(true);
  // The owner's password still works.
  await page.goto("/auth");
  await signInThroughForm(page, email, "the owner's passphrase");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});
