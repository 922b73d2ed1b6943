import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../../tests/support/catalogue";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import * as root from "~/root";
import { changeOrderStatus } from "../orders/admin-orders.server";
import { createSession, getSessionUser } from "~/http/session.server";
import { rememberLocale } from "./sessions.server";

describe.each(ENGINES)("e-mails in the customer's language on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });
  const localeOf = async (id: number) => (await t.db.selectFrom("users").select("locale").where("id", "=", id).executeTakeFirstOrThrow()).locale;

  it("remembers the language a signed-in customer last used, writing only when it changes", async () => {
    const context = testContext(t);
    const customer = await addUser(t.db, "customer");
    const cookie = await createSession(context, customer.id);
    expect(await localeOf(customer.id)).toBeNull();
    await root.loader({ request: browserRequest("/?lng=es", { cookies: [cookie] }), context, params: {} } as never);
    expect(await localeOf(customer.id)).toBe("es");
    await root.loader({ request: browserRequest("/", { cookies: [cookie], headers: { "Accept-Language": "en-GB,en;q=0.9" } }), context, params: {} } as never);
    expect(await localeOf(customer.id)).toBe("en");
    // Same language again: nothing to write (the session already knows it).
    const user = await getSessionUser(browserRequest("/", { cookies: [cookie] }), t.db);
    expect(user?.locale).toBe("en");
    await t.db.updateTable("users").set({ locale: "xx" }).where("id", "=", customer.id).execute();
    await rememberLocale(t.db, { id: customer.id, locale: "en" }, "en");
    expect(await localeOf(customer.id)).toBe("xx");
  });

  it("writes an order's status e-mail in the customer's language, English when unknown", async () => {
    const context = testContext(t);
    const admin = await addUser(t.db, "owner");
    const [p] = await makeProducts(t.db, [{ name: "Lengua Scent", price: 1_000_000, stock: 10 }]);
    const spanish = await addUser(t.db, "customer", `es-${engine}@example.com`);
    const unknown = await addUser(t.db, "customer", `xx-${engine}@example.com`);
    await t.db.updateTable("users").set({ locale: "es" }).where("id", "=", spanish.id).execute();
    for (const who of [spanish, unknown]) {
      const order = await insertOrder(t.db, { userId: who.id, items: [{ productId: p, quantity: 1 }] });
      const result = await changeOrderStatus(context, { number: order.number, from: "pending", to: "confirmed", actorId: admin.id });
      expect(result.ok).toBe(true);
    }
    const mail = async (to: string) =>
      (await t.db.selectFrom("mail_outbox").select(["subject", "text_body"]).where("to_address", "=", to).where("kind", "=", "order-status").executeTakeFirstOrThrow());
    const es = await mail(`es-${engine}@example.com`);
    expect(es.subject).toMatch(/^Tu pedido de Unboxed UB-\d+: Confirmado$/);
    expect(es.text_body).toContain("Hola");
    const en = await mail(`xx-${engine}@example.com`);
    expect(en.subject).toMatch(/^Your Unboxed order UB-\d+: Confirmed$/);
  });
});
