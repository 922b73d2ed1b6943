import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, makeUser, firstSizeOf } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { ConfigError, loadConfig } from "~/platform/config.server";
import { translatorFor } from "~/platform/translations.server";
import { adjustCredit, enterGiftCard, issueGiftCard, setUseCredit } from "../credit/credit.server";
import { checkoutView, placeCheckoutOrder } from "./checkout.server";
import { whatsAppAlertAmount } from "./new-order-alert.server";
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

  it("tells the owner, by e-mail and WhatsApp, what store credit and a gift card paid and what is left, once they have paid it", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Oud Credit 50ml", price: 2_900_050, stock: 5 }]);
    const buyer = await makeUser(t.db, `credit-buyer-${engine}@example.com`);
    const owner = await makeUser(t.db, `credit-owner-${engine}@example.com`, "owner");
    expect(await adjustCredit(t.db, { userId: buyer, amount: 500_000, note: "late parcel", actorId: owner })).toMatchObject({ ok: true });
    const card = await issueGiftCard(t.db, { amount: 1_000_000, expiresAt: null, recipientName: "Chioma", recipientEmail: `credit-buyer-${engine}@example.com`, message: null, locale: "en", sold: true }, owner, async () => {});
    const cartId = await cartOf(buyer, [{ productId: oud, quantity: 1 }]);
    await setUseCredit(t.db, cartId, true);
    expect(await enterGiftCard(t.db, cartId, card.code)).toEqual({ ok: true });
    const base = testContext(t, { OWNER_EMAIL: "ada@owner.ng" }).config;
    // The owner's WhatsApp on: the alert is queued to the message outbox (nothing is sent here).
    const config = {
      ...base,
      messaging: { ...base.messaging, whatsapp: { token: "t", phoneNumberId: "1", appSecret: "s", verifyToken: "verify-me-please", apiUrl: "http://127.0.0.1:9", version: "v21.0" }, ownerWhatsapp: "2348011111111" },
    };
    const view = await checkoutView(t.db, buyer, PAYMENT);
    const placed = await placeCheckoutOrder(
      t.db,
      { id: buyer },
      { checkoutKey: view.checkoutKey, seen: view.seen, addressId: null, address: lagos, saveAddress: false, ...choices },
      { mail: { t: translatorFor("en"), config, user: { email: `credit-buyer-${engine}@example.com`, firstName: "Chioma" } } },
    );
    if (!placed.ok) throw new Error(placed.problem);
    const number = placed.order.number;
    const [mail] = await alerts(number);
    // ₦32,000.50: the card pays ₦10,000 first, then the account's ₦5,000; ₦17,000.50 is left, paid on delivery.
    expect(mail.text_body).toContain(`Total: ₦32,000.50\nGift card (${card.code}): −₦10,000.00\nStore credit: −₦5,000.00\nTo pay: ₦17,000.50\nPayment: Pay on delivery (unpaid)`);
    const [whatsapp] = await t.db.selectFrom("message_outbox").select(["to_phone", "template_params", "text_body"]).where("kind", "=", "new-order-alert").where("order_id", "=", placed.order.id).execute();
    expect(whatsapp.to_phone).toBe("+2348011111111");
    expect(JSON.parse(whatsapp.template_params)).toEqual([number, "₦32,000.50 (gift card −₦10,000.00; store credit −₦5,000.00; to pay ₦17,000.50)", `http://shop.test/admin/orders/${number}`]);
    // The card's code spends: it stays out of a message that passes through Meta.
    expect(whatsapp.text_body).not.toContain(card.code);

    // Paid wholly by what is left on the card: the alert says it is paid.
    // The account's cart again, emptied by the order.
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: oud, size_id: firstSizeOf(oud), quantity: 1, created_at: new Date().toISOString() }).execute();
    await t.db.insertInto("credit_ledger").values({ gift_card_id: card.id, user_id: null, amount: 5_000_000, reason: "issued", order_id: null, actor_id: owner, note: "topped up", created_at: new Date().toISOString() }).execute();
    expect(await enterGiftCard(t.db, cartId, card.code)).toEqual({ ok: true });
    const again = await checkoutView(t.db, buyer, PAYMENT);
    const paid = await placeCheckoutOrder(
      t.db,
      { id: buyer },
      { checkoutKey: again.checkoutKey, seen: again.seen, addressId: null, address: lagos, saveAddress: false, ...choices },
      { mail: { t: translatorFor("en"), config, user: { email: `credit-buyer-${engine}@example.com`, firstName: "Chioma" } } },
    );
    if (!paid.ok) throw new Error(paid.problem);
    const [paidMail] = await alerts(paid.order.number);
    expect(paidMail.text_body).toContain(`Gift card (${card.code}): −₦32,000.50\nTo pay: ₦0.00\nPayment: Pay on delivery (paid)`);
  });

  it("words the WhatsApp alert's amount with the discount and what credit paid, in the shop's language", () => {
    const en = translatorFor("en");
    expect(whatsAppAlertAmount(en, { total: 850_000 })).toBe("₦8,500.00");
    expect(whatsAppAlertAmount(en, { total: 850_000, discount: 150_000, promotionCode: "SAVE15" })).toBe("₦8,500.00 (discount SAVE15 −₦1,500.00)");
    expect(whatsAppAlertAmount(translatorFor("es"), { total: 850_000, discount: 150_000, promotionCode: "SAVE15", storeCredit: 850_000 })).toBe("₦8,500.00 (descuento SAVE15 −₦1,500.00; saldo a favor −₦8,500.00; a pagar ₦0.00)");
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
