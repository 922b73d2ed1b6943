import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { resetLinks } from "../../../tests/support/mail";
import { translatorFor } from "~/platform/translations.server";
import { readOutbox } from "~/platform/mail.server";
import { refuseCrossSiteRequests } from "~/http/origin-check.server";
import { captureSecurityLog } from "~/platform/security-log.server";
import { authenticate, createOrPromoteAdmin, registerCustomer, requestPasswordReset, resetPassword } from "../accounts/accounts.server";
import { recordAudit } from "../backoffice/audit.server";
import { drainMailOutbox } from "./mail-outbox.server";
import { requirePermission } from "~/http/staff-guard.server";
import { createSession } from "~/http/session.server";

// Security events, as the running server writes them: one JSON line each, with an `event` field, and
// never a password, a token or a reset link.

let ipCounter = 0;
const freshIp = () => `203.0.113.${++ipCounter}`;

describe.each(ENGINES)("the security log on %s", (engine) => {
  let t: TestDatabase;
  let base: ReturnType<typeof testContext>;
  let log: ReturnType<typeof captureSecurityLog>;
  const ctx = (clientIp = freshIp()) => ({ ...base, clientIp });
  const events = (name: string) => log.lines.filter((line) => line.event === name);

  beforeAll(async () => {
    t = await freshDatabase(engine);
    base = testContext(t);
    await registerCustomer(ctx(), { firstName: "Ada", lastName: "Obi", email: "ada@example.com", password: "a secret passphrase" });
  });
  beforeEach(() => {
    log = captureSecurityLog();
  });
  afterEach(() => log.stop());
  afterAll(async () => {
    await t?.drop();
  });

  it("logs failed sign-ins with the address and IP, never the password; a good sign-in logs nothing", async () => {
    const ip = freshIp();
    await authenticate(ctx(ip), { email: "ada@example.com", password: "wrong guess 1" });
    await authenticate(ctx(ip), { email: "nobody@example.com", password: "wrong guess 2" });
    await authenticate(ctx(ip), { email: "ada@example.com", password: "a secret passphrase" });
    expect(events("sign_in_failed")).toEqual([
      expect.objectContaining({ event: "sign_in_failed", email: "ada@example.com", ip, level: 40 }),
      expect.objectContaining({ event: "sign_in_failed", email: "nobody@example.com", ip }),
    ]);
    expect(log.lines).toHaveLength(2);
    expect(log.text()).not.toMatch(/wrong guess|secret passphrase/);
  });

  it("logs throttling with the limit's name, and a paced account", async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++) await authenticate(ctx(ip), { email: "ada@example.com", password: `guess ${i}` }).catch(() => null);
    expect(events("throttled")).toEqual([expect.objectContaining({ limit: "signInAccountIp", ip, retryAfterSeconds: expect.any(Number) })]);
    // The account has had 5 attempts from anywhere by now: the next, from elsewhere, takes the account's
    // turn, and the one after that is refused unchecked.
    await authenticate(ctx(freshIp()), { email: "ada@example.com", password: "guess again" }).catch(() => null);
    const elsewhere = freshIp();
    await authenticate(ctx(elsewhere), { email: "ada@example.com", password: "guess again" }).catch(() => null);
    expect(events("sign_in_paced").at(-1)).toMatchObject({ email: "ada@example.com", ip: elsewhere, retryAfterSeconds: expect.any(Number) });
    expect(log.text()).not.toMatch(/guess/);
  }, 20_000);

  it("logs password resets without the token or the link", async () => {
    const ip = freshIp();
    await (await requestPasswordReset(ctx(ip), { email: "ada@example.com", t: translatorFor("en") })).written;
    await drainMailOutbox(t.db, base.config);
    await (await requestPasswordReset(ctx(ip), { email: "ghost@example.com", t: translatorFor("en") })).written;
    const link = resetLinks((await readOutbox(base.config.dataDir, "ada@example.com")).at(-1)!.raw)[0];
    const token = new URL(link).searchParams.get("token")!;
    expect(await resetPassword(ctx(ip), { token, password: "a newer passphrase" })).toEqual({ ok: true });
    expect(events("password_reset_requested")).toEqual([
      expect.objectContaining({ email: "ada@example.com", ip, sent: true }),
      expect.objectContaining({ email: "ghost@example.com", ip, sent: false }),
    ]);
    expect(events("password_reset_done")).toEqual([expect.objectContaining({ userId: expect.any(Number), ip })]);
    expect(log.text()).not.toContain(token);
    expect(log.text()).not.toContain("reset-password");
    expect(log.text()).not.toContain("a newer passphrase");
  });

  it("logs a customer refused on an admin page, and admin changes", async () => {
    const customer = await t.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    const cookie = await createSession(base, customer.id);
    const ip = freshIp();
    await expect(requirePermission(browserRequest("/admin/products?x=1", { cookies: [cookie] }), ctx(ip), "catalogue.view")).rejects.toMatchObject({ init: { status: 403 } });
    expect(events("admin_forbidden")).toEqual([expect.objectContaining({ userId: customer.id, role: "customer", permission: "catalogue.view", method: "GET", path: "/admin/products", ip })]);

    const { userId } = await createOrPromoteAdmin(t.db, { email: "boss@example.com", password: "the boss's passphrase" });
    await recordAudit(t.db, { actorId: userId, action: "update", entity: "product", entityId: 7, summary: "Oud Royale" });
    expect(events("admin_change")).toEqual([
      expect.objectContaining({ actorId: userId, action: "update", entity: "product", entityId: 7, summary: "Oud Royale" }),
    ]);
  });

  it("logs a cross-site request refused with 403, without the query of the page it came from", async () => {
    const app = express();
    app.use(refuseCrossSiteRequests("http://shop.test"));
    app.post("/auth", (_req, res) => res.send("ok"));
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const response = await fetch(`${origin}/auth?next=1`, { method: "POST", headers: { Referer: "https://evil.example/trap?token=abc123" } });
      expect(response.status).toBe(403);
      expect(events("cross_site_refused")).toEqual([
        expect.objectContaining({ method: "POST", path: "/auth", referer: "https://evil.example/trap", ip: expect.any(String) }),
      ]);
      expect(log.text()).not.toContain("abc123");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
