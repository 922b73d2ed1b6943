import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstSizeOf, makeProducts, makeUser } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { checkoutView, placeCheckoutOrder } from "../orders/checkout.server";
import * as delivery from "../orders/delivery.server";

// A new shop (the seeded zones, neither Paystack nor bank details) sells everywhere it delivers: the
// checkout says why a state cannot pay and offers WhatsApp, and the dashboard names those states.

const NONE = { paystack: false, bankTransfer: false, payOnDelivery: true };

describe.each(ENGINES)("a new shop's ways to pay on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("the setup checklist names the 36 states shoppers cannot pay from, until payment is set up", async () => {
    const shopSetup = (delivery as Record<string, unknown>).shopSetup as ((db: unknown, config: unknown) => Promise<Record<string, unknown>>) | undefined;
    expect(shopSetup).toBeTypeOf("function");
    const fresh = await shopSetup!(t.db, testContext(t).config);
    expect(fresh).toMatchObject({ paymentOnline: false, bankDetails: false, ownerEmail: false, zones: 3 });
    const blocked = fresh.statesWithoutPayment as string[];
    expect(blocked).toHaveLength(36);
    expect(blocked).not.toContain("Lagos");
    expect(blocked).toContain("Kano");
    expect(blocked).toContain("Federal Capital Territory");
    const withBank = await shopSetup!(t.db, testContext(t, { BANK_NAME: "GTBank", BANK_ACCOUNT_NAME: "Unboxed Ltd", BANK_ACCOUNT_NUMBER: "0123456789", OWNER_EMAIL: "owner@example.com" }).config);
    expect(withBank).toMatchObject({ paymentOnline: true, bankDetails: true, ownerEmail: true, statesWithoutPayment: [] });
  });

  it("an order to a state with no way to pay is refused with the reason and the state, not 'choose a way to pay'", async () => {
    const [oud] = await makeProducts(t.db, [{ name: "Kano Oud", price: 1_000_000, stock: 5 }]);
    const userId = await makeUser(t.db, "kano@example.com");
    const at = new Date().toISOString();
    await t.db.insertInto("carts").values({ id: `kano-cart-${"x".repeat(24)}`, user_id: userId, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: `kano-cart-${"x".repeat(24)}`, product_id: oud, size_id: firstSizeOf(oud), quantity: 1, created_at: at }).execute();
    const view = await checkoutView(t.db, userId, NONE);
    const result = await placeCheckoutOrder(t.db, { id: userId }, {
      checkoutKey: view.checkoutKey,
      seen: view.seen,
      addressId: null,
      address: { street: "1 Bompai Road", city: "Kano", state: "kano", country: "Nigeria" },
      saveAddress: false,
      phone: "0803 123 4567",
      deliveryMethod: "delivery",
      paymentMethod: "on_delivery",
      expectedTotal: String(1_000_000 + 750_000),
      payment: NONE,
    });
    expect(result).toEqual({ ok: false, problem: "noPayment", where: "Kano" });
  });
});
