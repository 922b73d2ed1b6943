import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { makeProducts } from "../../../tests/support/catalogue";
import { insertOrder } from "../../../tests/support/orders";
import { catalogChanged } from "./catalog.server";
import { BOUGHT_TOGETHER_RECENT_ORDERS, BOUGHT_TOGETHER_TTL_MS, boughtTogether, boughtTogetherCounts } from "./recommendations.server";

describe.each(ENGINES)("often bought together on %s", (engine) => {
  let t: TestDatabase;
  let oud: number, rose: number, musk: number, amber: number, vetiver: number, soldOut: number;

  const order = (ids: number[], status: "pending" | "confirmed" | "delivered" | "cancelled" = "confirmed") =>
    insertOrder(t.db, { status, channel: "whatsapp", items: ids.map((productId) => ({ productId, quantity: 1 })) });
  const names = async (id: number) => (await boughtTogetherCounts(t.db, id)).map((c) => c.productId);

  beforeAll(async () => {
    t = await freshDatabase(engine);
    [oud, rose, musk, amber, vetiver, soldOut] = await makeProducts(t.db, [
      { name: "Oud Wood", price: 30_000_000, stock: 50 },
      { name: "Rose Prick", price: 25_000_000, stock: 50 },
      { name: "White Musk", price: 9_000_000, stock: 50 },
      { name: "Amber Nuit", price: 19_000_000, stock: 50 },
      { name: "Vetiver Extraordinaire", price: 28_000_000, stock: 50 },
      { name: "Gone Soon", price: 12_000_000, stock: 50 },
    ]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("shows nothing until two orders share the products, then ranks by shared orders", async () => {
    expect(await boughtTogether(t.db, oud)).toEqual([]);
    await order([oud, rose]);
    // One basket is one shopper's: not shown to anyone else.
    expect(await names(oud)).toEqual([]);
    await order([oud, rose, musk]);
    expect(await boughtTogetherCounts(t.db, oud)).toEqual([{ productId: rose, orders: 2 }]);
    expect(await boughtTogetherCounts(t.db, rose)).toEqual([{ productId: oud, orders: 2 }]);

    await order([oud, musk], "delivered");
    await order([musk, oud], "pending");
    // Musk now shares three orders with Oud, Rose two.
    expect(await boughtTogetherCounts(t.db, oud)).toEqual([
      { productId: musk, orders: 3 },
      { productId: rose, orders: 2 },
    ]);
    // Orders without Oud do not count towards Oud's row.
    await order([rose, amber]);
    await order([rose, amber]);
    expect(await names(oud)).toEqual([musk, rose]);
    expect(await names(rose)).toEqual([amber, oud]);
  });

  it("ignores cancelled orders", async () => {
    await order([oud, amber], "cancelled");
    await order([oud, amber], "cancelled");
    await order([oud, amber], "cancelled");
    expect(await names(oud)).toEqual([musk, rose]);
    await order([oud, amber]);
    expect(await names(oud)).toEqual([musk, rose]);
    await order([oud, amber]);
    expect(await names(oud)).toEqual([musk, amber, rose]);
  });

  it("never offers archived products, and offers sold-out ones as sold out", async () => {
    await order([vetiver, soldOut]);
    await order([vetiver, soldOut]);
    await t.db.updateTable("products").set({ stock: 0 }).where("id", "=", soldOut).execute();
    const cards = await boughtTogether(t.db, vetiver, Date.now() + 10 * BOUGHT_TOGETHER_TTL_MS);
    expect(cards.map((c) => [c.name, c.soldOut])).toEqual([["Gone Soon", 1]]);

    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", soldOut).execute();
    expect(await names(vetiver)).toEqual([]);
    await t.db.updateTable("products").set({ archived_at: null }).where("id", "=", soldOut).execute();
  });

  it("returns cards in rank order, kept for a minute and dropped at a catalogue change", async () => {
    const start = Date.now() + 100 * BOUGHT_TOGETHER_TTL_MS;
    expect((await boughtTogether(t.db, oud, start)).map((c) => c.name)).toEqual(["White Musk", "Amber Nuit", "Rose Prick"]);
    await order([oud, vetiver]);
    await order([oud, vetiver]);
    await order([oud, vetiver]);
    await order([oud, vetiver]);
    // Still the answer kept a moment ago...
    expect((await boughtTogether(t.db, oud, start + 1_000)).map((c) => c.name)).toEqual(["White Musk", "Amber Nuit", "Rose Prick"]);
    // ...read again once it is older than the TTL, or as soon as the catalogue changes.
    expect((await boughtTogether(t.db, oud, start + BOUGHT_TOGETHER_TTL_MS + 1)).map((c) => c.name)).toEqual(["Vetiver Extraordinaire", "White Musk", "Amber Nuit", "Rose Prick"]);
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", vetiver).execute();
    catalogChanged();
    expect((await boughtTogether(t.db, oud, start + BOUGHT_TOGETHER_TTL_MS + 2)).map((c) => c.name)).toEqual(["White Musk", "Amber Nuit", "Rose Prick"]);
  });

  it("reads only the product's latest orders", async () => {
    const [best, old, recent] = await makeProducts(t.db, [
      { name: "Best Seller", price: 10_000_000, stock: 5_000 },
      { name: "Old Companion", price: 10_000_000, stock: 5_000 },
      { name: "New Companion", price: 10_000_000, stock: 5_000 },
    ]);
    // Two early orders with the old companion, then more orders than are read, then two with the new one.
    await order([best, old]);
    await order([best, old]);
    const at = new Date().toISOString();
    const many = await t.db
      .insertInto("orders")
      .values(
        Array.from({ length: BOUGHT_TOGETHER_RECENT_ORDERS }, (_, i) => ({
          number: `bulk-${i}`,
          user_id: null,
          channel: "whatsapp" as const,
          status: "confirmed" as const,
          ship_street: null,
          ship_city: null,
          ship_state: null,
          ship_country: null,
          address_id: null,
          subtotal: 10_000_000,
          shipping: 0,
          total: 10_000_000,
          created_at: at,
          updated_at: at,
        })),
      )
      .returning("id")
      .execute();
    await t.db
      .insertInto("order_items")
      .values(many.map((o) => ({ order_id: o.id, product_id: best, name: "Best Seller", unit_price: 10_000_000, quantity: 1 })))
      .execute();
    await order([best, recent]);
    await order([best, recent]);
    expect(await names(best)).toEqual([recent]);
  });
});
