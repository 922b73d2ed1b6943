import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { browserRequest, testContext } from "../../../tests/support/context";
import { countingStatements } from "../../../tests/support/statements";
import { createSession, destroySession, getSessionUser, moveSessionCookie, requireUser } from "~/http/session.server";
import { destroyAllSessions, SESSION_DAYS } from "./sessions.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { requirePermission } from "~/http/staff-guard.server";

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    return error as Response;
  }
  throw new Error("expected a thrown response");
}

describe.each(ENGINES)("sessions on %s", (engine) => {
  let t: TestDatabase;
  let context: ReturnType<typeof testContext>;
  let customerId: number;
  let adminId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    const at = new Date().toISOString();
    const users = await t.db
      .insertInto("users")
      .values([
        { email: "ada@example.com", password_hash: "x", first_name: "Ada", last_name: "Obi", role: "customer", created_at: at },
        { email: "boss@example.com", password_hash: "x", first_name: "Bo", last_name: "Ss", role: "owner", created_at: at },
      ])
      .returning("id")
      .execute();
    [customerId, adminId] = users.map((u) => u.id);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("under https names the cookie __Host-ub_session (Secure, Path=/, no Domain), and moves a signed-in shopper's old cookie to it", async () => {
    const https = testContext(t, { PUBLIC_URL: "https://shop.test" });
    const cookie = await createSession(https, customerId);
    expect(cookie).toMatch(/^__Host-ub_session=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Lax; Max-Age=2592000; HttpOnly; Secure$/);
    expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).toMatchObject({ id: customerId });

    // A shopper signed in before the shop moved to the prefix still sends the old name.
    const token = (await createSession(context, customerId)).split(";")[0].split("=")[1];
    const old = `ub_session=${token}`;
    expect(await getSessionUser(browserRequest("/", { cookies: [old, "lng=es"] }), t.db)).toMatchObject({ id: customerId });

    // The server moves it on the next answer: same token under the new name, the old name cleared.
    const server = createServer((req, res) => moveSessionCookie("https://shop.test")(req, res, () => res.end("ok")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const moved = (await fetch(`${base}/shop`, { headers: { Cookie: `lng=es; ${old}` } })).headers.getSetCookie();
      expect(moved).toEqual([
        `__Host-ub_session=${token}; Path=/; SameSite=Lax; Max-Age=2592000; HttpOnly; Secure`,
        "ub_session=; Path=/; SameSite=Lax; Max-Age=0; HttpOnly; Secure",
      ]);
      expect(await getSessionUser(browserRequest("/", { cookies: [moved[0]] }), t.db)).toMatchObject({ id: customerId });
      // Once moved, the new cookie wins and only the stray old one is cleared; nothing else is touched.
      expect((await fetch(`${base}/`, { headers: { Cookie: `${cookie.split(";")[0]}; ${old}` } })).headers.getSetCookie()).toEqual([
        "ub_session=; Path=/; SameSite=Lax; Max-Age=0; HttpOnly; Secure",
      ]);
      expect((await fetch(`${base}/`, { headers: { Cookie: cookie.split(";")[0] } })).headers.getSetCookie()).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // Over plain http (development) there is no prefix and nothing to move.
    const plain = createServer((req, res) => moveSessionCookie("http://shop.test")(req, res, () => res.end("ok")));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const port = (plain.address() as AddressInfo).port;
      expect((await fetch(`http://127.0.0.1:${port}/`, { headers: { Cookie: old } })).headers.getSetCookie()).toEqual([]);
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }

    const cleared = await destroySession(browserRequest("/", { cookies: [cookie] }), https);
    expect(cleared).toMatch(/^__Host-ub_session=; Path=\/; SameSite=Lax; Max-Age=0; HttpOnly; Secure$/);
    expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).toBeNull();
  });

  it("signs in with an HttpOnly, SameSite=Lax cookie whose token is stored only as a hash", async () => {
    const cookie = await createSession(context, customerId);
    expect(cookie).toMatch(/^ub_session=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Lax; Max-Age=2592000; HttpOnly$/);
    const token = cookie.split(";")[0].split("=")[1];
    const rows = await t.db.selectFrom("sessions").select("id").where("user_id", "=", customerId).execute();
    expect(rows.map((r) => r.id)).not.toContain(token);

    const user = await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db);
    expect(user).toMatchObject({ id: customerId, email: "ada@example.com", firstName: "Ada", role: "customer" });
  });

  it("is read once for all the loaders of a GET, though each is handed its own copy of the request", async () => {
    const cookie = await createSession(context, customerId);
    const counted = countingStatements(t.db);
    // What the framework gives a page's loaders: copies of one request, and one load context whose
    // readsOfRequest the server sets for a GET.
    const readsOfRequest = {};
    const copies = [browserRequest("/shop/1", { cookies: [cookie] }), browserRequest("/shop/1", { cookies: [cookie] })];
    const [root, page] = await Promise.all(copies.map((request) => getSessionUser(request, counted.db, readsOfRequest)));
    expect(root).toMatchObject({ id: customerId });
    expect(page).toBe(root);
    expect(counted.statements).toHaveLength(1);
    // Asked by the request alone (a helper given no context), the copy's own read is shared too.
    expect(await getSessionUser(copies[1], counted.db)).toBe(root);
    expect(counted.statements).toHaveLength(1);
    // Without it (a form's POST), each copy reads the session as it then is.
    const posted = [browserRequest("/cart", { cookies: [cookie], method: "POST" }), browserRequest("/cart", { cookies: [cookie] })];
    await getSessionUser(posted[0], counted.db);
    await destroySession(posted[0], context);
    expect(await getSessionUser(posted[1], counted.db)).toBeNull();
    expect(counted.statements.filter((kind) => kind === "SelectQueryNode")).toHaveLength(3);
  });

  it("gives every sign-in a new id, and sign-out ends only that session", async () => {
    const a = await createSession(context, customerId);
    const b = await createSession(context, customerId);
    expect(a).not.toBe(b);
    const clear = await destroySession(browserRequest("/", { cookies: [a] }), context);
    expect(clear).toMatch(/^ub_session=; .*Max-Age=0/);
    expect(await getSessionUser(browserRequest("/", { cookies: [a] }), t.db)).toBeNull();
    expect(await getSessionUser(browserRequest("/", { cookies: [b] }), t.db)).not.toBeNull();
  });

  it("marks the cookie Secure when the shop is served over https", async () => {
    const secure = { ...context, config: { ...context.config, publicUrl: "https://unboxed.ng" } };
    expect(await createSession(secure, customerId)).toMatch(/; Secure$/);
  });

  it("expires after 30 days, and renews a session in use", async () => {
    const cookie = await createSession(context, customerId);
    const request = () => browserRequest("/", { cookies: [cookie] });
    // This cookie's own row (the newest by created_at can tie with one made in the same millisecond).
    const token = cookie.split(";")[0].split("=")[1];
    const session = { id: createHash("sha256").update(token).digest("hex") };

    // Used 10 days after sign-in: renewed to a full 30 days from now.
    const tenDaysIn = new Date(Date.now() + (SESSION_DAYS - 10) * 86_400_000).toISOString();
    await t.db.updateTable("sessions").set({ expires_at: tenDaysIn }).where("id", "=", session.id).execute();
    expect(await getSessionUser(request(), t.db)).not.toBeNull();
    const renewed = await t.db.selectFrom("sessions").select("expires_at").where("id", "=", session.id).executeTakeFirstOrThrow();
    expect(Date.parse(renewed.expires_at)).toBeGreaterThan(Date.now() + (SESSION_DAYS - 1) * 86_400_000);

    await t.db.updateTable("sessions").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", session.id).execute();
    expect(await getSessionUser(request(), t.db)).toBeNull();
    expect(await t.db.selectFrom("sessions").select("id").where("id", "=", session.id).executeTakeFirst()).toBeUndefined();
  });

  it("treats forged, malformed and unknown tokens as signed out", async () => {
    for (const value of ["x", "A".repeat(43), "../../etc/passwd", "%E0%A4%A", "a".repeat(5000)]) {
      expect(await getSessionUser(browserRequest("/", { cookies: [`ub_session=${value}`] }), t.db)).toBeNull();
    }
  });

  it("ends every session of a user at once", async () => {
    const a = await createSession(context, customerId);
    await destroyAllSessions(t.db, customerId);
    expect(await getSessionUser(browserRequest("/", { cookies: [a] }), t.db)).toBeNull();
  });

  it("sends signed-out visitors to sign in and back, and refuses customers the admin area", async () => {
    const anonymous = await thrown(requireUser(browserRequest("/profile?tab=orders"), context));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/auth?redirectTo=%2Fprofile%3Ftab%3Dorders");

    const customer = await createSession(context, customerId);
    const forbidden = await thrown(requirePermission(browserRequest("/admin", { cookies: [customer] }), context, "dashboard"));
    expect((forbidden as unknown as { init: ResponseInit }).init?.status ?? forbidden.status).toBe(403);

    const admin = await createSession(context, adminId);
    expect((await requirePermission(browserRequest("/admin", { cookies: [admin] }), context, "dashboard")).id).toBe(adminId);
  });

  it("follows only same-site relative paths after sign-in", () => {
    expect(safeRedirectPath("/checkout?step=1")).toBe("/checkout?step=1");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null, "/ok\nSet-Cookie: x"]) {
      expect(safeRedirectPath(bad)).toBe("/");
    }
  });
});
