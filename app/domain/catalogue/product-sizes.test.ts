import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translatorFor } from "~/platform/translations.server";
import { addBrand, addCategory, addProduct, makeUser } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { countingStatements } from "../../../tests/support/statements";
import { changeOrderStatus } from "../orders/admin-orders.server";
import { addLine, cartView, decrementLine, incrementLine, removeLine, setLineQuantity } from "../shopper/cart.server";
import { productDetail } from "./catalog.server";
import { checkoutView, placeCheckoutOrder } from "../orders/checkout.server";
import { expireUnpaidOrders } from "../orders/order-expiry.server";
import { createOrderFromLines, findOrderByNumber, OrderError, placeWhatsAppOrder, whatsAppMessage } from "../orders/orders.server";
import { listSizes } from "./product-sizes.server";
import { adjustStock } from "./stock-adjustments.server";

const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
const lagosTotal = (subtotal: number) => (subtotal >= 50_000_000 ? subtotal : subtotal + 300_000);

describe.each(ENGINES)("sizes on %s", (engine) => {
  let t: TestDatabase;
  let brandId: number;
  let categoryId: number;
  let n = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    brandId = (await addBrand(t.db)).id;
    categoryId = (await addCategory(t.db)).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** A product in 50 ml and 100 ml (the "Standard" size every new product gets, renamed, and one more). */
  async function twoSizes(small: { price: number; stock: number; discount?: number | null }, large: { price: number; stock: number; discount?: number | null }) {
    const { id } = await addProduct(t.db, { brandId, categoryId, name: `Sauvage ${++n}`, price: 1, stock: 0 });
    const at = new Date().toISOString();
    await t.db
      .updateTable("product_sizes")
      .set({ label: "50 ml", ml: 50, price: small.price, discount: small.discount ?? null, stock: small.stock, sku: `SV-${n}-50` })
      .where("product_id", "=", id)
      .execute();
    await t.db
      .insertInto("product_sizes")
      .values({ product_id: id, label: "100 ml", ml: 100, sku: `SV-${n}-100`, price: large.price, discount: large.discount ?? null, stock: large.stock, position: 1, created_at: at, updated_at: at })
      .execute();
    const [s50, s100] = await listSizes(t.db, id);
    return { id, s50: s50.id, s100: s100.id };
  }

  const product = (id: number) => t.db.selectFrom("products").select(["price", "discount", "price_max", "stock"]).where("id", "=", id).executeTakeFirstOrThrow();
  const sizeStock = async (id: number) => (await t.db.selectFrom("product_sizes").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;

  async function userCart() {
    const userId = await makeUser(t.db, `sizes-${engine}-${++n}@example.com`);
    const at = new Date().toISOString();
    const cartId = `cart-sizes-${engine}-${n}-${"x".repeat(20)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    return { userId, cartId };
  }

  it("gives every new product one size from its own price, discount and stock", async () => {
    const { id } = await addProduct(t.db, { brandId, categoryId, price: 4_500_000, discount: 500_000, stock: 7 });
    expect(await listSizes(t.db, id)).toEqual([
      { id: expect.any(Number), productId: id, label: "Standard", ml: null, sku: null, price: 4_500_000, discount: 500_000, stock: 7, position: 0, saleEnds: null },
    ]);
    expect(await product(id)).toEqual({ price: 4_500_000, discount: 500_000, price_max: 4_500_000, stock: 7 });
  });

  it("keeps the product's price (the cheapest size), dearest price and stock (the sum) on every size change", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 3, discount: 1_000_000 }, { price: 9_500_000, stock: 2 });
    expect(await product(id)).toEqual({ price: 6_000_000, discount: 1_000_000, price_max: 9_500_000, stock: 5 });
    await t.db.updateTable("product_sizes").set({ price: 12_000_000, discount: null }).where("id", "=", s50).execute();
    expect(await product(id)).toEqual({ price: 9_500_000, discount: null, price_max: 12_000_000, stock: 5 });
    await t.db.updateTable("product_sizes").set({ stock: 10 }).where("id", "=", s100).execute();
    expect((await product(id)).stock).toBe(13);
    await t.db.deleteFrom("product_sizes").where("id", "=", s100).execute();
    expect(await product(id)).toEqual({ price: 12_000_000, discount: null, price_max: 12_000_000, stock: 3 });
    // Two sizes with one label, or one SKU twice, are refused by the database too.
    const at = new Date().toISOString();
    await expect(
      t.db.insertInto("product_sizes").values({ product_id: id, label: "50 ml", price: 1, stock: 0, created_at: at, updated_at: at }).execute(),
    ).rejects.toThrow();
    await expect(
      t.db.insertInto("product_sizes").values({ product_id: id, label: "75 ml", sku: `SV-${n}-50`, price: 1, stock: 0, created_at: at, updated_at: at }).execute(),
    ).rejects.toThrow();
  });

  it("shows the sizes on the product page's data", async () => {
    const { id } = await twoSizes({ price: 6_000_000, stock: 0 }, { price: 9_500_000, stock: 2 });
    const detail = await productDetail(t.db, id);
    expect(detail).toMatchObject({ price: 6_000_000, priceMax: 9_500_000, stock: 2 });
    expect(detail!.sizes.map((s) => [s.label, s.price, s.stock])).toEqual([
      ["50 ml", 6_000_000, 0],
      ["100 ml", 9_500_000, 2],
    ]);
    // Read with the product in one statement, the same sizes as listSizes, in the owner's order.
    await t.db.updateTable("product_sizes").set({ position: 9, sku: "LAST-1", discount: 500_000 }).where("product_id", "=", id).where("label", "=", "50 ml").execute();
    const counted = countingStatements(t.db);
    const again = await productDetail(counted.db, id);
    expect(counted.statements).toHaveLength(1);
    expect(again!.sizes).toEqual(await listSizes(t.db, id));
    expect(again!.sizes.map((s) => [s.label, s.discount])).toEqual([
      ["100 ml", null],
      ["50 ml", 500_000],
    ]);
    expect(again!.sizes[1].sku).toBe("LAST-1");
  });

  it("keeps one cart line per size, each with its own price and stock limit", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 2 }, { price: 9_500_000, stock: 1 });
    const { cartId } = await userCart();
    expect(await addLine(t.db, cartId, id, s50)).toMatchObject({ ok: true, kind: "added" });
    expect(await addLine(t.db, cartId, id, s100)).toMatchObject({ ok: true, kind: "added" });
    expect(await addLine(t.db, cartId, id, s100)).toMatchObject({ ok: true, kind: "alreadyInCart" });
    expect(await incrementLine(t.db, cartId, id, s50)).toMatchObject({ ok: true });
    expect(await incrementLine(t.db, cartId, id, s100)).toMatchObject({ ok: false, kind: "stockLimit", available: 1 });
    expect(await setLineQuantity(t.db, cartId, id, 3, s50)).toMatchObject({ ok: false, kind: "stockLimit", available: 2 });
    let view = await cartView(t.db, cartId);
    expect(view.lines.map((l) => [l.sizeId, l.sizeLabel, l.quantity, l.unitPrice])).toEqual([
      [s50, "50 ml", 2, 6_000_000],
      [s100, "100 ml", 1, 9_500_000],
    ]);
    expect(view.subtotal).toBe(2 * 6_000_000 + 9_500_000);
    expect(await decrementLine(t.db, cartId, id, s100)).toMatchObject({ ok: true, kind: "removed" });
    await removeLine(t.db, cartId, id, s50);
    view = await cartView(t.db, cartId);
    expect(view.lines).toEqual([]);
  });

  it("refuses a size of another product, and a sold-out size, when adding", async () => {
    const a = await twoSizes({ price: 6_000_000, stock: 0 }, { price: 9_500_000, stock: 1 });
    const b = await twoSizes({ price: 6_000_000, stock: 1 }, { price: 9_500_000, stock: 1 });
    const { cartId } = await userCart();
    expect(await addLine(t.db, cartId, a.id, b.s50)).toMatchObject({ ok: false, kind: "unknownProduct" });
    expect(await addLine(t.db, cartId, a.id, a.s50)).toMatchObject({ ok: false, kind: "outOfStock" });
    // Without a size, the first one in stock.
    expect(await addLine(t.db, cartId, a.id)).toMatchObject({ ok: true, kind: "added" });
    expect((await cartView(t.db, cartId)).lines.map((l) => l.sizeId)).toEqual([a.s100]);
  });

  it("orders name the size, take its stock only, and give it back when cancelled", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 3 }, { price: 9_500_000, stock: 4 });
    const admin = await makeUser(t.db, `sizes-admin-${engine}@example.com`, "owner");
    const order = await createOrderFromLines(t.db, {
      channel: "checkout",
      userId: null,
      takeFromStock: true,
      lines: [
        { productId: id, sizeId: s100, quantity: 2 },
        { productId: id, sizeId: s50, quantity: 1 },
      ],
    });
    expect(order.items.map((i) => [i.name, i.sizeLabel, i.unitPrice, i.quantity])).toEqual([
      [`Sauvage ${n} (100 ml)`, "100 ml", 9_500_000, 2],
      [`Sauvage ${n} (50 ml)`, "50 ml", 6_000_000, 1],
    ]);
    expect(order.subtotal).toBe(2 * 9_500_000 + 6_000_000);
    expect([await sizeStock(s50), await sizeStock(s100), (await product(id)).stock]).toEqual([2, 2, 4]);
    const stored = await findOrderByNumber(t.db, order.number);
    expect(stored!.items.map((i) => [i.sizeId, i.sizeLabel])).toEqual([
      [s100, "100 ml"],
      [s50, "50 ml"],
    ]);
    // The WhatsApp text names the size through the item's name.
    const text = whatsAppMessage(translatorFor("en"), stored!);
    expect(text).toContain(`• Sauvage ${n} (100 ml) × 2: ₦190,000.00`);

    expect(await changeOrderStatus(testContext(t), { number: order.number, from: "pending", to: "cancelled", note: null, actorId: admin })).toMatchObject({ ok: true });
    expect([await sizeStock(s50), await sizeStock(s100), (await product(id)).stock]).toEqual([3, 4, 7]);

    // Asking for more of a size than it has is refused, whatever the other size holds.
    const refused = await createOrderFromLines(t.db, { channel: "checkout", userId: null, takeFromStock: true, lines: [{ productId: id, sizeId: s50, quantity: 4 }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OrderError);
    expect(refused).toMatchObject({ problem: "notEnoughStock", available: 3, productName: `Sauvage ${n} (50 ml)` });
  });

  it("a WhatsApp order of two sizes of one perfume records both lines", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 3 }, { price: 9_500_000, stock: 4 });
    const { cartId, userId } = await userCart();
    await addLine(t.db, cartId, id, s50);
    await addLine(t.db, cartId, id, s100);
    const order = await placeWhatsAppOrder(t.db, { cartId, userId });
    expect(order.items.map((i) => i.sizeId).sort()).toEqual([s50, s100].sort());
    expect(order.total).toBe(15_500_000);
  });

  it("returns an expired order's bottles to their sizes", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 3 }, { price: 9_500_000, stock: 4 });
    const order = await createOrderFromLines(t.db, { channel: "checkout", userId: null, takeFromStock: true, lines: [{ productId: id, sizeId: s100, quantity: 3 }] });
    await t.db.updateTable("orders").set({ created_at: "2020-01-01T00:00:00.000Z", payment_method: "bank_transfer" }).where("id", "=", order.id).execute();
    expect(await sizeStock(s100)).toBe(1);
    expect(await expireUnpaidOrders(t.db, testContext(t).config, translatorFor("en"))).toEqual([order.number]);
    expect([await sizeStock(s50), await sizeStock(s100), (await product(id)).stock]).toEqual([3, 4, 7]);
  });

  it("adjusts the stock of one size, and writes the size in the history", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 3 }, { price: 9_500_000, stock: 4 });
    const admin = await makeUser(t.db, `sizes-stock-${engine}-${n}@example.com`, "owner");
    expect(await adjustStock(t.db, id, { reason: "received", change: 6, note: null, expected: null, sizeId: s100 }, admin)).toEqual({
      ok: true,
      name: `Sauvage ${n} (100 ml)`,
      before: 4,
      after: 10,
    });
    expect([await sizeStock(s50), await sizeStock(s100), (await product(id)).stock]).toEqual([3, 10, 13]);
    expect(await adjustStock(t.db, id, { reason: "damaged", change: -4, note: null, expected: null, sizeId: s50 }, admin)).toMatchObject({ ok: false, error: "notEnough", stock: 3 });
    const other = await twoSizes({ price: 1, stock: 1 }, { price: 2, stock: 1 });
    expect(await adjustStock(t.db, id, { reason: "received", change: 1, note: null, expected: null, sizeId: other.s50 }, admin)).toEqual({ ok: false, error: "notFound" });
    const history = await t.db.selectFrom("stock_adjustments").select(["size_id", "size_label", "stock_before", "stock_after"]).where("product_id", "=", id).execute();
    expect(history).toEqual([{ size_id: s100, size_label: "100 ml", stock_before: 4, stock_after: 10 }]);
  });

  it("orders of both sizes and of one size at the same moment wait for each other, never deadlock, and count exactly", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 100 }, { price: 9_500_000, stock: 100 });
    const admin = await makeUser(t.db, `sizes-mixed-${engine}-${n}@example.com`, "owner");
    const place = (lines: { sizeId: number; quantity: number }[]) =>
      createOrderFromLines(t.db, { channel: "checkout", userId: null, takeFromStock: true, lines: lines.map((l) => ({ productId: id, ...l })) });
    const jobs = [];
    for (let i = 0; i < 12; i++) {
      jobs.push(place([{ sizeId: s50, quantity: 1 }, { sizeId: s100, quantity: 2 }]));
      jobs.push(place([{ sizeId: s100, quantity: 1 }]));
      jobs.push(adjustStock(t.db, id, { reason: "received", change: 1, note: null, expected: null, sizeId: i % 2 ? s50 : s100 }, admin));
    }
    const results = await Promise.allSettled(jobs);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    // 50 ml: 100 - 12 + 6 received; 100 ml: 100 - 24 - 12 + 6 received.
    expect([await sizeStock(s50), await sizeStock(s100), (await product(id)).stock]).toEqual([94, 70, 164]);
  });

  it("sells the last bottle of one size once when 50 shoppers check out at the same moment, leaving the other size untouched", async () => {
    const { id, s50, s100 } = await twoSizes({ price: 6_000_000, stock: 1 }, { price: 9_500_000, stock: 8 });
    const shoppers = [];
    for (let i = 0; i < 50; i++) {
      const shopper = await userCart();
      await t.db.insertInto("cart_lines").values({ cart_id: shopper.cartId, product_id: id, size_id: s50, quantity: 1, created_at: new Date().toISOString() }).execute();
      shoppers.push(shopper);
    }
    const views = await Promise.all(shoppers.map((s) => checkoutView(t.db, s.userId, PAYMENT)));
    const results = await Promise.all(
      shoppers.map((s, i) =>
        placeCheckoutOrder(t.db, { id: s.userId }, {
          checkoutKey: views[i].checkoutKey,
          seen: views[i].seen,
          addressId: null,
          address: lagos,
          saveAddress: false,
          phone: "0803 123 4567",
          deliveryMethod: "delivery",
          paymentMethod: "on_delivery",
          expectedTotal: String(lagosTotal(views[i].cart.subtotal)),
          payment: PAYMENT,
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const refused of results.filter((r) => !r.ok)) expect(refused).toMatchObject({ ok: false, problem: expect.stringMatching(/^(soldOut|changed)$/) });
    expect([await sizeStock(s50), await sizeStock(s100), (await product(id)).stock]).toEqual([0, 8, 8]);
    const items = await t.db.selectFrom("order_items").select(["size_id", "quantity"]).where("product_id", "=", id).execute();
    expect(items).toEqual([{ size_id: s50, quantity: 1 }]);
  });
});
