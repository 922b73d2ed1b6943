import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { refundAsCredit } from "../credit/credit.server";
import { loadDashboard, shopDate } from "./dashboard.server";

describe("the shop's days", () => {
  it("are Lagos days (UTC+1)", () => {
    expect(shopDate(Date.parse("2026-03-09T22:59:59.999Z"))).toBe("2026-03-09");
    expect(shopDate(Date.parse("2026-03-09T23:00:00.000Z"))).toBe("2026-03-10");
  });
});

describe.each(ENGINES)("admin dashboard on %s", (engine) => {
  let t: TestDatabase;
  const now = new Date("2026-03-10T12:00:00.000Z");

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const customer = await addUser(t.db, "customer", "buyer@example.com");
    const brandId = (await addBrand(t.db)).id;
    const categoryId = (await addCategory(t.db)).id;
    const stock = await addProduct(t.db, { brandId, categoryId, name: "Stock keeper", price: 100_000, stock: 1000 });
    await addProduct(t.db, { brandId, categoryId, name: "Last three", stock: 3 });
    await addProduct(t.db, { brandId, categoryId, name: "Last one", stock: 1 });
    await addProduct(t.db, { brandId, categoryId, name: "Plenty", stock: 4 });
    await addProduct(t.db, { brandId, categoryId, name: "Gone", stock: 0 });
    const archived = await addProduct(t.db, { brandId, categoryId, name: "Archived and gone", stock: 0 });
    await t.db.updateTable("products").set({ archived_at: now.toISOString() }).where("id", "=", archived.id).execute();

    const order = (createdAt: string, quantity: number, extra: Partial<Parameters<typeof insertOrder>[1]> = {}) =>
      insertOrder(t.db, { userId: customer.id, createdAt, items: [{ productId: stock.id, quantity }], ...extra });
    // Revenue is money received: each order below is paid when it is placed unless said otherwise.
    const paid = (at: string) => ({ paidAt: at });
    await order("2026-03-10T00:30:00.000Z", 1, paid("2026-03-10T00:30:00.000Z")); // today, 01:30 in Lagos
    await order("2026-03-09T23:30:00.000Z", 2); // today, 00:30 in Lagos, not paid yet: an order, no revenue
    await order("2026-03-10T09:00:00.000Z", 50, { status: "cancelled" }); // cancelled: not counted
    await order("2026-03-09T22:30:00.000Z", 4, { channel: "whatsapp", status: "confirmed", userId: null, ...paid("2026-03-09T22:30:00.000Z") }); // yesterday, 23:30 in Lagos
    await order("2026-03-09T22:40:00.000Z", 128, { channel: "whatsapp", userId: null }); // a WhatsApp order not confirmed: not a sale yet
    await order("2026-03-04T00:00:00.000Z", 8, { status: "delivered", ...paid("2026-03-04T00:00:00.000Z") }); // the 7th day back
    await order("2026-03-03T22:59:00.000Z", 16, { status: "shipped", ...paid("2026-03-03T22:59:00.000Z") }); // the 8th day back
    await order("2026-02-08T23:00:00.000Z", 32, { status: "confirmed", ...paid("2026-02-08T23:00:00.000Z") }); // the 30th day back, at midnight
    await order("2026-02-08T22:59:00.000Z", 64, { status: "delivered", ...paid("2026-02-08T22:59:00.000Z") }); // the 31st day back
    // Placed 40 days back (not an order of this month) but paid today: today's revenue.
    await order("2026-01-29T10:00:00.000Z", 256, { status: "delivered", ...paid("2026-03-10T10:00:00.000Z") });
    // Paid and refunded: no revenue.
    await order("2026-01-29T10:00:00.000Z", 512, { status: "cancelled", paymentStatus: "refunded" });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("counts orders for today, 7 and 30 days in the shop's days (no cancelled or unconfirmed WhatsApp orders), and revenue on the day it was paid", async () => {
    const d = await loadDashboard(t.db, now);
    expect(d.today).toEqual({ orders: 2, revenue: 100_000 + 25_600_000 });
    expect(d.week).toEqual({ orders: 4, revenue: 1_300_000 + 25_600_000 });
    expect(d.month).toEqual({ orders: 6, revenue: 6_100_000 + 25_600_000 });
    expect(d.unpaid).toBe(1);
  });

  it("draws 30 days, oldest first, each with its revenue", async () => {
    const d = await loadDashboard(t.db, now);
    expect(d.daily).toHaveLength(30);
    expect(d.daily[0]).toEqual({ date: "2026-02-09", orders: 1, revenue: 3_200_000 });
    expect(d.daily[29]).toEqual({ date: "2026-03-10", orders: 2, revenue: 25_700_000 });
    expect(d.daily.find((day) => day.date === "2026-03-09")).toEqual({ date: "2026-03-09", orders: 1, revenue: 400_000 });
    expect(d.daily.find((day) => day.date === "2026-03-03")).toEqual({ date: "2026-03-03", orders: 1, revenue: 1_600_000 });
    expect(d.daily.reduce((s, day) => s + day.revenue, 0)).toBe(d.month.revenue);
  });

  it("counts orders by status and the WhatsApp orders waiting", async () => {
    const d = await loadDashboard(t.db, now);
    expect(d.byStatus).toEqual({ pending: 3, confirmed: 2, shipped: 1, delivered: 3, cancelled: 2 });
    expect(d.pendingWhatsapp).toBe(1);
  });

  it("lists products low in stock (3 or fewer) and sold out, leaving archived ones out", async () => {
    const d = await loadDashboard(t.db, now);
    expect(d.lowStock).toEqual({ count: 2, items: [expect.objectContaining({ name: "Last one", stock: 1 }), expect.objectContaining({ name: "Last three", stock: 3 })] });
    expect(d.soldOut).toEqual({ count: 1, items: [expect.objectContaining({ name: "Gone", stock: 0 })] });
  });

  it("shows the 5 latest orders, newest first", async () => {
    const d = await loadDashboard(t.db, now);
    expect(d.latest).toHaveLength(5);
    expect(d.latest.map((o) => o.createdAt)).toEqual([
      "2026-03-10T09:00:00.000Z",
      "2026-03-10T00:30:00.000Z",
      "2026-03-09T23:30:00.000Z",
      "2026-03-09T22:40:00.000Z",
      "2026-03-09T22:30:00.000Z",
    ]);
    expect(d.latest[3]).toMatchObject({ channel: "whatsapp", customer: null, status: "pending" });
  });
});

describe.each(ENGINES)("the dashboard's revenue and discounts on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("counts what was received, net of discount codes (docs/decisions/219)", async () => {
    const now = new Date("2026-03-10T12:00:00.000Z");
    const brandId = (await addBrand(t.db)).id;
    const categoryId = (await addCategory(t.db)).id;
    const product = await addProduct(t.db, { brandId, categoryId, name: "Rose Noir", price: 1_000_000, stock: 100 });
    const at = "2026-03-10T09:00:00.000Z";
    await insertOrder(t.db, { createdAt: at, paidAt: at, items: [{ productId: product.id, quantity: 2 }], discount: 300_000, promotionCode: "SAVE15" });
    await insertOrder(t.db, { createdAt: at, paidAt: at, items: [{ productId: product.id, quantity: 1 }] });
    const d = await loadDashboard(t.db, now);
    expect(d.today).toEqual({ orders: 2, revenue: 2_000_000 - 300_000 + 1_000_000 });
  });

  it("counts what credit and gift cards paid of an order, and leaves out what was refunded as credit (docs/decisions/224)", async () => {
    const now = new Date("2026-04-10T12:00:00.000Z");
    const brandId = (await addBrand(t.db)).id;
    const categoryId = (await addCategory(t.db)).id;
    const product = await addProduct(t.db, { brandId, categoryId, name: "Oud Wood", price: 1_000_000, stock: 100 });
    const owner = await addUser(t.db, "owner", `dash-owner-${engine}@example.com`);
    const buyer = await addUser(t.db, "customer", `dash-buyer-${engine}@example.com`);
    const at = "2026-04-10T09:00:00.000Z";
    // ₦30,000: ₦10,000 by a gift card, ₦5,000 by credit, the rest paid: a ₦30,000 sale.
    await insertOrder(t.db, { userId: buyer.id, createdAt: at, paidAt: at, items: [{ productId: product.id, quantity: 3 }], giftCard: 1_000_000, giftCardCode: "GIFTCARD2345ABCD", storeCredit: 500_000 });
    // ₦20,000, of which ₦4,000 refunded as credit: a ₦16,000 sale.
    const partly = await insertOrder(t.db, { userId: buyer.id, createdAt: at, paidAt: at, items: [{ productId: product.id, quantity: 2 }] });
    expect(await refundAsCredit(t.db, { number: partly.number, amount: 400_000, note: "one bottle leaked", actorId: owner.id })).toMatchObject({ ok: true });
    // ₦10,000 refunded wholly as credit: refunded, no sale.
    const wholly = await insertOrder(t.db, { userId: buyer.id, createdAt: at, paidAt: at, items: [{ productId: product.id, quantity: 1 }] });
    expect(await refundAsCredit(t.db, { number: wholly.number, amount: 1_000_000, note: "wrong perfume", actorId: owner.id })).toMatchObject({ ok: true });
    const d = await loadDashboard(t.db, now);
    expect(d.today.revenue).toBe(3_000_000 + 1_600_000);
  });
});
