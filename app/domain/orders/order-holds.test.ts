import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstSizeOf, makeProducts, makeUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { translatorFor } from "~/platform/translations.server";
import { type CheckoutOptions, checkoutView, placeCheckoutOrder } from "./checkout.server";
import * as expiry from "./order-expiry.server";

// Unpaid orders hold a bounded number of units, however they are to be paid (docs/decisions/213).

const HOUR = 3_600_000;
const en = translatorFor("en");
const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: false, payOnDelivery: true };
const HOLDS = { perProduct: 5, perAccount: 15, perIp: 30 };
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();

describe.each(ENGINES)("stock held by unpaid orders on %s", (engine) => {
  let t: TestDatabase;
  let shoppers = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const stockOf = async (id: number) => (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;

  async function shopper(productId: number, quantity: number): Promise<number> {
    const userId = await makeUser(t.db, `hoarder${++shoppers}@example.com`);
    await fillCart(userId, productId, quantity);
    return userId;
  }

  async function fillCart(userId: number, productId: number, quantity: number) {
    const at = new Date().toISOString();
    const cart = await t.db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirst();
    const cartId = cart?.id ?? `hold-cart-${userId}-${"x".repeat(24)}`;
    if (!cart) await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: productId, size_id: firstSizeOf(productId), quantity, created_at: at }).execute();
  }

  /** Pay on delivery to Lagos (the seeded zone offers it), as the checkout page would send it. */
  async function order(userId: number, options: CheckoutOptions) {
    const view = await checkoutView(t.db, userId, PAYMENT);
    const fee = view.cart.subtotal >= 50_000_000 ? 0 : 300_000;
    return placeCheckoutOrder(
      t.db,
      { id: userId },
      {
        checkoutKey: view.checkoutKey,
        seen: view.seen,
        addressId: null,
        address: lagos,
        saveAddress: false,
        phone: "0803 123 4567",
        deliveryMethod: "delivery",
        paymentMethod: "on_delivery",
        expectedTotal: String(view.cart.subtotal + fee),
        payment: PAYMENT,
      },
      options,
    );
  }

  it("refuses more than the per-product limit in one order", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Limited Oud", price: 1_000_000, stock: 40 }]);
    const userId = await shopper(oud, 40);
    const refused = await order(userId, { holds: HOLDS, clientIp: "198.51.100.1" });
    expect(refused).toMatchObject({ ok: false, problem: "overLimit", productName: "Limited Oud", limit: 5 });
    expect(await stockOf(oud)).toBe(40);
  });

  it("one account cannot hold more units unpaid than its cap, from whatever address", async () => {
    const [a, b] = await makeProducts(t.db, [
      { name: "Account Cap A", price: 1_000_000, stock: 40 },
      { name: "Account Cap B", price: 1_000_000, stock: 40 },
    ]);
    const userId = await shopper(a, 5);
    const holds = { perProduct: 5, perAccount: 8, perIp: 100 };
    expect((await order(userId, { holds, clientIp: "198.51.100.2" })).ok).toBe(true);
    await fillCart(userId, b, 5);
    const refused = await order(userId, { holds, clientIp: "198.51.100.3" });
    expect(refused).toMatchObject({ ok: false, problem: "tooManyHeld", by: "account", limit: 8 });
    expect(await stockOf(b)).toBe(40);
  });

  it("many accounts from one address, ordering at once, cannot sell out a product", async () => {
    const [musk] = await makeProducts(t.db, [{ name: "Hoarded Musk", price: 1_000_000, stock: 40 }]);
    const accounts: number[] = [];
    for (let i = 0; i < 12; i++) accounts.push(await shopper(musk, 5));
    const results = await Promise.all(accounts.map((userId) => order(userId, { holds: HOLDS, clientIp: "203.0.113.66" })));
    const placed = results.filter((r) => r.ok);
    expect(placed).toHaveLength(6);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.problem === "tooManyHeld")).toBe(true);
    expect(await stockOf(musk)).toBe(10);
    // Another shopper, from another address, can still buy it.
    const other = await shopper(musk, 2);
    expect((await order(other, { holds: HOLDS, clientIp: "192.0.2.10" })).ok).toBe(true);
    // Once the owner confirms one of the attacker's orders, it no longer counts as held.
    const first = placed[0];
    if (!first.ok) throw new Error("unreachable");
    await t.db.updateTable("orders").set({ status: "confirmed" }).where("id", "=", first.order.id).execute();
    const again = await shopper(musk, 5);
    expect((await order(again, { holds: HOLDS, clientIp: "203.0.113.66" })).ok).toBe(true);
  });

  it("pay-on-delivery orders the owner has not confirmed expire like the others; confirmed ones do not", async () => {
    const [rose] = await makeProducts(t.db, [{ name: "Unconfirmed Rose", price: 1_500_000, stock: 10 }]);
    const userId = await makeUser(t.db, "cod-shopper@example.com");
    const stale = await insertOrder(t.db, { userId, paymentMethod: "on_delivery", createdAt: hoursAgo(49), items: [{ productId: rose, quantity: 3 }] });
    const confirmed = await insertOrder(t.db, { userId, status: "confirmed", paymentMethod: "on_delivery", createdAt: hoursAgo(60), items: [{ productId: rose, quantity: 2 }] });
    expect(await stockOf(rose)).toBe(5);
    const expired = await expiry.expireUnpaidOrders(t.db, { orderHoldHours: 48, publicUrl: "http://shop.test" }, en);
    expect(expired).toContain(stale.number);
    expect(expired).not.toContain(confirmed.number);
    expect(await stockOf(rose)).toBe(8);
    const mail = await t.db.selectFrom("mail_outbox").select("text_body").where("subject", "like", `%${stale.number}%`).executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`could not confirm your pay-on-delivery order ${stale.number} within 48 hours`);
  });

  it("warns the owner once at half the hold time of a pay-on-delivery order still unconfirmed", async () => {
    const [iris] = await makeProducts(t.db, [{ name: "Waiting Iris", price: 1_000_000, stock: 10 }]);
    const userId = await makeUser(t.db, "cod-waiting@example.com");
    const waiting = await insertOrder(t.db, { userId, paymentMethod: "on_delivery", createdAt: hoursAgo(25), items: [{ productId: iris, quantity: 1 }] });
    const young = await insertOrder(t.db, { userId, paymentMethod: "on_delivery", createdAt: hoursAgo(2), items: [{ productId: iris, quantity: 1 }] });
    const config = { orderHoldHours: 48, publicUrl: "http://shop.test", shop: { ownerEmails: ["owner@example.com", "partner@example.com"] } };
    const warn = (expiry as Record<string, unknown>).warnOwnerOfUnconfirmed as
      | ((db: unknown, c: typeof config, t: typeof en) => Promise<string[]>)
      | undefined;
    expect(warn).toBeTypeOf("function");
    expect(await warn!(t.db, config, en)).toEqual([waiting.number]);
    expect(await warn!(t.db, config, en)).toEqual([]);
    const mails = await t.db.selectFrom("mail_outbox").select(["to_address", "text_body"]).where("kind", "=", "order-hold-warning").orderBy("to_address").execute();
    expect(mails.map((m) => m.to_address)).toEqual(["owner@example.com", "partner@example.com"]);
    expect(mails[0].text_body).toContain(`http://shop.test/admin/orders/${waiting.number}`);
    expect(mails[0].text_body).not.toContain(young.number);
  });
});
