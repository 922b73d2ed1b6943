import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserRequest, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { createOrPromoteAdmin, registerCustomer } from "~/domain/accounts/accounts.server";
import { createSession, getSessionUser } from "~/http/session.server";
import { verifyPassword } from "~/platform/password.server";
import * as adminHome from "./admin._index";
import * as change from "./auth.change-password";
import * as login from "./auth";

// The demo admin's password is printed on the console at the first start: its owner must choose their
// own at the first sign-in, before the admin area opens.

interface Outcome {
  status: number;
  headers: Headers;
  data: { errors?: Record<string, string>; redirectTo?: string } | null;
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

describe.each(ENGINES)("choosing a password at first sign-in on %s", (engine) => {
  let t: TestDatabase;
  let base: AppLoadContext;
  const ctx = () => ({ ...base, clientIp: `198.18.0.${++ipCounter}` });
  const PRINTED = "PrintedOnTheConsole1";

  beforeAll(async () => {
    t = await freshDatabase(engine);
    base = testContext(t);
    await createOrPromoteAdmin(t.db, { email: "admin@unboxed.example", password: PRINTED, firstName: "Demo", lastName: "Admin" });
    await t.db.updateTable("users").set({ must_change_password: 1 }).where("email", "=", "admin@unboxed.example").execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("sends the demo admin from sign-in to choose a password, and keeps the admin area closed until then", async () => {
    const signedIn = await run(login.action, post("/auth", { email: "admin@unboxed.example", password: PRINTED, redirectTo: "/admin" }), ctx());
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("Location")).toBe("/auth/change-password?redirectTo=%2Fadmin");
    const cookie = sessionOf(signedIn)!;

    for (const url of ["/admin", "/admin.data?_routes=routes%2Fadmin._index"]) {
      const refused = await run(adminHome.loader, browserRequest(url, { cookies: [cookie] }), ctx());
      expect(refused.status).toBe(302);
      expect(refused.headers.get("Location")).toBe("/auth/change-password?redirectTo=%2Fadmin");
    }
    const page = await run(change.loader, browserRequest("/auth/change-password?redirectTo=%2Fadmin", { cookies: [cookie] }), ctx());
    expect(page.data).toMatchObject({ redirectTo: "/admin" });

    // Weak, personal, unchanged and mismatched passwords are refused with their reasons.
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ password: "password", confirmPassword: "password" }, { password: "auth.errors.passwordCommon" }],
      [{ password: "12345678", confirmPassword: "12345678" }, { password: "auth.errors.passwordCommon" }],
      [{ password: PRINTED, confirmPassword: PRINTED }, { password: "auth.errors.passwordUnchanged" }],
      [{ password: "palm wine at sunset", confirmPassword: "palm wine at dawn" }, { confirmPassword: "auth.errors.passwordsDontMatch" }],
    ];
    for (const [fields, errors] of cases) {
      const out = await run(change.action, post("/auth/change-password", { ...fields, redirectTo: "/admin" }, [cookie]), ctx());
      expect(out.status, JSON.stringify(fields)).toBe(400);
      expect(out.data?.errors).toEqual(errors);
    }

    const done = await run(change.action, post("/auth/change-password", { password: "palm wine at sunset", confirmPassword: "palm wine at sunset", redirectTo: "/admin" }, [cookie]), ctx());
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe("/admin");
    const fresh = sessionOf(done)!;
    expect(fresh).not.toBe(cookie);
    // The old session has ended; the new one opens the admin area.
    expect(await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db)).toBeNull();
    const home = await run(adminHome.loader, browserRequest("/admin", { cookies: [fresh] }), ctx());
    expect(home.status).toBe(200);

    const user = await t.db.selectFrom("users").select(["password_hash", "must_change_password"]).where("email", "=", "admin@unboxed.example").executeTakeFirstOrThrow();
    expect(user.must_change_password).toBe(0);
    expect(await verifyPassword(user.password_hash, "palm wine at sunset")).toBe(true);

    // Next time, sign-in goes straight where it was going.
    const again = await run(login.action, post("/auth", { email: "admin@unboxed.example", password: "palm wine at sunset", redirectTo: "/admin" }), ctx());
    expect(again.headers.get("Location")).toBe("/admin");
  });

  it("has nothing to ask of an account that chose its own password", async () => {
    const made = await registerCustomer(ctx(), { firstName: "Ada", lastName: "Obi", email: "ada@example.com", password: "a good password" });
    const cookie = await createSession(base, made.ok ? made.userId : -1);
    const page = await run(change.loader, browserRequest("/auth/change-password?redirectTo=%2Fprofile", { cookies: [cookie] }), ctx());
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/profile");
    const post_ = await run(change.action, post("/auth/change-password", { password: "x new password x", confirmPassword: "x new password x" }, [cookie]), ctx());
    expect(post_.status).toBe(303);
    const user = await t.db.selectFrom("users").select("password_hash").where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash, "a good password")).toBe(true);
  });

  it("answers a signed-out visitor by sending them to sign in", async () => {
    const out = await run(change.loader, browserRequest("/auth/change-password"), ctx());
    expect(out.status).toBe(302);
    expect(out.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
  });
});
