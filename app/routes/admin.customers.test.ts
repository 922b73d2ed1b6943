import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser } from "../../tests/support/catalogue";
import { browserRequest, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { createSession } from "~/domain/sessions.server";
import * as customerPage from "./admin.customers.$id";
import * as customers from "./admin.customers";

type Handler = (args: never) => Promise<unknown>;

/** Runs a loader or action the way the server does and reports what came back, thrown or returned. */
async function run(handler: Handler, request: Request, context: AppLoadContext, params: Record<string, string> = {}) {
  let value: unknown;
  try {
    value = await handler({ request, context, params } as never);
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, location: value.headers.get("Location"), body: null as unknown };
  const wrapped = value as { type?: string; data?: unknown; init?: ResponseInit | null };
  if (wrapped && wrapped.type === "DataWithResponseInit") {
    return { status: wrapped.init?.status ?? 200, location: new Headers(wrapped.init?.headers).get("Location"), body: wrapped.data };
  }
  return { status: 200, location: null, body: value };
}

describe.each(ENGINES)("the customers screens on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let adminCookie: string;
  let customerCookie: string;
  let customerId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    const admin = await addUser(t.db, "admin", "owner@unboxed.example", "Ada");
    const customer = await addUser(t.db, "customer", "funke@example.com", "Funke");
    customerId = customer.id;
    await t.db.updateTable("users").set({ password_hash: "$argon2id$secret-hash-value" }).execute();
    adminCookie = await createSession(context, admin.id);
    customerCookie = await createSession(context, customer.id);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("sends a signed-out visitor to sign in and refuses a customer with 403", async () => {
    const list = await run(customers.loader, browserRequest("/admin/customers?q=a"), context);
    expect(list).toMatchObject({ status: 302, location: `/auth?redirectTo=${encodeURIComponent("/admin/customers?q=a")}` });
    const page = await run(customerPage.loader, browserRequest(`/admin/customers/${customerId}`), context, { id: String(customerId) });
    expect(page).toMatchObject({ status: 302, location: `/auth?redirectTo=${encodeURIComponent(`/admin/customers/${customerId}`)}` });
    expect((await run(customers.loader, browserRequest("/admin/customers", { cookies: [customerCookie] }), context)).status).toBe(403);
    expect((await run(customerPage.loader, browserRequest(`/admin/customers/${customerId}`, { cookies: [customerCookie] }), context, { id: String(customerId) })).status).toBe(403);
  });

  it("shows the owner the list and a customer's page, with no password hash, session or token in the data", async () => {
    const list = await run(customers.loader, browserRequest("/admin/customers?q=FUNKE&page=abc", { cookies: [adminCookie] }), context);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ q: "FUNKE", page: 1, total: 1, customers: [{ email: "funke@example.com", orders: 0, spent: 0 }] });
    const page = await run(customerPage.loader, browserRequest(`/admin/customers/${customerId}`, { cookies: [adminCookie] }), context, { id: String(customerId) });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ customer: { id: customerId, email: "funke@example.com", role: "customer" } });
    const sessions = await t.db.selectFrom("sessions").select("id").execute();
    for (const body of [list.body, page.body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain("argon2");
      expect(text).not.toMatch(/password|token|session/i);
      for (const s of sessions) expect(text).not.toContain(s.id);
      expect(text).not.toContain(adminCookie.split(";")[0].split("=")[1]);
    }
  });

  it("answers a malformed or unknown account id with 404", async () => {
    for (const id of ["abc", "-1", "0", "1e3", "99999999999", "999999", `${customerId}.5`]) {
      const outcome = await run(customerPage.loader, browserRequest(`/admin/customers/${encodeURIComponent(id)}`, { cookies: [adminCookie] }), context, { id });
      expect(outcome.status, id).toBe(404);
    }
  });
});
