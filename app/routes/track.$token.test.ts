import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts } from "../../tests/support/catalogue";
import { browserRequest, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { insertOrder } from "../../tests/support/orders";
import { tokenHash } from "~/domain/orders/order-tracking.server";
import { loader } from "./track.$token";

// A guest's private link shows the order's money as the account's order page does: the discount code's
// line (docs/decisions/223) and what a gift card paid, with what is left (docs/decisions/224).

describe.each(ENGINES)("an order's private link on %s", (engine) => {
  let t: TestDatabase;
  const token = "A".repeat(20) + "b_-".repeat(7) + "cd";

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const [rose] = await makeProducts(t.db, [{ name: "Rose Noir", price: 1_000_000, stock: 10 }]);
    const placed = await insertOrder(t.db, { items: [{ productId: rose, quantity: 2 }], discount: 200_000, promotionCode: "AMAKA10", giftCard: 500_000, giftCardCode: "GIFTCARD2345ABCD" });
    await t.db.updateTable("orders").set({ access_token_hash: tokenHash(token), email: "guest@example.com", customer_name: "Ngozi" }).where("id", "=", placed.id).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  const open = (lang: string) =>
    loader({ request: browserRequest(`/track/${token}`, { headers: { Cookie: `lng=${lang}` } }), context: testContext(t), params: { token } } as unknown as Parameters<typeof loader>[0]);

  it("carries the discount's line and the gift card's, with what is left to pay, in the shopper's language", async () => {
    expect(token).toHaveLength(43);
    const en = await open("en");
    expect(en.order).toMatchObject({ total: 1_800_000, discount: 200_000, giftCard: 500_000, storeCredit: 0 });
    expect(en.discountLabel).toBe("Discount (AMAKA10)");
    expect(en.creditLines).toEqual([
      { label: "Gift card (GIFTCARD2345ABCD)", amount: "−₦5,000.00" },
      { label: "To pay", amount: "₦13,000.00" },
    ]);
    expect((await open("es")).creditLines).toEqual([
      { label: "Tarjeta regalo (GIFTCARD2345ABCD)", amount: "−₦5,000.00" },
      { label: "A pagar", amount: "₦13,000.00" },
    ]);
  });
});
