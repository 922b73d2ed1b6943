import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { createSession } from "~/http/session.server";
import * as list from "./admin.promotions";
import * as one from "./admin.promotions.$id";

// The owner's sale forms (docs/decisions/225): a bad form is a 400 with each field's message and
// changes nothing; a good one starts the sale before the answer; a sale's page is /admin/promotions/sale-ID.

describe.each(ENGINES)("the sale forms on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let owner: string;
  let support: string;
  let category: number;
  let product: number;

  const post = (path: string, fields: Record<string, string | string[]>, cookie: string) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    return browserRequest(path, { method: "POST", body, cookies: [cookie], headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" } });
  };
  const ends = new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString().slice(0, 16);
  const priceOf = async () => Number((await t.db.selectFrom("product_sizes").select("price").where("product_id", "=", product).executeTakeFirstOrThrow()).price);

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    owner = await createSession(context, (await addUser(t.db, "owner")).id);
    support = await createSession(context, (await addUser(t.db, "support")).id);
    category = (await addCategory(t.db)).id;
    product = (await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: category, price: 2_000_000 })).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("refuses a bad sale with each field's message and a 400, and a role without promotions with a 403", async () => {
    const bad = await run(list.action, post("/admin/promotions", { intent: "sale", name: "", kind: "percent", value: "150", endsAt: "tomorrow", categoryIds: ["x"] }, owner), context);
    expect(bad).toMatchObject({
      status: 400,
      body: { form: "sale", errors: { name: "promotions.sales.errors.name", value: "promotions.sales.errors.percent", endsAt: "promotions.sales.errors.endsAt", categoryIds: "promotions.admin.errors.ids" } },
    });
    expect((await run(list.action, post("/admin/promotions", { intent: "sale", name: "X", kind: "percent", value: "10", endsAt: ends }, support), context)).status).toBe(403);
    expect(await t.db.selectFrom("sales").select("id").execute()).toEqual([]);
  });

  it("creates a sale that is in the prices when the owner's page comes back, and pauses it from its page", async () => {
    const created = await run(list.action, post("/admin/promotions", { intent: "sale", name: "Weekend", kind: "percent", value: "25", endsAt: ends, categoryIds: [String(category)] }, owner), context);
    expect(created.status).toBe(303);
    const id = /\/admin\/promotions\/sale-(\d+)$/.exec(created.location ?? "")?.[1];
    expect(id).toBeTruthy();
    expect(await priceOf()).toBe(1_500_000);

    const page = await run(one.loader, browserRequest(`/admin/promotions/sale-${id}`, { cookies: [owner] }), context, { id: `sale-${id}` });
    expect(page.body).toMatchObject({ kind: "sale", state: "running", results: { sizesNow: 1 } });
    expect((await run(one.loader, browserRequest("/admin/promotions/sale-999999", { cookies: [owner] }), context, { id: "sale-999999" })).status).toBe(404);
    expect((await run(one.loader, browserRequest("/admin/promotions/sale-x", { cookies: [owner] }), context, { id: "sale-x" })).status).toBe(404);

    const refused = await run(one.action, post(`/admin/promotions/sale-${id}`, { intent: "save", name: "Weekend", kind: "fixed", value: "0", endsAt: ends }, owner), context, { id: `sale-${id}` });
    expect(refused).toMatchObject({ status: 400, body: { errors: { value: "promotions.admin.errors.amount" } } });
    expect(await priceOf()).toBe(1_500_000);

    const paused = await run(one.action, post(`/admin/promotions/sale-${id}`, { intent: "pause" }, owner), context, { id: `sale-${id}` });
    expect(paused).toMatchObject({ status: 303, location: `/admin/promotions/sale-${id}` });
    expect(await priceOf()).toBe(2_000_000);
  });
});
