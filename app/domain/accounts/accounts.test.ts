import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { makeProducts, firstSizeOf } from "../../../tests/support/catalogue";
import { decodeQuotedPrintable, resetLinks } from "../../../tests/support/mail";
import { translatorFor } from "~/platform/translations.server";
import { readOutbox } from "~/platform/mail.server";
import { verifyPassword } from "~/platform/password.server";
import { authenticate, createOrPromoteAdmin, registerCustomer, requestPasswordReset, resetPassword, resetTokenState, startRegistration } from "./accounts.server";
import { signIn } from "~/http/sign-in.server";
import { drainMailOutbox } from "../operations/mail-outbox.server";
import { LIMITS, SIGN_IN_FREE_ATTEMPTS, TooManyAttempts } from "../operations/rate-limits.server";
import { createSession, getSessionUser } from "~/http/session.server";

const en = translatorFor("en");
const MINUTE = 60_000;
let ipCounter = 0;
/** Each test signs in from its own address, so per-IP counts do not leak between tests. */
const freshIp = () => `198.51.100.${++ipCounter}`;

async function refusal(promise: Promise<unknown>): Promise<TooManyAttempts> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TooManyAttempts) return error;
    throw error;
  }
  throw new Error("expected TooManyAttempts");
}

function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("ub_session="));
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

/** Moves the clock forward (Date only: timers and the database connections keep real time). */
function travel(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + ms);
}

describe.each(ENGINES)("customer accounts on %s", (engine) => {
  let t: TestDatabase;
  let base: ReturnType<typeof testContext>;
  const ctx = (clientIp = freshIp()) => ({ ...base, clientIp });
  const drain = () => drainMailOutbox(t.db, base.config);
  let n = 0;
  const register = (overrides: Partial<{ email: string; password: string; firstName: string }> = {}, context = ctx()) =>
    registerCustomer(context, {
      firstName: overrides.firstName ?? "Ada",
      lastName: "Obi",
      email: overrides.email ?? `shopper${++n}@example.com`,
      password: overrides.password ?? "correct horse battery",
    });

  beforeAll(async () => {
    t = await freshDatabase(engine);
    base = testContext(t);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe("registration", () => {
    it("creates a customer with an argon2id hash, the address trimmed and lower-cased", async () => {
      const result = await register({ email: "  Ada.Obi@Example.COM " });
      expect(result).toMatchObject({ ok: true, firstName: "Ada" });
      const user = await t.db.selectFrom("users").selectAll().where("email", "=", "ada.obi@example.com").executeTakeFirstOrThrow();
      expect(user.role).toBe("customer");
      expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(user.password_hash).not.toContain("correct horse battery");
      expect(await verifyPassword(user.password_hash, "correct horse battery")).toBe(true);
      expect(await verifyPassword(user.password_hash, "correct horse batterY")).toBe(false);
    });

    it("refuses a second account for the same address, whatever its case and spaces", async () => {
      await register({ email: "twice@example.com" });
      expect(await register({ email: " TWICE@example.com" })).toEqual({ ok: false, reason: "emailTaken" });
      const count = await t.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where("email", "=", "twice@example.com").executeTakeFirstOrThrow();
      expect(count.n).toBe(1);
    });

    it("only admin:create makes admins: it promotes an existing customer and ends that account's sessions", async () => {
      const made = await register({ email: "future-admin@example.com" });
      if (!made.ok) throw new Error("not registered");
      const cookie = await createSession(base, made.userId);
      const promoted = await createOrPromoteAdmin(t.db, { email: " Future-Admin@example.com", password: "a new long passphrase" });
      expect(promoted).toEqual({ created: false, userId: made.userId });
      const user = await t.db.selectFrom("users").select(["role", "password_hash"]).where("id", "=", made.userId).executeTakeFirstOrThrow();
      expect(user.role).toBe("owner");
      expect(await verifyPassword(user.password_hash, "a new long passphrase")).toBe(true);
      expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).toBeNull();

      const created = await createOrPromoteAdmin(t.db, { email: "owner@example.com", password: "another passphrase", firstName: "Ngozi" });
      expect(created.created).toBe(true);
      const owner = await t.db.selectFrom("users").select(["role", "first_name", "last_name"]).where("id", "=", created.userId).executeTakeFirstOrThrow();
      expect(owner).toEqual({ role: "owner", first_name: "Ngozi", last_name: "Admin" });
    });
  });

  describe("sign-in", () => {
    it("accepts the right password only, and answers unknown addresses exactly like wrong passwords", async () => {
      const made = await register({ email: "signin@example.com", password: "right password" });
      expect(await authenticate(ctx(), { email: " SignIn@Example.com ", password: "right password" })).toEqual({
        ok: true,
        userId: made.ok ? made.userId : -1,
        firstName: "Ada",
        secondFactor: false,
      });
      expect(await authenticate(ctx(), { email: "signin@example.com", password: "wrong password" })).toEqual({ ok: false });
      expect(await authenticate(ctx(), { email: "nobody@example.com", password: "right password" })).toEqual({ ok: false });
    });

    it("gives the browser a new session at sign-in and ends the one it had", async () => {
      const made = await register({ email: "rotate@example.com" });
      if (!made.ok) throw new Error("not registered");
      const toast = { type: "success" as const, key: "auth.toast.signedIn" };
      const first = sessionCookie(await signIn(browserRequest("/auth", { method: "POST" }), base, made.userId, "/", toast));
      const second = sessionCookie(await signIn(browserRequest("/auth", { method: "POST", cookies: [first] }), base, made.userId, "/", toast));
      expect(second).not.toBe(first);
      expect(second).toMatch(/^ub_session=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Lax; Max-Age=2592000; HttpOnly$/);
      expect(await getSessionUser(browserRequest("/", { cookies: [first] }), t.db)).toBeNull();
      expect((await getSessionUser(browserRequest("/", { cookies: [second] }), t.db))?.id).toBe(made.userId);
      const rows = await t.db.selectFrom("sessions").select("id").where("user_id", "=", made.userId).execute();
      expect(rows).toHaveLength(1);
      // Only the hash of the cookie's token is stored.
      const token = second.split(";")[0].split("=")[1];
      expect(rows[0].id).toBe(createHash("sha256").update(token).digest("hex"));
    });

    it("sends the shopper back to a same-site path only, with the welcome toast", async () => {
      const made = await register({ email: "redirect@example.com" });
      if (!made.ok) throw new Error("not registered");
      const toast = { type: "success" as const, key: "auth.toast.signedIn", values: { name: "Ada" } };
      const go = async (target: string | null) =>
        (await signIn(browserRequest("/auth", { method: "POST" }), base, made.userId, target, toast)).headers.get("Location");
      expect(await go("/profile?tab=orders")).toBe("/profile?tab=orders");
      for (const evil of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", null]) {
        expect(await go(evil)).toBe("/");
      }
      const response = await signIn(browserRequest("/auth", { method: "POST" }), base, made.userId, "/", toast);
      expect(response.status).toBe(303);
      expect(response.headers.getSetCookie().some((c) => c.startsWith("ub_toast="))).toBe(true);
    });
  });

  it("brings the shopper's guest cart into the account at sign-in and clears the guest cookie", async () => {
    const made = await register({ email: "cart-merge@example.com" });
    if (!made.ok) throw new Error("not registered");
    const [product] = await makeProducts(t.db, [{ name: "Guest Oud", price: 1_000_000, stock: 5 }]);
    const guestCart = "g".repeat(32);
    const stamp = new Date().toISOString();
    await t.db.insertInto("carts").values({ id: guestCart, user_id: null, created_at: stamp, updated_at: stamp }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: guestCart, product_id: product, size_id: firstSizeOf(product), quantity: 2, created_at: stamp }).execute();

    const toast = { type: "success" as const, key: "auth.toast.signedIn" };
    const response = await signIn(browserRequest("/auth", { method: "POST", cookies: [`ub_cart=${guestCart}`] }), base, made.userId, "/", toast);
    expect(response.headers.getSetCookie().some((c) => /^ub_cart=; .*Max-Age=0/.test(c))).toBe(true);
    const lines = await t.db
      .selectFrom("cart_lines as l")
      .innerJoin("carts as c", "c.id", "l.cart_id")
      .select(["l.product_id", "l.quantity"])
      .where("c.user_id", "=", made.userId)
      .execute();
    expect(lines).toEqual([{ product_id: product, quantity: 2 }]);
  });

  describe("abuse limits", () => {
    it("allows 5 sign-in attempts per account from one IP address in 15 minutes, then refuses that address until the window ends", async () => {
      expect(LIMITS.signInAccountIp).toEqual({ points: 5, duration: 900 });
      await register({ email: "locked@example.com", password: "the right one" });
      const ip = freshIp();
      for (let i = 0; i < 5; i++) {
        expect(await authenticate(ctx(ip), { email: "locked@example.com", password: `guess ${i}` })).toEqual({ ok: false });
      }
      const refused = await refusal(authenticate(ctx(ip), { email: "LOCKED@example.com", password: "the right one" }));
      expect(refused.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);

      // Never for good: once the window has passed, the owner signs in from that address too.
      travel(15 * MINUTE + 1000);
      expect(await authenticate(ctx(ip), { email: "locked@example.com", password: "the right one" })).toMatchObject({ ok: true });
    });

    it("paces an account guessed at from many addresses in parallel; its owner signs in at the next turn", async () => {
      await register({ email: "targeted@example.com", password: "the owner's own" });
      const ownerIp = freshIp();
      // 12 attackers, 6 guesses each, in parallel: each address is refused its sixth, and of the other 60
      // only the 5 free ones and the account's first turn are checked (docs/decisions/214).
      const attackers = Array.from({ length: 12 }, () => freshIp());
      const outcomes = await Promise.allSettled(
        attackers.flatMap((ip) => Array.from({ length: 6 }, (_, i) => authenticate(ctx(ip), { email: "targeted@example.com", password: `guess ${i}` }))),
      );
      const answered = outcomes.filter((o) => o.status === "fulfilled");
      for (const o of answered) expect(o.status === "fulfilled" && o.value).toEqual({ ok: false });
      expect(answered.length).toBeGreaterThanOrEqual(SIGN_IN_FREE_ATTEMPTS + 1);
      expect(answered.length).toBeLessThan(12);
      expect(outcomes.filter((o) => o.status === "rejected" && o.reason instanceof TooManyAttempts)).toHaveLength(72 - answered.length);

      // The owner is not locked out: at the account's next turn, their right password is checked.
      travel(LIMITS.signInAccountPace.duration * 1000);
      expect(await authenticate(ctx(ownerIp), { email: "targeted@example.com", password: "the owner's own" })).toMatchObject({ ok: true });
    }, 30_000);

    it("paces an account at one check every 5 seconds after 5 attempts in 15 minutes", () => {
      expect(SIGN_IN_FREE_ATTEMPTS).toBe(5);
      expect(LIMITS.signInAccount.duration).toBe(15 * 60);
      expect(LIMITS.signInAccountPace).toEqual({ points: 1, duration: 5 });
    });

    it("clears the account's count at that address when its owner signs in", async () => {
      await register({ email: "forgetful@example.com", password: "the right one" });
      const ip = freshIp();
      for (let i = 0; i < 4; i++) await authenticate(ctx(ip), { email: "forgetful@example.com", password: "nope" });
      expect(await authenticate(ctx(ip), { email: "forgetful@example.com", password: "the right one" })).toMatchObject({ ok: true });
      // Five more mistakes are allowed again before the sixth attempt is refused (typed a few seconds
      // apart, as the account is paced past its fifth attempt in the window).
      for (let i = 0; i < 5; i++) {
        travel(LIMITS.signInAccountPace.duration * 1000);
        expect(await authenticate(ctx(ip), { email: "forgetful@example.com", password: "nope" })).toEqual({ ok: false });
      }
      await refusal(authenticate(ctx(ip), { email: "forgetful@example.com", password: "the right one" }));
    }, 15_000);

    it("allows 20 failed sign-ins per IP address in 15 minutes, across accounts; other addresses are unaffected", async () => {
      const ip = freshIp();
      for (let i = 0; i < 20; i++) {
        expect(await authenticate(ctx(ip), { email: `spray${i}@example.com`, password: "123456" })).toEqual({ ok: false });
      }
      await register({ email: "neighbour@example.com", password: "the right one" });
      await refusal(authenticate(ctx(ip), { email: "neighbour@example.com", password: "the right one" }));
      expect(await authenticate(ctx(), { email: "neighbour@example.com", password: "the right one" })).toMatchObject({ ok: true });
    });

    it("limits reset requests to 10 per IP address in an hour; requests for one address from elsewhere never use up its owner's resets", async () => {
      const other = freshIp();
      for (let i = 0; i < 10; i++) await (await requestPasswordReset(ctx(other), { email: `someone${i}@example.com`, t: en })).written;
      const refused = await refusal(requestPasswordReset(ctx(other), { email: "someone-else@example.com", t: en }));
      expect(refused.retryAfterSeconds).toBeGreaterThan(59 * 60);
      travel(60 * MINUTE + 1000);
      await (await requestPasswordReset(ctx(other), { email: "someone-else@example.com", t: en })).written;
      vi.useRealTimers();

      // Ten requests for the owner's address from ten places: none refused, at most 3 links in 15 minutes.
      await register({ email: "popular@example.com", password: "the right one" });
      for (let i = 0; i < 10; i++) await (await requestPasswordReset(ctx(), { email: "Popular@example.com", t: en })).written;
      // The owner's own request is answered as usual, and a link sent a moment ago works.
      await (await requestPasswordReset(ctx(), { email: "popular@example.com", t: en })).written;
      const links = await t.db
        .selectFrom("password_resets as r")
        .innerJoin("users as u", "u.id", "r.user_id")
        .select("r.token_hash")
        .where("u.email", "=", "popular@example.com")
        .execute();
      expect(links).toHaveLength(LIMITS.resetAddress.points);
      // Later the address gets links again.
      travel(15 * MINUTE + 1000);
      await (await requestPasswordReset(ctx(), { email: "popular@example.com", t: en })).written;
      const after = await t.db
        .selectFrom("password_resets as r")
        .innerJoin("users as u", "u.id", "r.user_id")
        .select("r.token_hash")
        .where("u.email", "=", "popular@example.com")
        .execute();
      expect(after).toHaveLength(LIMITS.resetAddress.points + 1);
    });

    it("limits registrations to 20 per IP address in an hour", async () => {
      const ip = freshIp();
      const start = (context: ReturnType<typeof ctx>) =>
        startRegistration(context, { firstName: "Ada", lastName: "Obi", email: `starter${++n}@example.com`, password: "correct horse battery", t: en });
      for (let i = 0; i < 20; i++) await start(ctx(ip));
      await refusal(start(ctx(ip)));
      await start(ctx());
    }, 30_000);

    it("sends at most 3 registration e-mails to one address in 15 minutes, answering as usual", async () => {
      for (let i = 0; i < 5; i++) {
        await startRegistration(ctx(), { firstName: "Ada", lastName: "Obi", email: "flooded@example.com", password: "correct horse battery", t: en });
      }
      const queued = await t.db.selectFrom("mail_outbox").select("id").where("to_address", "=", "flooded@example.com").execute();
      expect(queued).toHaveLength(LIMITS.registerAddress.points);
    }, 30_000);

    it(`keeps the counters ${engine === "postgres" ? "in the database, shared by every app instance," : "in memory"} without e-mail or IP addresses`, async () => {
      const rows = await t.db.selectFrom("rate_limits").selectAll().execute();
      if (engine === "postgres") {
        expect(rows.length).toBeGreaterThan(10);
        for (const row of rows) expect(row.key).toMatch(/^\w+:[0-9a-f]{64}$/);
      } else {
        expect(rows).toEqual([]);
      }
    });
  });

  describe("password reset", () => {
    it("answers as fast for an address without an account as for one with an account", async () => {
      await register({ email: "timed@example.com" });
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 9; i++) {
        for (const [address, times] of [["timed@example.com", known], [`nobody-${i}@example.com`, unknown]] as const) {
          const started = performance.now();
          const { written } = await requestPasswordReset(ctx(), { email: address, t: en });
          times.push(performance.now() - started);
          await written;
        }
        // Past 3 e-mails in 15 minutes no new link is written: keep the known address writing one each time.
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(Date.now() + 16 * MINUTE);
      }
      vi.useRealTimers();
      // The link is written after the answer: what the shopper waits for is the same work either way.
      expect(Math.abs(median(known) - median(unknown))).toBeLessThan(40);
    }, 30_000);

    async function lastLink(address: string): Promise<string> {
      const messages = await readOutbox(base.config.dataDir, address);
      const links = resetLinks(messages.at(-1)?.raw ?? "");
      if (!links[0]) throw new Error(`no reset link for ${address}`);
      return links[0];
    }
    const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

    it("e-mails a link to PUBLIC_URL with a 32-byte token that is stored only as a hash, valid for one hour", async () => {
      const made = await register({ email: "reset@example.com", firstName: "Chidi" });
      const before = Date.now();
      await (await requestPasswordReset(ctx(), { email: " Reset@Example.com", t: en })).written;
      await drain();
      const link = await lastLink("reset@example.com");
      expect(link).toMatch(/^http:\/\/shop\.test\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      const token = tokenOf(link);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);

      const [row] = await t.db.selectFrom("password_resets").selectAll().where("user_id", "=", made.ok ? made.userId : -1).execute();
      expect(row.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
      expect(JSON.stringify(row)).not.toContain(token);
      const ttl = Date.parse(row.expires_at) - before;
      expect(ttl).toBeGreaterThanOrEqual(60 * MINUTE - 1000);
      expect(ttl).toBeLessThanOrEqual(60 * MINUTE + 1000);
      expect(await resetTokenState(t.db, token)).toBe("valid");

      const [message] = (await readOutbox(base.config.dataDir, "reset@example.com")).slice(-1);
      const text = decodeQuotedPrintable(message.raw);
      expect(text).toMatch(/^Subject: Reset your Unboxed password$/m);
      expect(text).toContain("Hello Chidi,");
      expect(text).toContain("Content-Type: text/plain");
      expect(text).toContain("Content-Type: text/html");
      expect(text).toContain("The link works for 1 hour, and only once.");
    });

    it("sends nothing to an address without an account, and answers the same", async () => {
      await (await requestPasswordReset(ctx(), { email: "no-account@example.com", t: en })).written;
      expect(await drain()).toEqual({ sent: 0, retrying: 0, failed: 0 });
      expect(await readOutbox(base.config.dataDir, "no-account@example.com")).toEqual([]);
    });

    it("writes the e-mail in the shopper's language", async () => {
      await register({ email: "ngozi@example.com", firstName: "Ngozi" });
      await (await requestPasswordReset(ctx(), { email: "ngozi@example.com", t: translatorFor("es") })).written;
      await drain();
      const [message] = await readOutbox(base.config.dataDir, "ngozi@example.com");
      const text = decodeQuotedPrintable(message.raw);
      expect(text).toContain("Hola, Ngozi:");
      expect(text).toContain("El enlace sirve durante 1 hora y una sola vez.");
      // The same link in the plain-text and the HTML part.
      const links = resetLinks(message.raw);
      expect(links.length).toBeGreaterThanOrEqual(2);
      expect(new Set(links).size).toBe(1);
    });

    it("sets the new password, ends every session and every other link, and works only once", async () => {
      const made = await register({ email: "once@example.com", password: "old password" });
      if (!made.ok) throw new Error("not registered");
      const phone = await createSession(base, made.userId);
      const laptop = await createSession(base, made.userId);
      await (await requestPasswordReset(ctx(), { email: "once@example.com", t: en })).written;
      await drain();
      const older = tokenOf(await lastLink("once@example.com"));
      await (await requestPasswordReset(ctx(), { email: "once@example.com", t: en })).written;
      await drain();
      const token = tokenOf(await lastLink("once@example.com"));
      expect(token).not.toBe(older);

      expect(await resetPassword(ctx(), { token, password: "brand new password" })).toEqual({ ok: true });
      for (const cookie of [phone, laptop]) expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).toBeNull();
      expect(await t.db.selectFrom("sessions").select("id").where("user_id", "=", made.userId).execute()).toEqual([]);
      expect(await authenticate(ctx(), { email: "once@example.com", password: "old password" })).toEqual({ ok: false });
      expect(await authenticate(ctx(), { email: "once@example.com", password: "brand new password" })).toMatchObject({ ok: true });

      expect(await resetPassword(ctx(), { token, password: "attacker's choice" })).toEqual({ ok: false, reason: "used" });
      expect(await resetPassword(ctx(), { token: older, password: "attacker's choice" })).toEqual({ ok: false, reason: "used" });
      expect(await authenticate(ctx(), { email: "once@example.com", password: "brand new password" })).toMatchObject({ ok: true });
    });

    it("lets only one of two simultaneous resets with the same link through", async () => {
      await register({ email: "race@example.com", password: "old password" });
      await (await requestPasswordReset(ctx(), { email: "race@example.com", t: en })).written;
      await drain();
      const token = tokenOf(await lastLink("race@example.com"));
      const results = await Promise.all([
        resetPassword(ctx(), { token, password: "first new password" }),
        resetPassword(ctx(), { token, password: "second new password" }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "used" }]);
    });

    it("refuses a link after an hour, and altered or made-up tokens", async () => {
      const made = await register({ email: "late@example.com", password: "old password" });
      await (await requestPasswordReset(ctx(), { email: "late@example.com", t: en })).written;
      await drain();
      const token = tokenOf(await lastLink("late@example.com"));
      const altered = (token[0] === "A" ? "B" : "A") + token.slice(1);
      expect(await resetPassword(ctx(), { token: altered, password: "new password!" })).toEqual({ ok: false, reason: "invalid" });
      for (const bad of ["", "x", "A".repeat(43), `${token}x`, "../../etc/passwd"]) {
        expect(await resetTokenState(t.db, bad)).toBe("invalid");
      }
      travel(60 * MINUTE + 1000);
      expect(await resetTokenState(t.db, token)).toBe("expired");
      expect(await resetPassword(ctx(), { token, password: "new password!" })).toEqual({ ok: false, reason: "expired" });
      const user = await t.db.selectFrom("users").select("password_hash").where("id", "=", made.ok ? made.userId : -1).executeTakeFirstOrThrow();
      expect(await verifyPassword(user.password_hash, "old password")).toBe(true);
    });

    it("lets a locked-out owner back in: a reset clears the account's sign-in count", async () => {
      await register({ email: "besieged@example.com", password: "old password" });
      const home = freshIp();
      for (let i = 0; i < 5; i++) await authenticate(ctx(home), { email: "besieged@example.com", password: `guess ${i}` });
      await refusal(authenticate(ctx(home), { email: "besieged@example.com", password: "old password" }));
      await (await requestPasswordReset(ctx(home), { email: "besieged@example.com", t: en })).written;
      await drain();
      const token = tokenOf(await lastLink("besieged@example.com"));
      expect(await resetPassword(ctx(home), { token, password: "fresh password" })).toEqual({ ok: true });
      expect(await authenticate(ctx(home), { email: "besieged@example.com", password: "fresh password" })).toMatchObject({ ok: true });
    });
  });
});
