import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { getAdminOrder, listAdminOrders } from "../orders/admin-orders.server";
import { markOrderPaid, movePaymentStatus, recordRefund } from "./payments.server";

describe.each(ENGINES)("payment status on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let admin: { id: number };
  let customer: { id: number; email: string };
  let productId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    admin = await addUser(t.db, "owner", "owner@unboxed.example", "Ada");
    customer = await addUser(t.db, "customer", "payer@example.com", "Chioma");
    const [brand, category] = await Promise.all([addBrand(t.db), addCategory(t.db)]);
    productId = (await addProduct(t.db, { brandId: brand.id, categoryId: category.id, price: 4_500_000, stock: 100 })).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const newOrder = async (method: "bank_transfer" | "on_delivery" | "paystack" | null, extra: Parameters<typeof insertOrder>[1] extends infer I ? Partial<I> : never = {}) => {
    const order = await insertOrder(t.db, { userId: customer.id, items: [{ productId, quantity: 1 }], ...extra });
    await t.db.updateTable("orders").set({ payment_method: method }).where("id", "=", order.id).execute();
    return order;
  };
  const row = (number: string) => t.db.selectFrom("orders").select(["payment_status", "paid_at", "refunded_at"]).where("number", "=", number).executeTakeFirstOrThrow();

  it("marks a bank-transfer order paid once, even on two clicks at the same moment, with the audit entry and one e-mail", async () => {
    const order = await newOrder("bank_transfer");
    const results = await Promise.all([markOrderPaid(context, { number: order.number, actorId: admin.id }), markOrderPaid(context, { number: order.number, actorId: admin.id })]);
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, mail: "queued" }]);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: "stale" }]);
    const paid = await row(order.number);
    expect(paid.payment_status).toBe("paid");
    expect(paid.paid_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const audit = await t.db.selectFrom("audit_log").select(["actor_user_id", "summary", "changes"]).where("summary", "=", order.number).execute();
    expect(audit).toEqual([{ actor_user_id: admin.id, summary: order.number, changes: JSON.stringify({ paymentStatus: ["unpaid", "paid"] }) }]);
    const mails = await t.db.selectFrom("mail_outbox").select(["subject", "text_body", "kind"]).where("to_address", "=", customer.email).execute();
    expect(mails).toEqual([
      {
        kind: "payment-received",
        subject: `Payment received for your Unboxed order ${order.number}`,
        text_body: expect.stringContaining("We have received your payment of ₦45,000.00"),
      },
    ]);
  });

  it("refuses to mark paid what must not be: Paystack orders, cancelled orders, unknown orders", async () => {
    const online = await newOrder("paystack");
    expect(await markOrderPaid(context, { number: online.number, actorId: admin.id })).toEqual({ ok: false, error: "notAllowed" });
    const cancelled = await newOrder("on_delivery", { status: "cancelled" });
    expect(await markOrderPaid(context, { number: cancelled.number, actorId: admin.id })).toEqual({ ok: false, error: "notAllowed" });
    expect(await markOrderPaid(context, { number: "UB-99999", actorId: admin.id })).toEqual({ ok: false, error: "notFound" });
    expect((await row(online.number)).payment_status).toBe("unpaid");
    expect((await row(cancelled.number)).payment_status).toBe("unpaid");
  });

  it("marks a WhatsApp order paid, and records a refund of a paid order once", async () => {
    const chat = await newOrder(null, { channel: "whatsapp", userId: null });
    expect(await recordRefund(context, { number: chat.number, actorId: admin.id })).toEqual({ ok: false, error: "stale" });
    expect(await markOrderPaid(context, { number: chat.number, actorId: admin.id })).toEqual({ ok: true, mail: "none" });
    expect(await recordRefund(context, { number: chat.number, actorId: admin.id })).toEqual({ ok: true, mail: "none" });
    expect(await recordRefund(context, { number: chat.number, actorId: admin.id })).toEqual({ ok: false, error: "stale" });
    const refunded = await row(chat.number);
    expect(refunded.payment_status).toBe("refunded");
    expect(refunded.refunded_at).toMatch(/^\d{4}-/);
    const detail = await getAdminOrder(t.db, chat.number);
    expect(detail).toMatchObject({ paymentStatus: "refunded", paymentMethod: null });
  });

  it("filters the admin's order list by payment status", async () => {
    const unpaid = await newOrder("bank_transfer");
    const paid = await newOrder("on_delivery", { paidAt: new Date().toISOString() });
    const numbers = async (payment: "unpaid" | "paid" | "refunded") => (await listAdminOrders(t.db, { payment })).orders.map((o) => o.number);
    expect(await numbers("unpaid")).toContain(unpaid.number);
    expect(await numbers("unpaid")).not.toContain(paid.number);
    expect(await numbers("paid")).toContain(paid.number);
    expect(await numbers("paid")).not.toContain(unpaid.number);
    for (const o of (await listAdminOrders(t.db, { payment: "refunded" })).orders) expect(o.paymentStatus).toBe("refunded");
  });

  it("moves a payment status once from where it was, stamping the time, with an audit entry only for an admin", async () => {
    const order = await newOrder("paystack");
    const settle = () => t.db.transaction().execute((trx) => movePaymentStatus(trx, { order, from: "unpaid", to: "paid", paystack: { reference: `${order.number}-1`, channel: "card" } }));
    expect((await Promise.all([settle(), settle()])).sort()).toEqual([false, true]);
    const paid = await t.db.selectFrom("orders").select(["payment_status", "paid_at", "payment_reference", "payment_channel"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(paid).toMatchObject({ payment_status: "paid", payment_reference: `${order.number}-1`, payment_channel: "card" });
    expect(paid.paid_at).toMatch(/^\d{4}-/);
    expect(await t.db.selectFrom("audit_log").select("id").where("summary", "=", order.number).execute()).toEqual([]);
    // Not from a status the order is not in.
    expect(await t.db.transaction().execute((trx) => movePaymentStatus(trx, { order, from: "unpaid", to: "refunded", actorId: admin.id }))).toBe(false);
    expect(await t.db.transaction().execute((trx) => movePaymentStatus(trx, { order, from: "paid", to: "refunded", actorId: admin.id, audit: { note: [null, "x"] } }))).toBe(true);
    expect((await row(order.number)).refunded_at).toMatch(/^\d{4}-/);
    const audit = await t.db.selectFrom("audit_log").select(["actor_user_id", "changes"]).where("summary", "=", order.number).execute();
    expect(audit).toEqual([{ actor_user_id: admin.id, changes: JSON.stringify({ paymentStatus: ["paid", "refunded"], note: [null, "x"] }) }]);
  });
});
