import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { createSession } from "~/http/session.server";
import * as customerPage from "./admin.customers.$id";

// Only the owner erases a customer's personal data from the customer's page (docs/decisions/221),
// and only with the box ticked that says the shopper asked.

describe.each(ENGINES)("erasing from the customer's page on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  const cookies: Record<string, string> = {};
  let customerId: number;

  const post = (fields: Record<string, string>, cookie: string) =>
    browserRequest(`/admin/customers/${customerId}`, { method: "POST", body: new URLSearchParams(fields), cookies: [cookie], headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" } });
  const emailOf = async () => (await t.db.selectFrom("users").select("email").where("id", "=", customerId).executeTakeFirstOrThrow()).email;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    for (const role of ["owner", "manager", "support"] as const) cookies[role] = await createSession(context, (await addUser(t.db, role)).id);
    customerId = (await addUser(t.db, "customer", "yemi@example.com", "Yemi")).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("refuses every role but the owner, and an unticked box, changing nothing", async () => {
    for (const role of ["manager", "support"]) {
      expect((await run(customerPage.action, post({ intent: "erase", confirm: "yes" }, cookies[role]), context, { id: String(customerId) })).status, role).toBe(403);
    }
    const unticked = await run(customerPage.action, post({ intent: "erase" }, cookies.owner), context, { id: String(customerId) });
    expect(unticked).toMatchObject({ status: 400, body: { eraseProblem: { key: "admin.customers.erase.errors.notConfirmed" } } });
    expect(await emailOf()).toBe("yemi@example.com");
    const page = await run(customerPage.loader, browserRequest(`/admin/customers/${customerId}`, { cookies: [cookies.owner] }), context, { id: String(customerId) });
    expect(page.body).toMatchObject({ canErase: true, erased: false });
    const asManager = await run(customerPage.loader, browserRequest(`/admin/customers/${customerId}`, { cookies: [cookies.manager] }), context, { id: String(customerId) });
    expect(asManager.body).toMatchObject({ canErase: false });
  });

  it("erases for the owner, then says it is done", async () => {
    const done = await run(customerPage.action, post({ intent: "erase", confirm: "yes" }, cookies.owner), context, { id: String(customerId) });
    expect(done).toMatchObject({ status: 303, location: `/admin/customers/${customerId}` });
    expect(await emailOf()).toBe(`erased-${customerId}@erased.invalid`);
    const page = await run(customerPage.loader, browserRequest(`/admin/customers/${customerId}`, { cookies: [cookies.owner] }), context, { id: String(customerId) });
    expect(page.body).toMatchObject({ erased: true });
    const again = await run(customerPage.action, post({ intent: "erase", confirm: "yes" }, cookies.owner), context, { id: String(customerId) });
    expect(again).toMatchObject({ status: 409, body: { eraseProblem: { key: "admin.customers.erase.errors.erased" } } });
  });
});
