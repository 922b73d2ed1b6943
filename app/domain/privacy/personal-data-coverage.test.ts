import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { listAdminOrders } from "../orders/admin-orders.server";
import { exportOrdersCsv } from "../orders/order-export.server";
import { queueMessage } from "../messages/outbox.server";
import { reminderStats } from "../messages/cart-reminders.server";
import { exportPersonalData, erasePersonalData, unhandledPersonalTables } from "./personal-data.server";

// Every table that holds a person's data has a handler: a guest's orders found by their e-mail, the
// WhatsApp and SMS messages sent to their numbers, their consents, cart reminders and discount codes
// are in the download and gone after erasure, while totals and the reminders' report stay.

const GUEST = "amaka.obi@example.com";
const GUEST_PHONE = "+2348051112222";
const OTHER_PHONE = "+2348059998888";
const TRACES = ["Amaka", "Obi", GUEST, GUEST_PHONE, "amaka.obi", "7 Awolowo Road"];
// (the order holds the e-mail as typed, "Amaka.Obi@…": the person is found without regard to case)
const traces = (value: unknown) => TRACES.filter((trace) => JSON.stringify(value).toLowerCase().includes(trace.toLowerCase()));

describe.each(ENGINES)("the personal data of every table on %s", (engine) => {
  let t: TestDatabase;
  let guestOrder: { id: number; number: string; total: number };

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const now = new Date().toISOString();
    const product = await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: (await addCategory(t.db)).id, name: "Oud Wood", stock: 20 });
    guestOrder = await insertOrder(t.db, { userId: null, status: "delivered", items: [{ productId: product.id, quantity: 1 }], phone: GUEST_PHONE, paidAt: now, address: { street: "7 Awolowo Road", city: "Ikoyi", state: "Lagos", country: "Nigeria" } });
    await t.db.updateTable("orders").set({ email: "Amaka.Obi@example.com", customer_name: "Amaka Obi" }).where("id", "=", guestOrder.id).execute();
    const other = await insertOrder(t.db, { userId: null, status: "delivered", items: [{ productId: product.id, quantity: 1 }], phone: OTHER_PHONE, paidAt: now });
    await t.db.updateTable("orders").set({ email: "someone.else@example.com", customer_name: "Someone Else" }).where("id", "=", other.id).execute();
    const message = (to: string, key: string, orderId: number | null, name = "Amaka") =>
      queueMessage(t.db, { channel: "whatsapp", kind: "order-shipped", idempotencyKey: key, to, locale: "en", template: "order_shipped", params: [name], text: `Hello ${name}, your order is on its way`, orderId });
    expect(await message(GUEST_PHONE, "k1", guestOrder.id)).toBe(true);
    // a back-in-stock alert to the guest's number, tied to no order
    expect(await message(GUEST_PHONE, "k2", null)).toBe(true);
    expect(await message(OTHER_PHONE, "k3", other.id, "Dayo")).toBe(true);
    await t.db
      .insertInto("marketing_consents")
      .values({ user_id: null, contact_email: GUEST, contact_phone: GUEST_PHONE, source: "checkout", wording: "Send me offers", locale: "en", token: "consent-amaka", granted_at: now, withdrawn_at: null, withdrawn_via: null })
      .execute();
    await t.db
      .insertInto("marketing_consents")
      .values({ user_id: null, contact_email: "someone.else@example.com", contact_phone: OTHER_PHONE, source: "checkout", wording: "Send me offers", locale: "en", token: "consent-other", granted_at: now, withdrawn_at: null, withdrawn_via: null })
      .execute();
    await t.db.insertInto("carts").values({ id: "cart-4f1c", user_id: null, created_at: now, updated_at: now }).execute();
    await t.db
      .insertInto("cart_reminders")
      .values({ cart_id: "cart-4f1c", user_id: null, contact_email: null, contact_phone: GUEST_PHONE, channel: "sms", restore_token: "restore-amaka", consent_id: null, sent_at: now, restored_at: now, order_id: guestOrder.id, order_total: guestOrder.total, recovered_at: now })
      .execute();
    const promotion = await t.db
      .insertInto("promotions")
      .values({ code: "WELCOME", code_key: "welcome", kind: "percent", value: 10, min_subtotal: null, starts_at: null, ends_at: null, usage_limit: null, per_customer_limit: 1, combines_with_sale: 0, uses: 1, paused_at: null, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db.insertInto("promotion_uses").values({ promotion_id: promotion.id, order_id: guestOrder.id, user_id: null, email: GUEST, phone: GUEST_PHONE, discount: 500, created_at: now, released_at: null }).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("has a handler (or a stated reason) for every table with a name, e-mail, phone or address column, and notices a new one", async () => {
    expect(await unhandledPersonalTables(t.db)).toEqual([]);
    await sql`create table loyalty_cards (id integer primary key, holder_phone text)`.execute(t.db);
    try {
      expect(await unhandledPersonalTables(t.db)).toEqual(["loyalty_cards"]);
    } finally {
      await sql`drop table loyalty_cards`.execute(t.db);
    }
  });

  it("gives a guest, by their confirmed e-mail, their orders, messages, consents, cart reminders and codes, and nothing of another", async () => {
    const file = await exportPersonalData(t.db, { kind: "guest", email: GUEST }, "Unboxed");
    const data = file.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(data.orders.map((o: { number: string }) => o.number)).toEqual([guestOrder.number]);
    expect(data.orders[0]).toMatchObject({ name: "Amaka Obi", phone: GUEST_PHONE, totalKobo: guestOrder.total });
    expect(data.messagesSent).toHaveLength(2);
    expect(data.messagesSent[0]).toMatchObject({ channel: "whatsapp", about: "order-shipped", to: GUEST_PHONE, status: "pending" });
    expect(data.marketingConsents).toEqual([expect.objectContaining({ given: "checkout", wording: "Send me offers", phone: GUEST_PHONE, withdrawnAt: null })]);
    expect(data.cartReminders).toEqual([expect.objectContaining({ channel: "sms", phone: GUEST_PHONE })]);
    expect(data.discountCodesUsed).toEqual([expect.objectContaining({ code: "WELCOME", discountKobo: 500 })]);
    const text = JSON.stringify(file);
    expect(text).not.toContain(OTHER_PHONE);
    expect(text).not.toContain("someone.else");
  });

  it("erases them: the orders still total the same and the reminders' report is unchanged, naming no one", async () => {
    const csvBefore = await exportOrdersCsv(t.db, {});
    const listBefore = await listAdminOrders(t.db, {});
    const statsBefore = await reminderStats(t.db);
    expect(traces(csvBefore)).toContain("Amaka");

    const counts = await t.db.transaction().execute((trx) => erasePersonalData(trx, { kind: "guest", email: GUEST }));
    expect(counts).toMatchObject({ orders: 1, messagesSent: 2, marketingConsents: 1, cartReminders: 1, discountCodesUsed: 1 });

    const everything = await Promise.all(
      (["orders", "message_outbox", "marketing_consents", "cart_reminders", "promotion_uses"] as const).map((table) => t.db.selectFrom(table).selectAll().execute()),
    );
    expect(traces(everything), JSON.stringify(everything)).toEqual([]);
    expect(JSON.stringify(everything)).toContain(OTHER_PHONE);
    expect(JSON.stringify(everything)).not.toContain("restore-amaka");
    expect(await t.db.selectFrom("message_outbox").select("to_phone").execute()).toEqual([{ to_phone: OTHER_PHONE }]);

    const listAfter = await listAdminOrders(t.db, {});
    expect(listAfter.orders.map((o) => o.total)).toEqual(listBefore.orders.map((o) => o.total));
    expect(traces(listAfter)).toEqual([]);
    const csvAfter = await exportOrdersCsv(t.db, {});
    expect(csvAfter.split("\r\n").length).toBe(csvBefore.split("\r\n").length);
    expect(traces(csvAfter)).toEqual([]);
    expect(await reminderStats(t.db)).toEqual(statsBefore);
    const use = await t.db.selectFrom("promotion_uses").select(["discount", "order_id"]).executeTakeFirstOrThrow();
    expect(use).toEqual({ discount: 500, order_id: guestOrder.id });
  });

  it("an account's erasure reaches its messages, consents and reminders too, and a guest order under its e-mail", async () => {
    const member = await addUser(t.db, "customer", "ife@example.com", "Ife");
    const now = new Date().toISOString();
    await t.db.updateTable("users").set({ phone: "+2348061231234" }).where("id", "=", member.id).execute();
    await queueMessage(t.db, { channel: "sms", kind: "cart-reminder", idempotencyKey: "k-ife", to: "+2348061231234", locale: "en", template: null, params: [], text: "Your cart", userId: member.id });
    await t.db
      .insertInto("marketing_consents")
      .values({ user_id: member.id, contact_email: null, contact_phone: null, source: "profile", wording: "Send me offers", locale: "en", token: "consent-ife", granted_at: now, withdrawn_at: null, withdrawn_via: null })
      .execute();
    const counts = await t.db.transaction().execute((trx) => erasePersonalData(trx, { kind: "account", userId: member.id, email: "ife@example.com" }));
    expect(counts).toMatchObject({ messagesSent: 1, marketingConsents: 1 });
    expect(await t.db.selectFrom("message_outbox").select("id").where("to_phone", "=", "+2348061231234").execute()).toEqual([]);
  });
});
