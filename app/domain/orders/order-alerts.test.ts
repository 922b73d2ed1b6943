import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, makeUser, firstSizeOf } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { ConfigError, loadConfig } from "~/platform/config.server";
import { translatorFor } from "~/platform/translations.server";
import { checkoutView, placeCheckoutOrder } from "./checkout.server";
import { countOrdersWaiting, ordersWaiting, ownerAlert } from "./order-alerts.server";
import { placeWhatsAppOrder } from "./orders.server";

const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
/** Delivered to Lagos (the seeded ₦3,000 fee), paid on delivery: what the checkout page sends for one ₦29,000.50 bottle. */
const choices = { deliveryMethod: "delivery", paymentMethod: "on_delivery", expectedTotal: String(2_900_050 + 300_000), payment: PAYMENT, phone: "0803 123 4567" };
const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };

describe("OWNER_EMAIL", () => {
  it("names one or more owners, and defaults to SHOP_EMAIL", () => {
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp/unboxed-owner-test" }).shop.ownerEmails).toEqual(["hello@unboxed.example"]);
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp/unboxed-owner-test", SHOP_EMAIL: "shop@x.ng" }).shop.ownerEmails).toEqual(["shop@x.ng"]);
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp/unboxed-owner-test", OWNER_EMAIL: "ada@x.ng, bola@y.ng;chi@z.ng" }).shop.ownerEmails).toEqual(["ada@x.ng", "bola@y.ng", "chi@z.ng"]);
    expect(() => loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp/unboxed-owner-test", OWNER_EMAIL: "ada@x.ng, nobody" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp/unboxed-owner-test", OWNER_EMAIL: "ada@x.ng, nobody" })).toThrow(/OWNER_EMAIL/);
  });
});

describe.each(ENGINES)("new-order alerts on %s", (engine) => {
  let t: TestDatabase;
  let users = 0;
  const owners = () => ownerAlert(testContext(t, { OWNER_EMAIL: "ada@owner.ng,bola@owner.ng" }).config);
  const alerts = (number: string) =>
    t.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body", "kind"]).where("kind", "=", "new-order-alert").where("subject", "like", `%${number}%`).orderBy("id").execute();

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function cartOf(userId: number | null, lines: { productId: number; quantity: number }[]) {
    const at = new Date().toISOString();
    const cartId = `alert-cart-${engine}-${++users}-${"x".repeat(20)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values(lines.map((l) => ({ cart_id: cartId, product_id: l.productId, size_id: firstSizeOf(l.productId), quantity: l.quantity, created_at: at }))).execute();
    return cartId;
  }

  it("e-mails every owner about a checkout order, in the order's own transaction, with items, totals, customer, address and link", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Oud Wood 50ml", price: 2_900_050, stock: 1 }]);
    const buyer = await makeUser(t.db, `buyer-${engine}@example.com`);
    const rival = await makeUser(t.db, `rival-${engine}@example.com`);
    await cartOf(buyer, [{ productId: oud, quantity: 1 }]);
    await cartOf(rival, [{ productId: oud, quantity: 1 }]);
    const config = testContext(t, { OWNER_EMAIL: "ada@owner.ng,bola@owner.ng" }).config;
    const mail = (email: string) => ({ t: translatorFor("en"), config, user: { email, firstName: "Chioma" } });
    const view = await checkoutView(t.db, buyer, PAYMENT);
    const placed = await placeCheckoutOrder(t.db, { id: buyer }, { checkoutKey: view.checkoutKey, seen: view.seen, addressId: null, address: lagos, saveAddress: false, ...choices }, { mail: mail(`buyer-${engine}@example.com`) });
    if (!placed.ok) throw new Error(placed.problem);
    const number = placed.order.number;

    const sent = await alerts(number);
    expect(sent.map((m) => m.to_address)).toEqual(["ada@owner.ng", "bola@owner.ng"]);
    expect(sent[0].subject).toBe(`New order ${number}: ₦32,000.50 (Online checkout)`.replace("Online checkout", translatorFor("en")("admin.orders.channel.checkout")));
    expect(sent[0].text_body).toContain("1 x Oud Wood 50ml: ₦29,000.50");
    expect(sent[0].text_body).toContain("Delivery: ₦3,000.00");
    expect(sent[0].text_body).toContain("Total: ₦32,000.50");
    expect(sent[0].text_body).toContain("Payment: Pay on delivery (unpaid)");
    expect(sent[0].text_body).toContain(`Customer: Chioma Test <buyer-${engine}@example.com>`);
    expect(sent[0].text_body).toContain("Deliver to: 12 Admiralty Way, Lekki, Lagos, Nigeria");
    // The link ends its line, so a mail program that makes it clickable takes nothing after it.
    expect(sent[0].text_body).toMatch(/^Phone: \+234 803 123 4567, WhatsApp: https:\/\/wa\.me\/2348031234567$/m);
    expect(sent[0].text_body).toContain(`Open the order: http://shop.test/admin/orders/${number}`);

    // The same form again finds the order: no second alert. A sold-out order writes none.
    const again = await placeCheckoutOrder(t.db, { id: buyer }, { checkoutKey: view.checkoutKey, seen: view.seen, addressId: null, address: lagos, saveAddress: false, ...choices }, { mail: mail(`buyer-${engine}@example.com`) });
    expect(again).toMatchObject({ ok: true, reused: true });
    const rivalView = await checkoutView(t.db, rival, PAYMENT);
    const refused = await placeCheckoutOrder(t.db, { id: rival }, { checkoutKey: rivalView.checkoutKey, seen: rivalView.seen, addressId: null, address: lagos, saveAddress: false, ...choices }, { mail: mail(`rival-${engine}@example.com`) });
    expect(refused.ok).toBe(false);
    expect(await t.db.selectFrom("mail_outbox").select("id").where("kind", "=", "new-order-alert").execute()).toHaveLength(2);
  });

  it("e-mails the owners about a WhatsApp order from a visitor, once however often the button is pressed", async () => {
    const [rose] = await makeProducts(t.db, [{ name: "Rose Noir", price: 1_000_000, stock: 5 }]);
    const cartId = await cartOf(null, [{ productId: rose, quantity: 2 }]);
    const first = await placeWhatsAppOrder(t.db, { cartId, userId: null }, { ownerAlert: owners() });
    const second = await placeWhatsAppOrder(t.db, { cartId, userId: null }, { ownerAlert: owners() });
    expect(second).toMatchObject({ reused: true, number: first.number });
    const sent = await alerts(first.number);
    expect(sent).toHaveLength(2);
    expect(sent[0].text_body).toContain("2 x Rose Noir: ₦20,000.00");
    expect(sent[0].text_body).toContain("Customer: a visitor without an account (WhatsApp)");
    expect(sent[0].text_body).toContain("Deliver to: no address yet");
    expect(sent[0].text_body).toContain("Phone: none given");
  });

  it("counts and lists the orders waiting for the owner, the longest-waiting first", async () => {
    const before = await countOrdersWaiting(t.db);
    const [p] = await makeProducts(t.db, [{ name: "Waiting Scent", price: 100_000, stock: 50 }]);
    const old = await insertOrder(t.db, { items: [{ productId: p, quantity: 1 }], status: "confirmed", createdAt: "2020-01-01T10:00:00.000Z" });
    await insertOrder(t.db, { items: [{ productId: p, quantity: 1 }], status: "shipped", createdAt: "2019-01-01T10:00:00.000Z" });
    await insertOrder(t.db, { items: [{ productId: p, quantity: 1 }], status: "cancelled", createdAt: "2019-01-01T10:00:00.000Z" });
    const older = await insertOrder(t.db, { items: [{ productId: p, quantity: 1 }], status: "pending", channel: "whatsapp", createdAt: "2019-06-01T10:00:00.000Z" });
    expect(await countOrdersWaiting(t.db)).toBe(before + 2);
    const list = await ordersWaiting(t.db, 2);
    expect(list.map((o) => [o.number, o.status])).toEqual([
      [older.number, "pending"],
      [old.number, "confirmed"],
    ]);
  });
});
