import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { createSession } from "~/http/session.server";
import * as customerPage from "./admin.customers.$id";
import * as layout from "./admin";
import * as customers from "./admin.customers";



describe.each(ENGINES)("the customers screens on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let adminCookie: string;
  let customerCookie: string;
  let customerId: number;
  let adminId: number;

  const post = (url: string, fields: Record<string, string>, cookies: string[] = []) => {
    const body = new URLSearchParams(fields);
    return browserRequest(url, { method: "POST", body, cookies, headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" } });
  };
  const roleOf = async (id: number) => (await t.db.selectFrom("users").select("role").where("id", "=", id).executeTakeFirstOrThrow()).role;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    const admin = await addUser(t.db, "owner", "owner@unboxed.example", "Ada");
    const customer = await addUser(t.db, "customer", "funke@example.com", "Funke");
    customerId = customer.id;
    adminId = admin.id;
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
    const admins = await run(customers.loader, browserRequest("/admin/customers?role=owner", { cookies: [adminCookie] }), context);
    expect(admins.body).toMatchObject({ role: "owner", total: 1, customers: [{ email: "owner@unboxed.example" }] });
    const bogus = await run(customers.loader, browserRequest("/admin/customers?role=superuser", { cookies: [adminCookie] }), context);
    expect(bogus.body).toMatchObject({ role: null, total: 2 });
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

  it("refuses role changes to a customer (403) and a signed-out visitor (sign in), changing nothing", async () => {
    const url = `/admin/customers/${customerId}`;
    const asCustomer = await run(customerPage.action, post(url, { intent: "role", role: "owner" }, [customerCookie]), context, { id: String(customerId) });
    expect(asCustomer.status).toBe(403);
    const anonymous = await run(customerPage.action, post(url, { intent: "role", role: "owner" }), context, { id: String(customerId) });
    expect(anonymous).toMatchObject({ status: 302, location: `/auth?redirectTo=${encodeURIComponent(url)}` });
    expect(await roleOf(customerId)).toBe("customer");
    expect(await t.db.selectFrom("audit_log").select("id").execute()).toEqual([]);
  });

  it("answers bad requests with a 4xx and a translated message, never a 500", async () => {
    const url = `/admin/customers/${customerId}`;
    const params = { id: String(customerId) };
    const bad = await run(customerPage.action, post(url, { intent: "role", role: "superuser" }, [adminCookie]), context, params);
    expect(bad).toMatchObject({ status: 400, body: { problem: "admin.common.toast.badRequest" } });
    const noIntent = await run(customerPage.action, post(url, { role: "owner" }, [adminCookie]), context, params);
    expect(noIntent.status).toBe(400);
    const json = browserRequest(url, { method: "POST", body: JSON.stringify({ intent: "role", role: "owner" }), cookies: [adminCookie], headers: { Origin: "http://shop.test", "Content-Type": "application/json" } });
    expect((await run(customerPage.action, json, context, params)).status).toBe(400);
    const self = await run(customerPage.action, post(`/admin/customers/${adminId}`, { intent: "role", role: "customer" }, [adminCookie]), context, { id: String(adminId) });
    expect(self).toMatchObject({ status: 403, body: { problem: "admin.customers.role.errors.self" } });
    for (const id of ["abc", "999999"]) {
      const missing = await run(customerPage.action, post(`/admin/customers/${id}`, { intent: "role", role: "owner" }, [adminCookie]), context, { id });
      expect(missing.status, id).toBe(404);
    }
    expect(await roleOf(customerId)).toBe("customer");
    expect(await roleOf(adminId)).toBe("owner");
  });

  it("makes a customer an admin, and taking the role away ends their sessions at once", async () => {
    const url = `/admin/customers/${customerId}`;
    const params = { id: String(customerId) };
    const made = await run(customerPage.action, post(url, { intent: "role", role: "owner" }, [adminCookie]), context, params);
    expect(made).toMatchObject({ status: 303, location: url });
    expect(await roleOf(customerId)).toBe("owner");
    // Their existing session now opens the admin area.
    expect((await run(layout.loader, browserRequest("/admin", { cookies: [customerCookie] }), context)).status).toBe(200);
    const page = await run(customerPage.loader, browserRequest(`${url}?role=customer`, { cookies: [adminCookie] }), context, params);
    expect(page.body).toMatchObject({ confirming: "customer", self: false });

    const removed = await run(customerPage.action, post(url, { intent: "role", role: "customer" }, [adminCookie]), context, params);
    expect(removed).toMatchObject({ status: 303, location: url });
    expect(await roleOf(customerId)).toBe("customer");
    // Their session ended with the role (docs/decisions/222): the next admin request is sent to sign in.
    for (const [loader, path] of [[layout.loader, "/admin"], [customers.loader, "/admin/customers"]] as const) {
      const next = await run(loader, browserRequest(path, { cookies: [customerCookie] }), context);
      expect(next.status).toBe(302);
      expect(next.location).toMatch(/^\/auth\?redirectTo=/);
    }
    const entries = await t.db.selectFrom("audit_log").select(["entity", "entity_id", "actor_user_id", "changes"]).orderBy("id").execute();
    expect(entries).toEqual([
      { entity: "user", entity_id: customerId, actor_user_id: adminId, changes: JSON.stringify({ role: ["customer", "owner"] }) },
      { entity: "user", entity_id: customerId, actor_user_id: adminId, changes: JSON.stringify({ role: ["owner", "customer"] }) },
    ]);
    // The owner's own page offers no role button and no confirmation.
    const own = await run(customerPage.loader, browserRequest(`/admin/customers/${adminId}?role=customer`, { cookies: [adminCookie] }), context, { id: String(adminId) });
    expect(own.body).toMatchObject({ self: true, confirming: null });
  });
});
