import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { makeUser } from "../../../tests/support/catalogue";
import { findOrderForUser, listOrdersForUser } from "./order-history.server";

describe.each(ENGINES)("order history on %s", (engine) => {
  let t: TestDatabase;
  let ada: number;
  let bola: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    ada = await makeUser(t.db, "ada@example.com");
    bola = await makeUser(t.db, "bola@example.com");
    const at = "2026-03-01T10:00:00.000Z";
    const order = await t.db
      .insertInto("orders")
      .values({
        number: "UB-10001",
        user_id: ada,
        channel: "checkout",
        status: "pending",
        ship_street: "1 Marina",
        ship_city: "Lagos Island",
        ship_state: "Lagos",
        ship_country: "Nigeria",
        address_id: null,
        subtotal: 5_000_000,
        shipping: 0,
        total: 5_000_000,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db.insertInto("order_items").values({ order_id: order.id, product_id: null, name: "Oud Wood 50ml", unit_price: 2_500_000, quantity: 2 }).execute();
    await t.db.insertInto("order_events").values({ order_id: order.id, status: "pending", actor_user_id: null, note: null, created_at: at }).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("lists and shows a customer's own orders with their snapshot", async () => {
    expect(await listOrdersForUser(t.db, ada)).toEqual([
      { number: "UB-10001", channel: "checkout", status: "pending", total: 5_000_000, createdAt: "2026-03-01T10:00:00.000Z", address: "1 Marina, Lagos Island, Lagos, Nigeria", paymentStatus: "unpaid", pickup: false },
    ]);
    const detail = await findOrderForUser(t.db, ada, "UB-10001");
    expect(detail?.items).toEqual([{ productId: null, name: "Oud Wood 50ml", unitPrice: 2_500_000, quantity: 2, lineTotal: 5_000_000 }]);
    expect(detail?.history).toEqual([{ status: "pending", at: "2026-03-01T10:00:00.000Z" }]);
  });

  it("never shows one customer's order to another", async () => {
    expect(await listOrdersForUser(t.db, bola)).toEqual([]);
    expect(await findOrderForUser(t.db, bola, "UB-10001")).toBeNull();
    expect(await findOrderForUser(t.db, ada, "UB-99999")).toBeNull();
  });
});
