import { generate } from "otplib";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser } from "../../../tests/support/catalogue";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { requirePermission } from "~/http/staff-guard.server";
import { TooManyAttempts } from "../operations/rate-limits.server";
import { createSession } from "~/http/session.server";
import { checkSecondFactorPaced, checkTotp, confirmSecondFactor, disableSecondFactor, RECOVERY_CODE_COUNT, replaceRecoveryCodes, SECOND_FACTOR_GRACE_DAYS, secondFactorDue, secondFactorSetup, verifySecondFactor } from "./second-factor.server";
import { closeChallenge, openChallenge, startChallenge } from "~/http/second-factor.server";

// The staff's second factor (docs/decisions/222), on both engines: set up with a first code, checked
// within one step either side, each code and each recovery code once, and paced like passwords.

const DAY = 24 * 60 * 60 * 1000;
const codeAt = (secret: string, ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
}

describe("who must have a second factor, and when", () => {
  const now = new Date("2026-12-02T12:00:00.000Z");
  const since = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  it("asks it of owners and managers after the grace, of other staff only when the owner requires it of every role, and never of customers", () => {
    expect(secondFactorDue({ role: "owner", secondFactor: false, staffSince: since(1) }, null, now)).toEqual({ state: "grace", until: new Date(now.getTime() + (SECOND_FACTOR_GRACE_DAYS - 1) * DAY).toISOString() });
    expect(secondFactorDue({ role: "manager", secondFactor: false, staffSince: since(SECOND_FACTOR_GRACE_DAYS + 1) }, null, now)).toEqual({ state: "required" });
    expect(secondFactorDue({ role: "manager", secondFactor: true, staffSince: since(30) }, null, now)).toEqual({ state: "none" });
    expect(secondFactorDue({ role: "fulfilment", secondFactor: false, staffSince: since(30) }, null, now)).toEqual({ state: "none" });
    expect(secondFactorDue({ role: "customer", secondFactor: false, staffSince: since(30) }, since(30), now)).toEqual({ state: "none" });
    // Required of every role two days ago: the grace counts from then, not from when they joined.
    expect(secondFactorDue({ role: "support", secondFactor: false, staffSince: since(30) }, since(2), now)).toMatchObject({ state: "grace" });
    expect(secondFactorDue({ role: "support", secondFactor: false, staffSince: since(30) }, since(SECOND_FACTOR_GRACE_DAYS), now)).toEqual({ state: "required" });
  });
});

describe.each(ENGINES)("second factor on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** A manager with the second factor on; answers the secret and the recovery codes. */
  async function enrolled(role: "manager" | "support" = "manager") {
    const user = await addUser(t.db, role);
    const setup = await secondFactorSetup(t.db, user.id);
    const confirmed = await confirmSecondFactor(t.db, user.id, await codeAt(setup.secret!, Date.now() - 30_000), Date.now());
    if (!confirmed.ok) throw new Error("not confirmed");
    return { userId: user.id, secret: setup.secret!, codes: confirmed.recoveryCodes };
  }

  it("shows a secret as a QR code, keeps it until a first code confirms it, then gives ten recovery codes kept only as hashes", async () => {
    const user = await addUser(t.db, "owner");
    const setup = await secondFactorSetup(t.db, user.id);
    expect(setup).toMatchObject({ enabled: false });
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toContain(`secret=${setup.secret}`);
    expect(setup.qr?.d.length).toBeGreaterThan(100);
    // The same secret on the next visit, until confirmed.
    expect((await secondFactorSetup(t.db, user.id)).secret).toBe(setup.secret);

    expect(await confirmSecondFactor(t.db, user.id, "000000")).toEqual({ ok: false, reason: "wrongCode" });
    expect(await confirmSecondFactor(t.db, user.id, "not a code")).toEqual({ ok: false, reason: "wrongCode" });
    const confirmed = await confirmSecondFactor(t.db, user.id, await codeAt(setup.secret!, Date.now()));
    if (!confirmed.ok) throw new Error("expected the first code to confirm");
    expect(confirmed.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(confirmed.recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of confirmed.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.db.selectFrom("recovery_codes").select("code_hash").where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    const dump = JSON.stringify(stored);
    for (const code of confirmed.recoveryCodes) expect(dump).not.toContain(code.replace("-", ""));

    expect(await secondFactorSetup(t.db, user.id)).toMatchObject({ enabled: true, secret: null, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    expect(await confirmSecondFactor(t.db, user.id, await codeAt(setup.secret!, Date.now()))).toEqual({ ok: false, reason: "alreadyEnabled" });
    // An owner must keep it.
    expect(await disableSecondFactor(t.db, { id: user.id, role: "owner" })).toEqual({ ok: false, reason: "required" });
  });

  it("accepts a code of the step before or after now, not two steps away", async () => {
    const { secret } = await enrolled();
    const now = Date.parse("2026-12-02T12:00:15.000Z");
    for (const offset of [-30_000, 0, 30_000]) expect(await checkTotp(secret, await codeAt(secret, now + offset), { now }), `offset ${offset}`).not.toBeNull();
    for (const offset of [-90_000, 90_000]) expect(await checkTotp(secret, await codeAt(secret, now + offset), { now }), `offset ${offset}`).toBeNull();
    expect(await checkTotp(secret, ` ${(await codeAt(secret, now)).replace(/(\d{3})/, "$1 ")} `, { now })).not.toBeNull();
  });

  it("accepts a code once: the same code, or an earlier step's, is refused after it", async () => {
    const { userId, secret } = await enrolled();
    const code = await codeAt(secret, Date.now());
    expect(await verifySecondFactor(t.db, userId, code)).toEqual({ ok: true, method: "totp" });
    expect(await verifySecondFactor(t.db, userId, code)).toEqual({ ok: false });
    expect(await verifySecondFactor(t.db, userId, await codeAt(secret, Date.now() - 30_000))).toEqual({ ok: false });
  });

  it("accepts each recovery code once, typed in any case and with or without its dash, even twice at the same moment", async () => {
    const { userId, codes } = await enrolled();
    expect(await verifySecondFactor(t.db, userId, codes[0].toUpperCase().replace("-", " "))).toEqual({ ok: true, method: "recovery" });
    expect(await verifySecondFactor(t.db, userId, codes[0])).toEqual({ ok: false });
    const both = await Promise.all([verifySecondFactor(t.db, userId, codes[1]), verifySecondFactor(t.db, userId, codes[1])]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(await secondFactorSetup(t.db, userId)).toMatchObject({ recoveryCodesLeft: RECOVERY_CODE_COUNT - 2 });
    // New codes replace the old ones.
    const fresh = await replaceRecoveryCodes(t.db, userId);
    expect(await verifySecondFactor(t.db, userId, codes[2])).toEqual({ ok: false });
    expect(await verifySecondFactor(t.db, userId, fresh[0])).toEqual({ ok: true, method: "recovery" });
  });

  it("counts code guesses as password guesses: five from one address, then refused with a wait", async () => {
    const { userId, secret } = await enrolled();
    const here = { ...context, clientIp: "10.9.0.1" };
    for (let i = 0; i < 5; i++) expect(await checkSecondFactorPaced(here, userId, "000000")).toEqual({ ok: false });
    const refused = await thrown(checkSecondFactorPaced(here, userId, await codeAt(secret, Date.now())));
    expect(refused).toBeInstanceOf(TooManyAttempts);
    expect((refused as TooManyAttempts).retryAfterSeconds).toBeGreaterThan(60);
    // From elsewhere the account is paced: one guess per turn once past the free attempts.
    const elsewhere = { ...context, clientIp: "10.9.0.2" };
    expect(await checkSecondFactorPaced(elsewhere, userId, await codeAt(secret, Date.now()))).toEqual({ ok: true, method: "totp" });
  });

  it("holds a sign-in's challenge for one answer only", async () => {
    const { userId } = await enrolled();
    const cookie = await startChallenge(context, userId, "/admin/orders");
    const request = browserRequest("/auth/second-factor", { cookies: [cookie] });
    const challenge = await openChallenge(request, t.db);
    expect(challenge).toMatchObject({ userId, redirectTo: "/admin/orders" });
    expect((await closeChallenge(context, challenge!.tokenHash)).closed).toBe(true);
    expect((await closeChallenge(context, challenge!.tokenHash)).closed).toBe(false);
    expect(await openChallenge(request, t.db)).toBeNull();
    expect(await openChallenge(browserRequest("/auth/second-factor", { cookies: ["ub_second_factor=forged"] }), t.db)).toBeNull();
  });

  it("sends an owner past the grace without one to set it up before any admin page, but lets them reach that page", async () => {
    const user = await addUser(t.db, "owner");
    await t.db.updateTable("users").set({ staff_since: new Date(Date.now() - (SECOND_FACTOR_GRACE_DAYS + 1) * DAY).toISOString() }).where("id", "=", user.id).execute();
    const cookie = await createSession(context, user.id);
    const refused = await thrown(requirePermission(browserRequest("/admin/orders?status=pending", { cookies: [cookie] }), context, "orders.view"));
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).headers.get("Location")).toBe("/admin/account?redirectTo=%2Fadmin%2Forders%3Fstatus%3Dpending");
    await expect(requirePermission(browserRequest("/admin/account", { cookies: [cookie] }), context, "dashboard", { settingUpSecondFactor: true })).resolves.toMatchObject({ id: user.id });

    const setup = await secondFactorSetup(t.db, user.id);
    await confirmSecondFactor(t.db, user.id, await codeAt(setup.secret!, Date.now()));
    await expect(requirePermission(browserRequest("/admin/orders", { cookies: [cookie] }), context, "orders.view")).resolves.toMatchObject({ id: user.id, secondFactor: true });
  });
});
