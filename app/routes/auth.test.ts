import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserRequest, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { confirmLinks, decodeQuotedPrintable, resetLinks } from "../../tests/support/mail";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { createSession, getSessionUser } from "~/http/session.server";
import { translatorFor } from "~/platform/translations.server";
import { readOutbox } from "~/platform/mail.server";
import { drainMailOutbox } from "~/domain/operations/mail-outbox.server";
import { refuseCrossSiteRequests } from "~/http/origin-check.server";
import * as forgot from "./auth.forgot-password";
import * as logout from "./auth.logout";
import * as register from "./auth.register";
import * as confirm from "./auth.register-confirm";
import * as reset from "./auth.reset-password";
import * as login from "./auth";

// The account routes' loaders and actions, called as the server calls them, over a real database.

interface Outcome {
  status: number;
  headers: Headers;
  data: { errors?: Record<string, string>; values?: Record<string, string>; retryAfterMinutes?: number; state?: string | null } | null;
}

type Handler = (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => unknown;

async function run(handler: unknown, request: Request, context: AppLoadContext): Promise<Outcome> {
  let result: unknown;
  try {
    result = await (handler as Handler)({ request, context, params: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: null };
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const { data, init } = result as { data: Outcome["data"]; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
  }
  return { status: 200, headers: new Headers(), data: result as Outcome["data"] };
}

const post = (url: string, fields: Record<string, string>, cookies: string[] = []) =>
  browserRequest(url, { method: "POST", body: new URLSearchParams(fields), cookies });

const sessionOf = (o: Outcome) => o.headers.getSetCookie().find((c) => c.startsWith("ub_session=")) ?? null;

let ipCounter = 0;

describe.each(ENGINES)("account pages on %s", (engine) => {
  let t: TestDatabase;
  let base: AppLoadContext;
  const ctx = () => ({ ...base, clientIp: `192.0.2.${++ipCounter}` });
  let n = 0;
  const newcomer = (fields: Record<string, string> = {}) => ({
    firstName: "Ada",
    lastName: "Obi",
    email: `page${++n}@example.com`,
    password: "a good password",
    ...fields,
  });

  beforeAll(async () => {
    t = await freshDatabase(engine);
    base = testContext(t);
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe("register", () => {
    /** The newest e-mail to the address as written (still quoted-printable), once the worker has run. */
    async function lastMail(address: string): Promise<string> {
      for (let tries = 0; ; tries++) {
        await drainMailOutbox(t.db, base.config);
        const raw = (await readOutbox(base.config.dataDir, address)).at(-1)?.raw;
        if (raw || tries >= 50) return raw ?? "";
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    it("creates a customer once the e-mailed link is confirmed, signed in and back where they were, even when the form carries a role", async () => {
      const fields = newcomer({ role: "owner", email: "Role@Example.com", redirectTo: "/checkout" });
      const out = await run(register.action, post("/auth/register", fields), ctx());
      expect(out.status).toBe(303);
      expect(out.headers.get("Location")).toBe("/auth/register?sent=1");
      expect(sessionOf(out)).toBeNull();
      expect(await t.db.selectFrom("users").select("id").where("email", "=", "role@example.com").executeTakeFirst()).toBeUndefined();
      expect(await run(register.loader, browserRequest("/auth/register?sent=1"), ctx())).toMatchObject({ data: { sent: true } });

      // confirmLinks decodes the message itself: decoding twice turned a token starting "=3F…" into a byte.
      const link = confirmLinks(await lastMail("role@example.com"))[0];
      expect(link).toMatch(/^http:\/\/shop\.test\/auth\/register\/confirm\?token=[\w-]{43}$/);
      const url = new URL(link);
      const token = url.searchParams.get("token")!;
      // Opening the link (as a mail scanner would) creates nothing; it shows a button.
      const page = await run(confirm.loader, browserRequest(url.pathname + url.search), ctx());
      expect(page).toMatchObject({ status: 200, data: { state: "valid", firstName: "Ada", token } });
      expect(confirm.headers()).toMatchObject({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });
      expect(await t.db.selectFrom("users").select("id").where("email", "=", "role@example.com").executeTakeFirst()).toBeUndefined();

      const done = await run(confirm.action, post(url.pathname + url.search, { token }), ctx());
      expect(done.status).toBe(303);
      expect(done.headers.get("Location")).toBe("/checkout");
      const cookie = sessionOf(done);
      const user = await getSessionUser(browserRequest("/", { cookies: [cookie!] }), t.db);
      expect(user).toMatchObject({ email: "role@example.com", role: "customer", firstName: "Ada" });

      // The link works once.
      const again = await run(confirm.action, post(url.pathname + url.search, { token }), ctx());
      expect(again).toMatchObject({ status: 400, data: { state: "invalid" } });
      expect(await run(confirm.loader, browserRequest(url.pathname + url.search), ctx())).toMatchObject({ status: 400, data: { state: "invalid", token: "" } });
      expect(await run(confirm.loader, browserRequest("/auth/register/confirm?token=made-up"), ctx())).toMatchObject({ status: 400 });
    });

    it("answers an address that has an account exactly like a new one, and e-mails its owner instead", async () => {
      await registerCustomer(base, { firstName: "Ngozi", lastName: "Eze", email: "taken@example.com", password: "ngozi's own passphrase" });
      const fresh = await run(register.action, post("/auth/register", newcomer({ email: "brand-new@example.com" })), ctx());
      const taken = await run(register.action, post("/auth/register", newcomer({ email: " TAKEN@example.com", password: "an attacker's guess" })), ctx());
      for (const out of [fresh, taken]) {
        expect(out.status).toBe(303);
        expect(out.headers.get("Location")).toBe("/auth/register?sent=1");
        expect(out.headers.getSetCookie()).toEqual([]);
        expect(out.data).toBeNull();
      }
      const mail = decodeQuotedPrintable(await lastMail("taken@example.com"));
      expect(mail).toContain("Subject: Someone tried to create an Unboxed account with your email");
      expect(mail).toContain("Hello Ngozi,");
      expect(mail).toContain("http://shop.test/auth/forgot-password");
      expect(confirmLinks(mail)).toEqual([]);
      // No second account, no pending one, and the owner's password is untouched.
      expect(await t.db.selectFrom("pending_registrations").select("email").where("email", "=", "taken@example.com").execute()).toEqual([]);
      const signIn = await run(login.action, post("/auth", { email: "taken@example.com", password: "ngozi's own passphrase" }), ctx());
      expect(signIn.status).toBe(303);
    });

    it("lets two confirmations of one address make one account; the later one is sent to sign in", async () => {
      for (const password of ["first passphrase here", "second passphrase here"]) {
        await run(register.action, post("/auth/register", newcomer({ email: "twice@example.com", password })), ctx());
      }
      await drainMailOutbox(t.db, base.config);
      const links = (await readOutbox(base.config.dataDir, "twice@example.com")).map((m) => confirmLinks(m.raw)[0]);
      expect(links).toHaveLength(2);
      const tokens = links.map((l) => new URL(l).searchParams.get("token")!);
      const outs = await Promise.all(tokens.map((token) => run(confirm.action, post("/auth/register/confirm", { token }), ctx())));
      expect(outs.filter((o) => o.status === 303 && sessionOf(o))).toHaveLength(1);
      const users = await t.db.selectFrom("users").select("id").where("email", "=", "twice@example.com").execute();
      expect(users).toHaveLength(1);
    });

    it("answers bad input with the spec's messages and HTTP 400, never an account", async () => {
      const before = await t.db.selectFrom("users").select("email").execute();
      const cases: [Record<string, string>, Record<string, string>][] = [
        [
          { firstName: "", lastName: " ", email: "", password: "" },
          {
            firstName: "auth.errors.firstNameRequired",
            lastName: "auth.errors.lastNameRequired",
            email: "auth.errors.emailRequired",
            password: "auth.errors.passwordRequired",
          },
        ],
        [newcomer({ firstName: "A".repeat(10_000) }), { firstName: "auth.errors.firstNameTooLong" }],
        [newcomer({ email: "ada obi@example.com" }), { email: "auth.errors.emailInvalid" }],
        [newcomer({ email: "ádá@exämple.com" }), { email: "auth.errors.emailInvalid" }],
        [newcomer({ email: `${"a".repeat(250)}@example.com` }), { email: "auth.errors.emailInvalid" }],
        [newcomer({ password: "short" }), { password: "auth.errors.passwordTooShort" }],
        [newcomer({ password: "p".repeat(1000) }), { password: "auth.errors.passwordTooLong" }],
        [newcomer({ password: "password" }), { password: "auth.errors.passwordCommon" }],
        [newcomer({ password: "12345678" }), { password: "auth.errors.passwordCommon" }],
        [newcomer({ password: "aaaaaaaaaaaa" }), { password: "auth.errors.passwordPattern" }],
        [newcomer({ firstName: "Chukwuemeka", lastName: "Okonkwo", password: "chukwuemeka" }), { password: "auth.errors.passwordPersonal" }],
      ];
      for (const [fields, errors] of cases) {
        const out = await run(register.action, post("/auth/register", fields), ctx());
        expect(out.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
        expect(out.data?.errors).toEqual(errors);
        expect(sessionOf(out)).toBeNull();
        expect(JSON.stringify(out.data?.values ?? {})).not.toContain("password");
      }
      // A body that is not a form at all.
      const junk = new Request("http://shop.test/auth/register", { method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=x" }, body: "--nope" });
      expect((await run(register.action, junk, ctx())).status).toBe(400);
      expect(await t.db.selectFrom("users").select("email").execute()).toEqual(before);
      expect(await t.db.selectFrom("pending_registrations").select("email").where("email", "like", "page%").execute()).toEqual([]);
    });

  });

  describe("sign in", () => {
    beforeAll(async () => {
      await registerCustomer(base, newcomer({ email: "member@example.com", password: "member password" }));
    });

    it("signs in and returns to the page the shopper came from; anything off-site goes home", async () => {
      const out = await run(login.action, post("/auth", { email: "member@example.com", password: "member password", redirectTo: "/?lng=es" }), ctx());
      expect(out.status).toBe(303);
      expect(out.headers.get("Location")).toBe("/?lng=es");
      expect(sessionOf(out)).toMatch(/HttpOnly/);
      for (const evil of ["https://evil.example", "//evil.example", "/\\evil.example"]) {
        const away = await run(login.action, post("/auth", { email: "member@example.com", password: "member password", redirectTo: evil }), ctx());
        expect(away.headers.get("Location")).toBe("/");
      }
    });

    it("keeps only same-site paths from ?redirectTo= for the form", async () => {
      expect((await run(login.loader, browserRequest("/auth?redirectTo=%2Fcheckout%3Fstep%3D2"), ctx())).data).toMatchObject({ redirectTo: "/checkout?step=2" });
      expect((await run(login.loader, browserRequest("/auth?redirectTo=https%3A%2F%2Fevil.example"), ctx())).data).toMatchObject({ redirectTo: "" });
      expect((await run(register.loader, browserRequest("/auth/register?redirectTo=%2F%2Fevil.example"), ctx())).data).toMatchObject({ redirectTo: "" });
    });

    it("shows one clear message for a wrong password and for an unknown address, with HTTP 401", async () => {
      const wrong = await run(login.action, post("/auth", { email: "member@example.com", password: "not it" }), ctx());
      const unknown = await run(login.action, post("/auth", { email: "stranger@example.com", password: "member password" }), ctx());
      for (const out of [wrong, unknown]) {
        expect(out.status).toBe(401);
        expect(out.data?.errors).toEqual({ form: "auth.errors.signInFailed" });
        expect(sessionOf(out)).toBeNull();
      }
    });

    it("validates the sign-in form with the spec's messages", async () => {
      const empty = await run(login.action, post("/auth", {}), ctx());
      expect(empty.status).toBe(400);
      expect(empty.data?.errors).toEqual({ email: "auth.errors.emailRequired", password: "auth.errors.passwordRequired" });
      const bad = await run(login.action, post("/auth", { email: "member@", password: "p".repeat(1000) }), ctx());
      expect(bad.data?.errors).toEqual({ email: "auth.errors.emailInvalid", password: "auth.errors.passwordTooLong" });
    });

    it("answers HTTP 429 with a Retry-After and the translated message after 5 failures from one address", async () => {
      await registerCustomer(base, newcomer({ email: "target@example.com", password: "target password" }));
      const from = ctx();
      for (let i = 0; i < 5; i++) {
        expect((await run(login.action, post("/auth", { email: "target@example.com", password: `guess ${i}` }), from)).status).toBe(401);
      }
      const out = await run(login.action, post("/auth", { email: "target@example.com", password: "target password" }), from);
      expect(out.status).toBe(429);
      expect(Number(out.headers.get("Retry-After"))).toBeGreaterThan(800);
      expect(out.data).toMatchObject({ errors: { form: "auth.errors.tooManyAttempts" }, retryAfterMinutes: 15 });
      expect(sessionOf(out)).toBeNull();
    });

    it("answers HTTP 429 at once, with a Retry-After of seconds and its own message, when the account is being tried from many addresses", async () => {
      await registerCustomer(base, newcomer({ email: "besieged@example.com", password: "besieged password" }));
      // Six addresses, one guess each: the 5 free checks and the account's first turn.
      for (let i = 0; i < 6; i++) {
        expect((await run(login.action, post("/auth", { email: "besieged@example.com", password: `guess ${i}` }), ctx())).status).toBe(401);
      }
      const out = await run(login.action, post("/auth", { email: "besieged@example.com", password: "besieged password" }), ctx());
      expect(out.status).toBe(429);
      expect(Number(out.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect(Number(out.headers.get("Retry-After"))).toBeLessThanOrEqual(5);
      expect(out.data).toMatchObject({ errors: { form: "auth.errors.signInPaced" }, values: { email: "besieged@example.com" } });
      expect(sessionOf(out)).toBeNull();
      // In the shopper's language, pointing at the reset link.
      expect(translatorFor("en")("auth.errors.signInPaced")).toMatch(/Forgot Your Password\?/);
      expect(translatorFor("es")("auth.errors.signInPaced")).toMatch(/¿Olvidaste tu contraseña\?/);
    });

    it("sends signed-in shoppers from the sign-in and register pages to the home page", async () => {
      const user = await t.db.selectFrom("users").select("id").where("email", "=", "member@example.com").executeTakeFirstOrThrow();
      const cookie = await createSession(base, user.id);
      for (const [loader, url] of [
        [login.loader, "/auth?redirectTo=%2Fcheckout"],
        [register.loader, "/auth/register"],
      ] as const) {
        const out = await run(loader, browserRequest(url, { cookies: [cookie] }), ctx());
        expect(out.status).toBe(302);
        expect(out.headers.get("Location")).toBe("/");
      }
    });
  });

  describe("sign out", () => {
    it("ends the session and goes home with a toast; a GET signs nobody out", async () => {
      const user = await t.db.selectFrom("users").select("id").where("email", "=", "member@example.com").executeTakeFirstOrThrow();
      const cookie = await createSession(base, user.id);
      const visit = await run(logout.loader, browserRequest("/auth/logout", { cookies: [cookie] }), ctx());
      expect(visit.headers.get("Location")).toBe("/");
      expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).not.toBeNull();

      const out = await run(logout.action, post("/auth/logout", {}, [cookie]), ctx());
      expect(out.status).toBe(303);
      expect(out.headers.get("Location")).toBe("/");
      expect(sessionOf(out)).toMatch(/^ub_session=; .*Max-Age=0/);
      expect(out.headers.getSetCookie().some((c) => c.startsWith("ub_toast="))).toBe(true);
      expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).toBeNull();
    });
  });

  describe("password reset", () => {
    it("answers the same for addresses with and without an account", async () => {
      const known = await run(forgot.action, post("/auth/forgot-password", { email: "member@example.com" }), ctx());
      const unknown = await run(forgot.action, post("/auth/forgot-password", { email: "nobody-here@example.com" }), ctx());
      for (const out of [known, unknown]) {
        expect(out.status).toBe(303);
        expect(out.headers.get("Location")).toBe("/auth/forgot-password?sent=1");
        expect(out.headers.getSetCookie()).toEqual([]);
      }
      const invalid = await run(forgot.action, post("/auth/forgot-password", { email: "not an address" }), ctx());
      expect(invalid.status).toBe(400);
      expect(invalid.data?.errors).toEqual({ email: "auth.errors.emailInvalid" });
    });

    it("resets with the e-mailed link, signs every device out and says so; the link then shows a clear message", async () => {
      await registerCustomer(base, newcomer({ email: "resetter@example.com", password: "my old passphrase" }));
      const user = await t.db.selectFrom("users").select("id").where("email", "=", "resetter@example.com").executeTakeFirstOrThrow();
      const here = await createSession(base, user.id);
      const elsewhere = await createSession(base, user.id);
      await run(forgot.action, post("/auth/forgot-password", { email: "resetter@example.com" }), ctx());
      // The page does not wait for the link to be written: it is queued a moment later, and the outbox worker sends it.
      let link: string | undefined;
      for (let i = 0; i < 100 && !link; i++) {
        await drainMailOutbox(t.db, base.config);
        link = resetLinks((await readOutbox(base.config.dataDir, "resetter@example.com")).at(-1)?.raw ?? "")[0];
        if (!link) await new Promise((r) => setTimeout(r, 20));
      }
      expect(link).toBeTruthy();
      const url = new URL(link!);
      const token = url.searchParams.get("token")!;

      const page = await run(reset.loader, browserRequest(url.pathname + url.search), ctx());
      expect(page).toMatchObject({ status: 200, data: { state: "valid", token } });
      expect(reset.headers()).toMatchObject({ "Referrer-Policy": "no-referrer" });

      const mismatch = await run(reset.action, post(url.pathname + url.search, { token, password: "my new passphrase", confirmPassword: "my new passphrasE" }), ctx());
      expect(mismatch.status).toBe(400);
      expect(mismatch.data?.errors).toEqual({ confirmPassword: "auth.errors.passwordsDontMatch" });
      const short = await run(reset.action, post(url.pathname + url.search, { token, password: "short", confirmPassword: "short" }), ctx());
      expect(short.data?.errors).toEqual({ password: "auth.errors.passwordTooShort" });
      const common = await run(reset.action, post(url.pathname + url.search, { token, password: "password1", confirmPassword: "password1" }), ctx());
      expect(common.status).toBe(400);
      expect(common.data?.errors).toEqual({ password: "auth.errors.passwordCommon" });

      const done = await run(reset.action, post(url.pathname + url.search, { token, password: "my new passphrase", confirmPassword: "my new passphrase" }, [here]), ctx());
      expect(done.status).toBe(303);
      expect(done.headers.get("Location")).toBe("/auth");
      expect(sessionOf(done)).toMatch(/Max-Age=0/);
      expect(done.headers.getSetCookie().some((c) => c.startsWith("ub_toast="))).toBe(true);
      for (const cookie of [here, elsewhere]) expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).toBeNull();

      const again = await run(reset.action, post(url.pathname + url.search, { token, password: "an evil passphrase", confirmPassword: "an evil passphrase" }), ctx());
      expect(again.status).toBe(410);
      expect(again.data?.state).toBe("used");
      const usedPage = await run(reset.loader, browserRequest(url.pathname + url.search), ctx());
      expect(usedPage).toMatchObject({ status: 410, data: { state: "used", token: "" } });
      const madeUp = await run(reset.loader, browserRequest("/auth/reset-password?token=made-up"), ctx());
      expect(madeUp).toMatchObject({ status: 400, data: { state: "invalid" } });

      const signIn = await run(login.action, post("/auth", { email: "resetter@example.com", password: "my new passphrase" }), ctx());
      expect(signIn.status).toBe(303);
    });
  });

  describe("cross-site requests", () => {
    let server: Server;
    let origin: string;

    beforeAll(async () => {
      // The shop's Express middleware in front of the real sign-in action.
      const app = express();
      app.use(refuseCrossSiteRequests("http://shop.test"));
      app.use(express.text({ type: () => true }));
      app.post("/auth", async (req, res) => {
        const request = new Request(`http://shop.test${req.originalUrl}`, {
          method: "POST",
          headers: { "Content-Type": req.get("content-type") ?? "", Cookie: req.get("cookie") ?? "" },
          body: typeof req.body === "string" ? req.body : "",
        });
        const out = await run(login.action, request, ctx());
        res.status(out.status);
        for (const cookie of out.headers.getSetCookie()) res.append("Set-Cookie", cookie);
        res.send(out.headers.get("Location") ?? "");
      });
      await new Promise<void>((resolve) => {
        server = app.listen(0, "127.0.0.1", () => resolve());
      });
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    const signInFrom = (headers: Record<string, string>) =>
      fetch(`${origin}/auth`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ email: "member@example.com", password: "member password" }),
      });

    it("refuses a POST from another site with 403 before it reaches the action: no session", async () => {
      const before = await t.db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const attempts: Record<string, string>[] = [{ Origin: "https://evil.example" }, { Referer: "https://evil.example/page" }, {}, { Origin: "null" }];
      for (const headers of attempts) {
        const response = await signInFrom(headers);
        expect(response.status).toBe(403);
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      const after = await t.db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it("accepts the same POST from our own pages", async () => {
      const ours = await signInFrom({ Origin: origin });
      expect(ours.status).toBe(303);
      expect(ours.headers.getSetCookie().some((c) => c.startsWith("ub_session="))).toBe(true);
      const byReferer = await signInFrom({ Referer: "http://shop.test/auth" });
      expect(byReferer.status).toBe(303);
    });
  });
});
