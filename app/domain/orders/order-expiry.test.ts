import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, makeUser, firstSizeOf } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { onCatalogChange } from "../catalogue/catalog.server";
import { checkoutView, placeCheckoutOrder } from "./checkout.server";
import { expireUnpaidOrders, MAX_OPEN_CHECKOUT_ORDERS, MAX_OPEN_WHATSAPP_ORDERS_PER_CART } from "./order-expiry.server";
import { OrderError, placeWhatsAppOrder } from "./orders.server";
import { consumeAttempt, LIMITS, TooManyAttempts } from "../operations/rate-limits.server";
import { translatorFor } from "~/platform/translations.server";

const HOUR = 3_600_000;
const en = translatorFor("en");
const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
const config = { orderHoldHours: 48, publicUrl: "http://shop.test" };
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();

describe.each(ENGINES)("unpaid orders on %s", (engine) => {
  let t: TestDatabase;
  let carts = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const stockOf = async (id: number) => (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
  const statusOf = async (number: string) => (await t.db.selectFrom("orders").select("status").where("number", "=", number).executeTakeFirstOrThrow()).status;

  async function cartWith(userId: number | null, lines: { productId: number; quantity: number }[]) {
    const at = new Date().toISOString();
    const cartId = `expiry-cart-${++carts}-${"x".repeat(24)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    if (lines.length) await t.db.insertInto("cart_lines").values(lines.map((l) => ({ cart_id: cartId, product_id: l.productId, size_id: firstSizeOf(l.productId), quantity: l.quantity, created_at: at }))).execute();
    return cartId;
  }

  it("cancels pending orders older than the hold, returns the stock a checkout order held, and e-mails the customer", async () => {
    const [rose] = await makeProducts(t.db, [{ name: "Expiring Rose", price: 1_500_000, stock: 10 }]);
    const userId = await makeUser(t.db, "late-payer@example.com");
    const stale = await insertOrder(t.db, { userId, createdAt: hoursAgo(49), items: [{ productId: rose, quantity: 3 }] });
    const fresh = await insertOrder(t.db, { userId, createdAt: hoursAgo(47), items: [{ productId: rose, quantity: 2 }] });
    const handOff = await insertOrder(t.db, { channel: "whatsapp", userId: null, createdAt: hoursAgo(49), items: [{ productId: rose, quantity: 4 }] });
    const paid = await insertOrder(t.db, { userId, status: "confirmed", createdAt: hoursAgo(100), items: [{ productId: rose, quantity: 1 }] });
    // Paid online but not yet confirmed by the owner: money received, never expired.
    const paidOnline = await insertOrder(t.db, { userId, paymentMethod: "paystack", paidAt: hoursAgo(60), createdAt: hoursAgo(60), items: [{ productId: rose, quantity: 1 }] });
    // Pay on delivery the owner has not confirmed expires like the others (docs/decisions/213).
    const onDelivery = await insertOrder(t.db, { userId, paymentMethod: "on_delivery", createdAt: hoursAgo(60), items: [{ productId: rose, quantity: 1 }] });
    const transfer = await insertOrder(t.db, { userId, paymentMethod: "bank_transfer", createdAt: hoursAgo(60), items: [{ productId: rose, quantity: 1 }] });
    expect(await stockOf(rose)).toBe(10 - 3 - 2 - 1 - 3);

    const expired = await expireUnpaidOrders(t.db, config, en);
    expect(expired.sort()).toEqual([stale.number, handOff.number, transfer.number, onDelivery.number].sort());
    expect(await statusOf(paidOnline.number)).toBe("pending");
    expect(await statusOf(onDelivery.number)).toBe("cancelled");
    expect(await statusOf(transfer.number)).toBe("cancelled");
    expect(await statusOf(stale.number)).toBe("cancelled");
    expect(await statusOf(handOff.number)).toBe("cancelled");
    expect(await statusOf(fresh.number)).toBe("pending");
    expect(await statusOf(paid.number)).toBe("confirmed");
    // The checkout orders' 3 + 1 + 1 come back; the WhatsApp order never held any.
    expect(await stockOf(rose)).toBe(10 - 2 - 1 - 1);

    const events = await t.db.selectFrom("order_events").select(["status", "actor_user_id", "note"]).where("order_id", "=", stale.id).orderBy("id").execute();
    expect(events.at(-1)).toEqual({ status: "cancelled", actor_user_id: null, note: "Not paid within 48 hours: cancelled automatically" });
    const mails = await t.db.selectFrom("mail_outbox").select(["to_address", "kind", "subject", "text_body"]).where("kind", "=", "order-expired").execute();
    expect(mails).toHaveLength(3);
    expect(mails.find((m) => m.subject.includes(stale.number))).toMatchObject({ to_address: "late-payer@example.com", subject: `Your Unboxed order ${stale.number} has been cancelled` });
    const staleMail = mails.find((m) => m.subject.includes(stale.number))!;
    expect(staleMail.text_body).toContain("was not paid within 48 hours");
    expect(staleMail.text_body).toContain("₦45,000.00");

    // Nothing twice.
    expect(await expireUnpaidOrders(t.db, config, en)).toEqual([]);
    expect(await stockOf(rose)).toBe(6);
  });

  it("tells the page caches only the expired orders' products, unless one comes back into stock (docs/decisions/205)", async () => {
    // Earlier tests' stale orders are expired first.
    await expireUnpaidOrders(t.db, config, en);
    const heard: unknown[] = [];
    const stop = onCatalogChange((_where, scope) => heard.push(scope));
    try {
      const [oud, musk, last] = await makeProducts(t.db, [
        { name: "Returned Oud", price: 2_000_000, stock: 10 },
        { name: "Returned Musk", price: 2_000_000, stock: 10 },
        { name: "Returned Last", price: 2_000_000, stock: 1 },
      ]);
      await insertOrder(t.db, { createdAt: hoursAgo(49), items: [{ productId: oud, quantity: 2 }] });
      await insertOrder(t.db, { createdAt: hoursAgo(50), items: [{ productId: musk, quantity: 1 }, { productId: oud, quantity: 1 }] });
      expect(await expireUnpaidOrders(t.db, config, en)).toHaveLength(2);
      // Both orders of the run, told once.
      expect(heard).toHaveLength(1);
      expect((heard[0] as { ordered: number[] }).ordered.sort((a, b) => a - b)).toEqual([oud, musk].sort((a, b) => a - b));

      await insertOrder(t.db, { createdAt: hoursAgo(49), items: [{ productId: last, quantity: 1 }] });
      expect(await stockOf(last)).toBe(0);
      await expireUnpaidOrders(t.db, config, en);
      expect(heard.slice(1)).toEqual(["anything"]);
      // A WhatsApp order held no stock, but no longer counts as sold once cancelled.
      await insertOrder(t.db, { channel: "whatsapp", userId: null, createdAt: hoursAgo(49), items: [{ productId: musk, quantity: 1 }] });
      await expireUnpaidOrders(t.db, config, en);
      expect(heard.slice(2)).toEqual([{ ordered: [musk] }]);
      // Nothing expired: nothing told.
      await expireUnpaidOrders(t.db, config, en);
      expect(heard).toHaveLength(3);
    } finally {
      stop();
    }
  });

  it("expires each order once and returns its stock once when several instances run at the same time", async () => {
    const [musk] = await makeProducts(t.db, [{ name: "Expiring Musk", price: 1_000_000, stock: 100 }]);
    const userId = await makeUser(t.db, "many-unpaid@example.com");
    const numbers: string[] = [];
    for (let i = 0; i < 12; i++) numbers.push((await insertOrder(t.db, { userId, createdAt: hoursAgo(60), items: [{ productId: musk, quantity: 2 }] })).number);
    expect(await stockOf(musk)).toBe(100 - 24);
    const runs = await Promise.all([expireUnpaidOrders(t.db, config, en), expireUnpaidOrders(t.db, config, en), expireUnpaidOrders(t.db, config, en)]);
    expect(runs.flat().filter((n) => numbers.includes(n)).sort()).toEqual([...numbers].sort());
    expect(await stockOf(musk)).toBe(100);
    const cancelEvents = await t.db
      .selectFrom("order_events as e")
      .innerJoin("orders as o", "o.id", "e.order_id")
      .select("o.number")
      .where("o.number", "in", numbers)
      .where("e.status", "=", "cancelled")
      .execute();
    expect(cancelEvents).toHaveLength(12);
  });

  it("caps open unpaid checkout orders per account, with a Retry-After until the oldest expires", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Hoarded Oud", price: 2_000_000, stock: 40 }]);
    const userId = await makeUser(t.db, "hoarder@example.com");
    const cartId = await cartWith(userId, []);
    const checkout = async () => {
      // The cart holds 2 bottles each time (a refused order leaves it as it was): within what unpaid orders may hold (docs/decisions/213).
      await t.db.deleteFrom("cart_lines").where("cart_id", "=", cartId).execute();
      await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: oud, size_id: firstSizeOf(oud), quantity: 2, created_at: new Date().toISOString() }).execute();
      const view = await checkoutView(t.db, userId, PAYMENT);
      const choices = { deliveryMethod: "delivery", paymentMethod: "bank_transfer", expectedTotal: String(2 * 2_000_000 + 300_000), payment: PAYMENT, phone: "0803 123 4567" };
      return placeCheckoutOrder(t.db, { id: userId }, { checkoutKey: view.checkoutKey, seen: view.seen, addressId: null, address: lagos, saveAddress: false, ...choices }, { holdHours: 48 });
    };
    for (let i = 0; i < MAX_OPEN_CHECKOUT_ORDERS; i++) expect((await checkout()).ok).toBe(true);
    const refused = await checkout();
    expect(refused).toMatchObject({ ok: false, problem: "tooManyOpen", count: MAX_OPEN_CHECKOUT_ORDERS });
    if (refused.ok || refused.problem !== "tooManyOpen") throw new Error("expected a refusal");
    expect(refused.retryAfter).toBeGreaterThan(47 * 3600);
    expect(refused.retryAfter).toBeLessThanOrEqual(48 * 3600);
    expect(await stockOf(oud)).toBe(40 - 2 * MAX_OPEN_CHECKOUT_ORDERS);

    // Once one has expired, the shopper may order again.
    const [oldest] = await t.db.selectFrom("orders").select("id").where("user_id", "=", userId).orderBy("id").limit(1).execute();
    await t.db.updateTable("orders").set({ created_at: hoursAgo(49) }).where("id", "=", oldest.id).execute();
    await expireUnpaidOrders(t.db, config, en);
    expect((await checkout()).ok).toBe(true);
  });

  it("caps open WhatsApp orders per cart; pressing again for the same cart still finds its order", async () => {
    const [vetiver] = await makeProducts(t.db, [{ name: "Chatty Vetiver", price: 1_000_000, stock: 50 }]);
    const cartId = await cartWith(null, [{ productId: vetiver, quantity: 1 }]);
    const placed: Awaited<ReturnType<typeof placeWhatsAppOrder>>[] = [];
    for (let i = 0; i < MAX_OPEN_WHATSAPP_ORDERS_PER_CART; i++) {
      if (i > 0) await t.db.updateTable("cart_lines").set({ quantity: i + 1 }).where("cart_id", "=", cartId).execute();
      placed.push(await placeWhatsAppOrder(t.db, { cartId, userId: null }, { holdHours: 48 }));
    }
    expect(placed.every((o) => !o.reused)).toBe(true);
    // The same cart content again: the order already recorded, not a refusal.
    expect(await placeWhatsAppOrder(t.db, { cartId, userId: null })).toMatchObject({ number: placed.at(-1)!.number, reused: true });
    await t.db.updateTable("cart_lines").set({ quantity: 9 }).where("cart_id", "=", cartId).execute();
    const refusal = await placeWhatsAppOrder(t.db, { cartId, userId: null }, { holdHours: 48 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OrderError);
    expect((refusal as OrderError).problem).toBe("tooManyOpen");
    expect((refusal as OrderError).retryAfter).toBeGreaterThan(47 * 3600);
    const orders = await t.db.selectFrom("orders").select("id").where("cart_id", "=", cartId).execute();
    expect(orders).toHaveLength(MAX_OPEN_WHATSAPP_ORDERS_PER_CART);
  });

  it("limits new WhatsApp orders per IP address; a repeated press does not count", async () => {
    const context = { ...testContext(t), clientIp: `203.0.113.${engine === "sqlite" ? 71 : 72}` };
    const countNewOrder = () => consumeAttempt(context, "whatsappIp", context.clientIp);
    const [amber] = await makeProducts(t.db, [{ name: "Amber Flood", price: 1_000_000, stock: 50 }]);
    const limit = LIMITS.whatsappIp.points;
    let first: string | null = null;
    for (let i = 0; i < limit; i++) {
      const cartId = await cartWith(null, [{ productId: amber, quantity: 1 }]);
      const order = await placeWhatsAppOrder(t.db, { cartId, userId: null }, { countNewOrder });
      first ??= cartId;
      expect(order.reused).toBe(false);
    }
    expect(await placeWhatsAppOrder(t.db, { cartId: first, userId: null }, { countNewOrder })).toMatchObject({ reused: true });
    const cartId = await cartWith(null, [{ productId: amber, quantity: 1 }]);
    const refusal = await placeWhatsAppOrder(t.db, { cartId, userId: null }, { countNewOrder }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyAttempts);
    expect((refusal as TooManyAttempts).retryAfterSeconds).toBeGreaterThan(0);
    expect(await t.db.selectFrom("orders").select("id").where("cart_id", "=", cartId).execute()).toEqual([]);
  });
});
