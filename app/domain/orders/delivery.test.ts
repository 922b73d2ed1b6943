import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, makeUser, firstSizeOf } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { NIGERIAN_STATES } from "~/lib/nigeria";
import { type PaymentOptions, paymentMethodsFor, quoteDelivery } from "~/lib/delivery";
import { type CheckoutInput, checkoutView, placeCheckoutOrder } from "./checkout.server";
import { loadDeliveryTable } from "./delivery.server";

const kano = { street: "4 Bompai Road", city: "Kano", state: "Kano", country: "Nigeria" };
const ALL: PaymentOptions = { paystack: true, bankTransfer: true, payOnDelivery: true };

describe.each(ENGINES)("delivery fees and ways to pay at checkout on %s", (engine) => {
  let t: TestDatabase;
  let users = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function shopper(price: number, quantity = 1) {
    const [productId] = await makeProducts(t.db, [{ name: `Scent ${++users}`, price, stock: 10 }]);
    const userId = await makeUser(t.db, `delivery${users}@example.com`);
    const at = new Date().toISOString();
    const cartId = `cart-delivery-${users}-${"y".repeat(20)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: productId, size_id: firstSizeOf(productId), quantity, created_at: at }).execute();
    return { userId, productId };
  }

  async function checkout(userId: number, input: Partial<CheckoutInput>) {
    const view = await checkoutView(t.db, userId, ALL);
    return placeCheckoutOrder(t.db, { id: userId }, {
      checkoutKey: view.checkoutKey,
      seen: view.seen,
      addressId: null,
      address: kano,
      saveAddress: false,
      phone: "0803 123 4567",
      deliveryMethod: "delivery",
      paymentMethod: "bank_transfer",
      expectedTotal: "",
      payment: ALL,
      ...input,
    });
  }

  const orderRow = (id: number) => t.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const orderCount = async (userId: number) => (await t.db.selectFrom("orders").select("id").where("user_id", "=", userId).execute()).length;

  it("seeds a Lagos shop's defaults: every state in a zone, a free-delivery threshold and pick-up", async () => {
    const table = await loadDeliveryTable(t.db);
    expect(table.zones.map((z) => [z.name, z.fee, z.payOnDelivery])).toEqual([
      ["Lagos", 300_000, true],
      ["South-West", 500_000, false],
      ["Rest of Nigeria", 750_000, false],
    ]);
    expect(Object.keys(table.stateZone).sort()).toEqual([...NIGERIAN_STATES].sort());
    expect(table.freeFrom).toBe(50_000_000);
    expect(table.pickup.enabled).toBe(true);
    const quote = quoteDelivery(table, { method: "delivery", state: "kano", country: " nigeria ", subtotal: 1 });
    expect(quote).toMatchObject({ ok: true, quote: { fee: 750_000, zone: "Rest of Nigeria" } });
  });

  it("a shopper in Kano first sees Kano's fee and total, then places the order with that fee snapshotted", async () => {
    const { userId } = await shopper(4_500_000);
    // Without JavaScript the page did not know the total: nothing is placed, the real one is shown.
    const first = await checkout(userId, {});
    expect(first).toMatchObject({ ok: false, problem: "confirm", subtotal: 4_500_000, total: 5_250_000, where: "Kano", quote: { fee: 750_000, zone: "Rest of Nigeria" } });
    expect(await orderCount(userId)).toBe(0);

    const placed = await checkout(userId, { expectedTotal: "5250000" });
    if (!placed.ok) throw new Error(placed.problem);
    expect(placed.order).toMatchObject({ subtotal: 4_500_000, shipping: 750_000, total: 5_250_000, paymentMethod: "bank_transfer", paymentStatus: "unpaid" });
    // Editing the zones later does not rewrite the order.
    await t.db.updateTable("delivery_zones").set({ fee: 999_900, name: "North" }).where("name", "=", "Rest of Nigeria").execute();
    expect(await orderRow(placed.order.id)).toMatchObject({
      shipping: 750_000,
      total: 5_250_000,
      delivery_method: "delivery",
      delivery_zone: "Rest of Nigeria",
      delivery_estimate: "3-7 working days",
      payment_method: "bank_transfer",
      payment_status: "unpaid",
    });
    await t.db.updateTable("delivery_zones").set({ fee: 750_000, name: "Rest of Nigeria" }).where("name", "=", "North").execute();
  });

  it("delivers free from the threshold, and FREE only then", async () => {
    const { userId } = await shopper(25_000_000, 2);
    const placed = await checkout(userId, { expectedTotal: "50000000" });
    if (!placed.ok) throw new Error(placed.problem);
    expect(placed.order).toMatchObject({ subtotal: 50_000_000, shipping: 0, total: 50_000_000 });
  });

  it("picks up at the shop for free without an address", async () => {
    const { userId } = await shopper(4_800_000);
    const placed = await checkout(userId, { deliveryMethod: "pickup", address: {}, paymentMethod: "on_delivery", expectedTotal: "4800000" });
    if (!placed.ok) throw new Error(placed.problem);
    expect(await orderRow(placed.order.id)).toMatchObject({
      shipping: 0,
      total: 4_800_000,
      delivery_method: "pickup",
      delivery_zone: "Unboxed, 12 Admiralty Way, Lekki Phase 1, Lagos",
      ship_street: null,
      payment_method: "on_delivery",
    });
  });

  it("refuses what the form cannot decide: another country, a made-up state, method, way to pay or total", async () => {
    const { userId } = await shopper(4_500_000);
    expect(await checkout(userId, { address: { ...kano, state: "Texas", country: "USA" }, expectedTotal: "4500000" })).toEqual({
      ok: false,
      problem: "delivery",
      reason: "country",
    });
    expect(await checkout(userId, { address: { ...kano, state: "Atlantis" } })).toMatchObject({ ok: false, problem: "invalidAddress", errors: { state: "address.errors.state" } });
    expect(await checkout(userId, { deliveryMethod: "drone", expectedTotal: "5250000" })).toEqual({ ok: false, problem: "delivery", reason: "state" });
    expect(await checkout(userId, { paymentMethod: "cash", expectedTotal: "5250000" })).toEqual({ ok: false, problem: "payment" });
    // Pay on delivery is offered in Lagos and at the shop, not in Kano.
    expect(await checkout(userId, { paymentMethod: "on_delivery", expectedTotal: "5250000" })).toEqual({ ok: false, problem: "payment" });
    // Paystack is not set up in this shop.
    const view = await checkoutView(t.db, userId, ALL);
    const noPaystack = { ...ALL, paystack: false };
    expect(
      await placeCheckoutOrder(t.db, { id: userId }, {
        checkoutKey: view.checkoutKey,
        seen: view.seen,
        addressId: null,
        address: kano,
        saveAddress: false,
        phone: "0803 123 4567",
        deliveryMethod: "delivery",
        paymentMethod: "paystack",
        expectedTotal: "5250000",
        payment: noPaystack,
      }),
    ).toEqual({ ok: false, problem: "payment" });
    // A total that is not the real one never becomes the order's total: the real one is shown instead.
    for (const forged of ["4500000", "1", "-5", "5250000.5", "1e9", "x"]) {
      expect(await checkout(userId, { expectedTotal: forged })).toMatchObject({ ok: false, problem: "confirm", total: 5_250_000 });
    }
    expect(await orderCount(userId)).toBe(0);
  });

  it("shows the new total when the fees change between the page and the order", async () => {
    const { userId } = await shopper(4_500_000);
    await t.db.updateTable("delivery_zones").set({ fee: 900_000 }).where("name", "=", "Rest of Nigeria").execute();
    try {
      expect(await checkout(userId, { expectedTotal: "5250000" })).toMatchObject({ ok: false, problem: "confirm", total: 5_400_000 });
      expect(await orderCount(userId)).toBe(0);
      const placed = await checkout(userId, { expectedTotal: "5400000" });
      expect(placed).toMatchObject({ ok: true, order: { shipping: 900_000, total: 5_400_000 } });
    } finally {
      await t.db.updateTable("delivery_zones").set({ fee: 750_000 }).where("name", "=", "Rest of Nigeria").execute();
    }
  });
});

describe("ways to pay", () => {
  const table = {
    zones: [
      { id: 1, name: "Lagos", fee: 300_000, estimate: "", payOnDelivery: true },
      { id: 2, name: "Far", fee: 700_000, estimate: "", payOnDelivery: false },
    ],
    stateZone: { Lagos: 1, Kano: 2 },
    freeFrom: null,
    pickup: { enabled: false, address: "", estimate: "" },
  };
  it("offers only what is set up, and pay on delivery only where the zone allows it", () => {
    const lagos = quoteDelivery(table, { method: "delivery", state: "Lagos", country: "Nigeria", subtotal: 100 });
    const far = quoteDelivery(table, { method: "delivery", state: "Kano", country: "Nigeria", subtotal: 100 });
    if (!lagos.ok || !far.ok) throw new Error("expected quotes");
    expect(paymentMethodsFor(ALL, lagos.quote)).toEqual(["paystack", "bank_transfer", "on_delivery"]);
    expect(paymentMethodsFor(ALL, far.quote)).toEqual(["paystack", "bank_transfer"]);
    expect(paymentMethodsFor({ paystack: false, bankTransfer: false, payOnDelivery: true }, lagos.quote)).toEqual(["on_delivery"]);
    expect(quoteDelivery(table, { method: "pickup", state: "", country: "", subtotal: 1 })).toEqual({ ok: false, problem: "pickup" });
    expect(quoteDelivery(table, { method: "delivery", state: "Oyo", country: "Nigeria", subtotal: 1 })).toEqual({ ok: false, problem: "state" });
  });
});
