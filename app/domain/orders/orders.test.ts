import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translatorFor } from "~/platform/translations.server";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { addLine, clearCart, setLineQuantity } from "../shopper/cart.server";
import { ensureCart } from "~/http/cart.server";
import { onCatalogChange } from "../catalogue/catalog.server";
import {
  cartFingerprint,
  createOrderFromLines,
  findOrderByNumber,
  OrderError,
  orderNumber,
  placeWhatsAppOrder,
  whatsAppMessage,
  whatsAppUrl,
} from "./orders.server";
import { addProduct, setSize } from "../../../tests/support/catalogue";

const stamp = "2026-01-01T00:00:00.000Z";

async function refusal(promise: Promise<unknown>): Promise<OrderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OrderError) return error;
    throw error;
  }
  throw new Error("expected an OrderError");
}

describe.each(ENGINES)("orders on %s", (engine) => {
  let t: TestDatabase;
  let context: ReturnType<typeof testContext>;
  let brandId: number;
  let categoryId: number;
  let userId: number;

  async function product(fields: { price?: number; stock?: number; name?: string; archived?: boolean } = {}): Promise<number> {
    return (await addProduct(t.db, { brandId, categoryId, ...fields })).id;
  }

  const counts = async () => {
    const [orders, items, events] = await Promise.all(
      (["orders", "order_items", "order_events"] as const).map((table) =>
        t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
      ),
    );
    return { orders, items, events };
  };

  const stockOf = async (id: number) =>
    (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;

  async function newCart() {
    return (await ensureCart(browserRequest("/cart", { method: "POST" }), context)).cartId;
  }

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    brandId = (await t.db.insertInto("brands").values({ name: "Creed", slug: "creed", created_at: stamp }).returning("id").executeTakeFirstOrThrow()).id;
    categoryId = (
      await t.db.insertInto("categories").values({ name: "Men", slug: "men", created_at: stamp }).returning("id").executeTakeFirstOrThrow()
    ).id;
    userId = (
      await t.db
        .insertInto("users")
        .values({ email: "ada@example.com", password_hash: "x", first_name: "Ada", last_name: "Obi", role: "customer", created_at: stamp })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe("creating an order", () => {
    it("snapshots names and prices, computes the amounts and records a pending event, in one go", async () => {
      const a = await product({ name: "Aventus", price: 25_000_000 });
      const b = await product({ name: "Silver Mountain", price: 18_050_050 });
      const order = await createOrderFromLines(t.db, {
        channel: "checkout",
        userId,
        lines: [
          { productId: a, quantity: 2 },
          { productId: b, quantity: 1 },
        ],
        address: { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" },
      });
      expect(order.number).toBe(orderNumber(order.id));
      expect(order.number).toMatch(/^UB-1\d{4}$/);
      expect(order).toMatchObject({ channel: "checkout", status: "pending", subtotal: 68_050_050, shipping: 0, total: 68_050_050 });

      const row = await t.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        number: order.number,
        user_id: userId,
        channel: "checkout",
        status: "pending",
        ship_street: "12 Admiralty Way",
        ship_city: "Lekki",
        ship_state: "Lagos",
        ship_country: "Nigeria",
        subtotal: 68_050_050,
        shipping: 0,
        total: 68_050_050,
      });
      const events = await t.db.selectFrom("order_events").select(["status", "actor_user_id"]).where("order_id", "=", order.id).execute();
      expect(events).toEqual([{ status: "pending", actor_user_id: null }]);

      // Later catalogue changes do not rewrite the order.
      await t.db.updateTable("products").set({ name: "Renamed" }).where("id", "=", a).execute();
      await setSize(t.db, a, { price: 1 });
      const stored = await findOrderByNumber(t.db, order.number);
      expect(stored?.items).toEqual([
        { productId: a, name: "Aventus", unitPrice: 25_000_000, quantity: 2, sizeId: expect.any(Number), sizeLabel: null },
        { productId: b, name: "Silver Mountain", unitPrice: 18_050_050, quantity: 1, sizeId: expect.any(Number), sizeLabel: null },
      ]);
      expect(stored?.total).toBe(68_050_050);
    });

    it("gives every order its own number, also when many are placed at once", async () => {
      const id = await product({ stock: 100 });
      const orders = await Promise.all(
        Array.from({ length: 8 }, () => createOrderFromLines(t.db, { channel: "whatsapp", userId: null, lines: [{ productId: id, quantity: 1 }] })),
      );
      expect(new Set(orders.map((o) => o.number)).size).toBe(8);
      for (const o of orders) expect(o.number).toBe(orderNumber(o.id));
    });

    it("adds up a product named twice, and refuses empty orders and bad quantities", async () => {
      const id = await product({ stock: 9 });
      const order = await createOrderFromLines(t.db, {
        channel: "whatsapp",
        userId: null,
        lines: [
          { productId: id, quantity: 1 },
          { productId: id, quantity: 2 },
        ],
      });
      expect(order.items).toEqual([expect.objectContaining({ productId: id, quantity: 3 })]);
      expect((await refusal(createOrderFromLines(t.db, { channel: "whatsapp", userId: null, lines: [] }))).problem).toBe("empty");
      for (const quantity of [0, -1, 1.5, Number.NaN]) {
        const error = await refusal(createOrderFromLines(t.db, { channel: "whatsapp", userId: null, lines: [{ productId: id, quantity }] }));
        expect(error.problem).toBe("invalidQuantity");
      }
    });

    it("writes nothing when a product left the shop, sold out or is short", async () => {
      const ok = await product({ stock: 5 });
      const archived = await product({ archived: true });
      const soldOut = await product({ stock: 0 });
      const short = await product({ stock: 2, name: "Short" });
      const before = await counts();
      const line = (productId: number, quantity = 1) => [{ productId: ok, quantity: 1 }, { productId, quantity }];
      expect((await refusal(createOrderFromLines(t.db, { channel: "checkout", userId, lines: line(archived) }))).problem).toBe("unavailable");
      expect((await refusal(createOrderFromLines(t.db, { channel: "checkout", userId, lines: line(999_999) }))).problem).toBe("unavailable");
      expect((await refusal(createOrderFromLines(t.db, { channel: "checkout", userId, lines: line(soldOut) }))).problem).toBe("outOfStock");
      const error = await refusal(createOrderFromLines(t.db, { channel: "checkout", userId, lines: line(short, 3), takeFromStock: true }));
      expect([error.problem, error.productName, error.available]).toEqual(["notEnoughStock", "Short", 2]);
      expect(await counts()).toEqual(before);
      expect(await stockOf(ok)).toBe(5);
    });

    it("takes the quantities out of stock when asked, and two orders for the last one cannot both succeed", async () => {
      const id = await product({ stock: 3 });
      await createOrderFromLines(t.db, { channel: "checkout", userId, lines: [{ productId: id, quantity: 2 }], takeFromStock: true });
      expect(await stockOf(id)).toBe(2 - 1);
      const before = await counts();
      const results = await Promise.allSettled(
        [1, 2].map(() =>
          createOrderFromLines(t.db, { channel: "checkout", userId, lines: [{ productId: id, quantity: 1 }], takeFromStock: true }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(failed.reason).toBeInstanceOf(OrderError);
      expect(await stockOf(id)).toBe(0);
      expect((await counts()).orders).toBe(before.orders + 1);
    });

    it("leaves the stock alone for an order that does not take from it", async () => {
      const id = await product({ stock: 4 });
      await createOrderFromLines(t.db, { channel: "whatsapp", userId: null, lines: [{ productId: id, quantity: 4 }] });
      expect(await stockOf(id)).toBe(4);
    });
  });

  describe("ordering by WhatsApp", () => {
    it("records the buyable lines as a pending WhatsApp order, anonymous too", async () => {
      const cartId = await newCart();
      const a = await product({ name: "Bleu", price: 5_000_000, stock: 9 });
      const b = await product({ name: "Libre", price: 2_500_050, stock: 2 });
      const gone = await product({ name: "Gone", stock: 1 });
      for (const id of [a, b, gone]) await addLine(t.db, cartId, id);
      await setLineQuantity(t.db, cartId, a, 3);
      await setLineQuantity(t.db, cartId, b, 2);
      await setSize(t.db, b, { stock: 1 }); // b: capped to 1
      await setSize(t.db, gone, { stock: 0 }); // left out

      const heard: unknown[] = [];
      const stop = onCatalogChange((where, scope) => heard.push([where, scope]));
      const order = await placeWhatsAppOrder(t.db, { cartId, userId: null }).finally(stop);
      expect(order).toMatchObject({ reused: false, channel: "whatsapp", status: "pending", userId: null, total: 17_500_050 });
      // No stock taken, but sold and bought together: its products' pages and the best sellers change (docs/decisions/205).
      expect(heard).toEqual([["here", { ordered: [a, b] }]]);
      expect(order.items).toEqual([
        { productId: a, name: "Bleu", unitPrice: 5_000_000, quantity: 3, sizeId: expect.any(Number), sizeLabel: null },
        { productId: b, name: "Libre", unitPrice: 2_500_050, quantity: 1, sizeId: expect.any(Number), sizeLabel: null },
      ]);
      const row = await t.db.selectFrom("orders").select(["cart_id", "cart_fingerprint", "channel", "status"]).where("id", "=", order.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ cart_id: cartId, cart_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), channel: "whatsapp", status: "pending" });
      const events = await t.db.selectFrom("order_events").select("status").where("order_id", "=", order.id).execute();
      expect(events).toEqual([{ status: "pending" }]);
      // The cart stays as it was: the shopper may come back to it.
      expect((await t.db.selectFrom("cart_lines").select("product_id").where("cart_id", "=", cartId).execute()).length).toBe(3);
    });

    it("reuses the same pending order for the same cart, and records a new one when the cart changes", async () => {
      const cartId = await newCart();
      const a = await product({ stock: 9 });
      const b = await product({ stock: 9 });
      await addLine(t.db, cartId, a);
      const first = await placeWhatsAppOrder(t.db, { cartId, userId: userId });
      const again = await placeWhatsAppOrder(t.db, { cartId, userId: userId });
      expect(again.reused).toBe(true);
      expect(again.number).toBe(first.number);
      expect(again.userId).toBe(userId);

      await addLine(t.db, cartId, b);
      const changed = await placeWhatsAppOrder(t.db, { cartId, userId: userId });
      expect(changed.reused).toBe(false);
      expect(changed.number).not.toBe(first.number);

      // A price change is a different message, so a different order.
      await setSize(t.db, a, { price: 1_234_500 });
      const repriced = await placeWhatsAppOrder(t.db, { cartId, userId: userId });
      expect(repriced.number).not.toBe(changed.number);

      // Once the shop has moved the order on, the same cart makes a new pending order.
      await t.db.updateTable("orders").set({ status: "confirmed" }).where("number", "=", repriced.number).execute();
      const afterConfirm = await placeWhatsAppOrder(t.db, { cartId, userId: userId });
      expect(afterConfirm.number).not.toBe(repriced.number);
    });

    it("records one order when the button is pressed several times at once", async () => {
      const cartId = await newCart();
      const id = await product({ stock: 9 });
      await addLine(t.db, cartId, id);
      const before = (await counts()).orders;
      const presses = await Promise.all(Array.from({ length: 5 }, () => placeWhatsAppOrder(t.db, { cartId, userId: null })));
      expect(new Set(presses.map((p) => p.number)).size).toBe(1);
      expect((await counts()).orders).toBe(before + 1);
    });

    it("refuses an empty cart, a cart of unavailable lines and a shopper with no cart", async () => {
      const cartId = await newCart();
      expect((await refusal(placeWhatsAppOrder(t.db, { cartId, userId: null }))).problem).toBe("empty");
      expect((await refusal(placeWhatsAppOrder(t.db, { cartId: null, userId: null }))).problem).toBe("empty");
      const id = await product({ stock: 1 });
      await addLine(t.db, cartId, id);
      await setSize(t.db, id, { stock: 0 });
      expect((await refusal(placeWhatsAppOrder(t.db, { cartId, userId: null }))).problem).toBe("empty");
      await clearCart(t.db, cartId);
    });
  });

  it("finds an order by its number only", async () => {
    expect(await findOrderByNumber(t.db, "UB-99999999")).toBeNull();
    expect(await findOrderByNumber(t.db, "1 or 1=1")).toBeNull();
    expect(await findOrderByNumber(t.db, "new-0000")).toBeNull();
  });
});

describe("the WhatsApp message", () => {
  const order = {
    number: "UB-10042",
    total: 17_500_050,
    items: [
      { productId: 1, name: "Bleu de Chanel", unitPrice: 5_000_000, quantity: 3 },
      { productId: 2, name: "Libre & <Co>", unitPrice: 2_500_050, quantity: 1 },
    ],
  };

  it("has a greeting, a line per item with quantity and line price, the total and the reference", () => {
    const text = whatsAppMessage(translatorFor("en"), order);
    expect(text.split("\n")).toEqual([
      "Hello Unboxed! I would like to order:",
      "",
      "• Bleu de Chanel × 3: ₦150,000.00",
      "• Libre & <Co> × 1: ₦25,000.50",
      "",
      "Delivery fee: to be confirmed in the chat",
      "Total: ₦175,000.50",
      "Order reference: UB-10042",
    ]);
    expect(whatsAppMessage(translatorFor("es"), order)).toContain("Referencia del pedido: UB-10042");
  });

  it("says what store credit and a gift card paid of the total, and what is left, when an order had some", () => {
    const text = whatsAppMessage(translatorFor("en"), { ...order, giftCard: 5_000_000, giftCardCode: "GIFTCARD2345ABCD", storeCredit: 500_050 });
    expect(text.split("\n").slice(-5)).toEqual(["Total: ₦175,000.50", "Gift card (GIFTCARD2345ABCD): −₦50,000.00", "Store credit: −₦5,000.50", "To pay: ₦120,000.00", "Order reference: UB-10042"]);
    expect(whatsAppMessage(translatorFor("es"), { ...order, storeCredit: 500_050 })).toContain("Saldo a favor: −₦5,000.50\nA pagar: ₦170,000.00");
  });

  it("goes into a wa.me link to the shop's number, with the text encoded", () => {
    const text = whatsAppMessage(translatorFor("en"), order);
    const url = new URL(whatsAppUrl("+234 801 234 5678", text));
    expect(url.origin + url.pathname).toBe("https://wa.me/2348012345678");
    expect(url.searchParams.get("text")).toBe(text);
  });

  it("fingerprints the cart id and its lines, whatever their order", () => {
    const lines = [
      { productId: 2, quantity: 1, unitPrice: 5 },
      { productId: 1, quantity: 3, unitPrice: 7 },
    ];
    expect(cartFingerprint("cart-a", lines)).toBe(cartFingerprint("cart-a", [...lines].reverse()));
    expect(cartFingerprint("cart-a", lines)).not.toBe(cartFingerprint("cart-b", lines));
    expect(cartFingerprint("cart-a", lines)).not.toBe(cartFingerprint("cart-a", [{ ...lines[0], quantity: 2 }, lines[1]]));
  });
});
