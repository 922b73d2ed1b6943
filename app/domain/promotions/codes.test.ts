import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translatorFor } from "~/platform/translations.server";
import { addBrand, addCategory, addProduct, firstSizeOf, makeUser, setSize } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { changeOrderStatus } from "../orders/admin-orders.server";
import { type CheckoutInput, checkoutView, placeCheckoutOrder } from "../orders/checkout.server";
import { expireUnpaidOrders } from "../orders/order-expiry.server";
import { markOrderPaid } from "../payments/payments.server";
import { createPromotion, parsePromotion, type PromotionFields, promotionResults, setPromotionPaused, updatePromotion } from "./admin.server";
import { applyPromotion, enterCode, evaluateCode, type Promotion } from "./codes.server";
import { orderConfirmationEmail } from "../orders/order-mail.server";
import { newOrderEmail } from "../orders/new-order-alert.server";
import { whatsAppMessage, type PlacedOrder } from "../orders/orders.server";

const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
/** The seeded Lagos fee (₦3,000), free from ₦500,000. */
const LAGOS_FEE = 300_000;

const promotion = (over: Partial<Promotion> = {}): Promotion => ({
  id: 1,
  code: "AMAKA10",
  kind: "percent",
  value: 10,
  minSubtotal: null,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  perCustomerLimit: null,
  combinesWithSale: false,
  uses: 0,
  pausedAt: null,
  targets: [],
  ...over,
});

describe("the rules of a code, on facts already read", () => {
  const facts = new Map([
    [1, { categoryId: 7, brandId: 3, onSale: false }],
    [2, { categoryId: 8, brandId: 4, onSale: true }],
  ]);
  const lines = [
    { productId: 10, sizeId: 1, unitPrice: 1_234_567, quantity: 1 },
    { productId: 20, sizeId: 2, unitPrice: 1_000_000, quantity: 2 },
  ];
  const at = "2026-12-05T12:00:00.000Z";

  it("rounds a percentage to the nearest kobo, half a kobo up, and leaves sizes on sale alone unless told", () => {
    // 10 % of ₦12,345.67 is 123,456.7 kobo → 123,457.
    expect(applyPromotion(promotion(), lines, facts, at, null)).toMatchObject({ ok: true, discount: 123_457 });
    // 15 % of 1,234,567 = 185,185.05 → 185,185; with the sale line: 15 % of 3,234,567 = 485,185.05 → 485,185.
    expect(applyPromotion(promotion({ value: 15 }), lines, facts, at, null)).toMatchObject({ discount: 185_185 });
    expect(applyPromotion(promotion({ value: 15, combinesWithSale: true }), lines, facts, at, null)).toMatchObject({ discount: 485_185 });
    // half a kobo: 50 % of 1 kobo.
    expect(applyPromotion(promotion({ value: 50 }), [{ productId: 10, sizeId: 1, unitPrice: 1, quantity: 1 }], facts, at, null)).toMatchObject({ discount: 1 });
  });

  it("never takes more than the goods it is for, and says why it does not apply", () => {
    expect(applyPromotion(promotion({ kind: "fixed", value: 99_999_999 }), lines, facts, at, null)).toMatchObject({ discount: 1_234_567 });
    expect(applyPromotion(promotion({ pausedAt: at }), lines, facts, at, null)).toMatchObject({ ok: false, reason: "paused" });
    expect(applyPromotion(promotion({ startsAt: "2026-12-06T00:00:00.000Z" }), lines, facts, at, null)).toMatchObject({ reason: "notStarted" });
    expect(applyPromotion(promotion({ endsAt: at }), lines, facts, at, null)).toMatchObject({ reason: "expired" });
    expect(applyPromotion(promotion({ usageLimit: 2, uses: 2 }), lines, facts, at, null)).toMatchObject({ reason: "usedUp" });
    expect(applyPromotion(promotion({ perCustomerLimit: 1 }), lines, facts, at, 1)).toMatchObject({ reason: "alreadyUsed" });
    expect(applyPromotion(promotion({ minSubtotal: 3_234_568 }), lines, facts, at, null)).toMatchObject({ reason: "minimum", minimum: 3_234_568 });
    expect(applyPromotion(promotion({ minSubtotal: 3_234_567 }), lines, facts, at, null)).toMatchObject({ ok: true });
    expect(applyPromotion(promotion({ targets: [{ kind: "brand", targetId: 4 }] }), lines, facts, at, null)).toMatchObject({ reason: "notForItems" });
    expect(applyPromotion(promotion({ targets: [{ kind: "category", targetId: 7 }] }), lines, facts, at, null)).toMatchObject({ discount: 123_457 });
    expect(applyPromotion(promotion({ targets: [{ kind: "product", targetId: 20 }], combinesWithSale: true }), lines, facts, at, null)).toMatchObject({ discount: 200_000 });
    expect(applyPromotion(promotion({ kind: "free_delivery", value: 0 }), lines, facts, at, null)).toMatchObject({ ok: true, discount: 0, freeDelivery: true });
  });
});

describe("the discount in the e-mails", () => {
  const order: PlacedOrder = {
    id: 1,
    number: "UB-10001",
    channel: "checkout",
    status: "pending",
    userId: 1,
    subtotal: 2_000_000,
    discount: 200_000,
    promotionCode: "AMAKA10",
    storeCredit: 0,
    giftCard: 0,
    giftCardCode: null,
    shipping: 300_000,
    total: 2_100_000,
    items: [{ productId: 1, name: "Oud Wood", unitPrice: 2_000_000, quantity: 1 }],
    createdAt: "2026-12-05T12:00:00.000Z",
    deliveryMethod: "delivery",
    deliveryZone: "Lagos",
    deliveryEstimate: "1-2 days",
    paymentMethod: "bank_transfer",
    paymentStatus: "unpaid",
    phone: null,
  };
  it("shows the code and the amount off between the subtotal and the total, in the customer's language and the owner's", () => {
    const bank = { name: "Demo Bank", accountName: "Unboxed", accountNumber: "0123456789" };
    for (const [lang, line] of [["en", "Discount (AMAKA10): −₦2,000.00"], ["es", "Descuento (AMAKA10): −₦2,000.00"]] as const) {
      const mail = orderConfirmationEmail(translatorFor(lang), { firstName: "Chioma", order, address: lagos, bank: bank as never, orderUrl: "http://shop.test/orders/UB-10001" });
      expect(mail.text).toContain(line);
      expect(mail.html).toContain(line);
      expect(mail.text.indexOf(line)).toBeLessThan(mail.text.indexOf("₦21,000.00"));
    }
    const alert = newOrderEmail({ to: ["owner@example.com"], publicUrl: "http://shop.test", t: translatorFor("en") }, order, null, lagos);
    expect(alert.text).toContain("Discount (AMAKA10): −₦2,000.00");
  });

  it("shows the VAT inside the total only when the shop's prices include VAT (docs/decisions/223)", () => {
    const input = { firstName: "Chioma", order, address: lagos, bank: null, orderUrl: "http://shop.test/orders/UB-10001" };
    // ₦21,000 × 7.5 / 107.5 = ₦1,465.116… → ₦1,465.12
    for (const [lang, line] of [["en", "Of which VAT (7.5%): ₦1,465.12"], ["es", "De lo cual IVA (7,5 %): ₦1,465.12"]] as const) {
      const mail = orderConfirmationEmail(translatorFor(lang), { ...input, vatIncluded: true });
      expect(mail.text).toContain(line);
      expect(mail.html).toContain(line);
      expect(mail.text.indexOf(line)).toBeGreaterThan(mail.text.indexOf("₦21,000.00"));
    }
    expect(orderConfirmationEmail(translatorFor("en"), input).text).not.toContain("VAT");
    // The owner's alert too.
    const alert = { to: ["owner@example.com"], publicUrl: "http://shop.test", t: translatorFor("en") };
    expect(newOrderEmail({ ...alert, vatIncluded: true }, order, null, lagos).text).toContain("Of which VAT (7.5%): ₦1,465.12");
    expect(newOrderEmail(alert, order, null, lagos).text).not.toContain("VAT");
  });

  it("puts the discount in the WhatsApp order message, before the total", () => {
    const text = whatsAppMessage(translatorFor("en"), order);
    expect(text).toContain("Discount (AMAKA10): −₦2,000.00");
    expect(text.indexOf("Discount (AMAKA10)")).toBeLessThan(text.indexOf("Total: ₦21,000.00"));
    expect(whatsAppMessage(translatorFor("es"), order)).toContain("Descuento (AMAKA10): −₦2,000.00");
    expect(whatsAppMessage(translatorFor("en"), { ...order, discount: 0, promotionCode: null })).not.toContain("Discount");
  });
});

describe.each(ENGINES)("discount codes at checkout on %s", (engine) => {
  let t: TestDatabase;
  let owner: number;
  let users = 0;
  let category: number;
  let brand: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    owner = await makeUser(t.db, "owner@example.com", "owner");
    category = (await addCategory(t.db)).id;
    brand = (await addBrand(t.db)).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const fields = (over: Partial<PromotionFields>): PromotionFields => ({
    code: "",
    kind: "percent",
    value: "10",
    minSubtotal: "",
    startsAt: "",
    endsAt: "",
    usageLimit: "",
    perCustomerLimit: "",
    combinesWithSale: "",
    productIds: "",
    categoryIds: [],
    brandIds: [],
    ...over,
  });

  async function newCode(over: Partial<PromotionFields>) {
    const parsed = await parsePromotion(t.db, fields(over));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const saved = await createPromotion(t.db, owner, parsed.input);
    if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
    return saved.id;
  }

  async function shopper(productId: number, quantity = 1, code?: string) {
    const n = ++users;
    const userId = await makeUser(t.db, `buyer${n}@example.com`);
    const at = new Date().toISOString();
    const cartId = `cart-of-buyer-${n}-${"x".repeat(20)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: productId, size_id: firstSizeOf(productId), quantity, created_at: at }).execute();
    if (code) expect(await enterCode(t.db, cartId, code)).toMatchObject({ ok: true });
    return { userId, cartId, phone: `0803${String(n).padStart(7, "0")}` };
  }

  /** What the checkout page sends: the total it showed, from its own view of the cart and the code. */
  async function submit(s: { userId: number; phone: string }, input: Partial<CheckoutInput> = {}) {
    const view = await checkoutView(t.db, s.userId, PAYMENT);
    const off = view.code?.reason === null ? view.code.discount : 0;
    const goods = view.cart.subtotal - off;
    const fee = view.code?.reason === null && view.code.freeDelivery ? 0 : goods >= 50_000_000 ? 0 : LAGOS_FEE;
    return placeCheckoutOrder(t.db, { id: s.userId }, {
      checkoutKey: view.checkoutKey,
      seen: view.seen,
      addressId: null,
      address: lagos,
      saveAddress: false,
      deliveryMethod: "delivery",
      paymentMethod: "bank_transfer",
      expectedTotal: String(goods + fee),
      payment: PAYMENT,
      phone: s.phone,
      ...input,
    });
  }

  const perfume = async (price: number, stock = 100, discount: number | null = null) => {
    const id = (await addProduct(t.db, { brandId: brand, categoryId: category, price, stock })).id;
    await setSize(t.db, id, { price, stock, discount });
    return id;
  };
  const usesOf = async (id: number) => Number((await t.db.selectFrom("promotions").select("uses").where("id", "=", id).executeTakeFirstOrThrow()).uses);

  it("matches a code in any case, takes it off the goods before the fee, and counts one use with the order", async () => {
    const product = await perfume(2_000_000);
    const id = await newCode({ code: "Amaka10", usageLimit: "5" });
    const s = await shopper(product, 2, "aMaKa10");
    const view = await checkoutView(t.db, s.userId, PAYMENT);
    expect(view.code).toEqual({ code: "Amaka10", discount: 400_000, freeDelivery: false, reason: null, minimum: null });
    const result = await submit(s);
    if (!result.ok) throw new Error(result.problem);
    expect(result.order).toMatchObject({ subtotal: 4_000_000, discount: 400_000, shipping: LAGOS_FEE, total: 3_600_000 + LAGOS_FEE, promotionCode: "Amaka10" });
    expect(await usesOf(id)).toBe(1);
    const stored = await t.db.selectFrom("orders").select(["discount", "promotion_code", "total"]).where("id", "=", result.order.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ discount: 400_000, promotion_code: "Amaka10", total: 3_600_000 + LAGOS_FEE });
    // Paid later (as a Paystack payment or a transfer would be): the use is not counted again.
    const context = testContext(t);
    expect(await markOrderPaid(context, { number: result.order.number, actorId: owner })).toMatchObject({ ok: true });
    expect(await usesOf(id)).toBe(1);
    const results = await promotionResults(t.db, id);
    expect(results).toMatchObject({ orders: 1, discount: 400_000, revenue: 3_600_000 + LAGOS_FEE });
  });

  it("makes a delivery free with a free-delivery code, and refuses one below its minimum with the reason", async () => {
    const product = await perfume(1_000_000);
    await newCode({ code: "FREESHIP", kind: "free_delivery", value: "", minSubtotal: "15000" });
    const small = await shopper(product, 1, "freeship");
    expect((await checkoutView(t.db, small.userId, PAYMENT)).code).toMatchObject({ reason: "minimum", minimum: 1_500_000 });
    const placedSmall = await submit(small);
    if (!placedSmall.ok) throw new Error(placedSmall.problem);
    expect(placedSmall.order).toMatchObject({ shipping: LAGOS_FEE, discount: 0, promotionCode: null });

    const big = await shopper(product, 2, "FREESHIP");
    const placed = await submit(big);
    if (!placed.ok) throw new Error(placed.problem);
    expect(placed.order).toMatchObject({ subtotal: 2_000_000, discount: 0, shipping: 0, total: 2_000_000, promotionCode: "FREESHIP" });
  });

  it("holds the limit per customer by account and by phone, and gives a use back when the order is cancelled or expires", async () => {
    const product = await perfume(1_000_000);
    const id = await newCode({ code: "ONCE", kind: "fixed", value: "1,000", perCustomerLimit: "1" });
    const s = await shopper(product, 1, "once");
    const first = await submit(s);
    if (!first.ok) throw new Error(first.problem);
    expect(first.order.discount).toBe(100_000);

    // The same account again: the cart shows why, and an order placed anyway gets no discount.
    await t.db.insertInto("cart_lines").values({ cart_id: s.cartId, product_id: product, size_id: firstSizeOf(product), quantity: 1, created_at: new Date().toISOString() }).execute();
    expect((await checkoutView(t.db, s.userId, PAYMENT)).code).toMatchObject({ reason: "alreadyUsed" });
    // Another account giving the same phone number is the same customer.
    const other = await shopper(product, 1, "ONCE");
    const view = await checkoutView(t.db, other.userId, PAYMENT);
    expect(view.code?.reason).toBeNull();
    const refused = await submit({ ...other, phone: s.phone });
    expect(refused).toMatchObject({ ok: false, problem: "confirm", total: 1_000_000 + LAGOS_FEE });
    expect(await usesOf(id)).toBe(1);

    // Cancelled by the owner: the use comes back (once, however often it is asked).
    const context = testContext(t);
    expect(await changeOrderStatus(context, { number: first.order.number, from: "pending", to: "cancelled", actorId: owner })).toMatchObject({ ok: true });
    expect(await usesOf(id)).toBe(0);
    const again = await submit(s);
    if (!again.ok) throw new Error(again.problem);
    expect(again.order.discount).toBe(100_000);
    expect(await usesOf(id)).toBe(1);

    // Expired unpaid: given back too.
    await t.db.updateTable("orders").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", again.order.id).execute();
    expect(await expireUnpaidOrders(t.db, { orderHoldHours: 48, publicUrl: "http://shop.test" }, translatorFor("en"))).toContain(again.order.number);
    expect(await usesOf(id)).toBe(0);
    const uses = await t.db.selectFrom("promotion_uses").select(["order_id", "released_at"]).where("promotion_id", "=", id).orderBy("id").execute();
    expect(uses.map((u) => u.released_at !== null)).toEqual([true, true]);
  });

  it("applies nothing while paused, before its start or after its end, and only to the items it is for", async () => {
    const product = await perfume(1_000_000);
    const onSale = await perfume(1_000_000, 100, 200_000);
    const id = await newCode({ code: "PAUSEME", usageLimit: "3" });
    const lines = [{ productId: product, sizeId: (await t.db.selectFrom("product_sizes").select("id").where("product_id", "=", product).executeTakeFirstOrThrow()).id, unitPrice: 1_000_000, quantity: 1 }];
    expect(await evaluateCode(t.db, "pauseme", lines, null)).toMatchObject({ ok: true, discount: 100_000 });
    expect(await setPromotionPaused(t.db, owner, id, true)).toEqual({ code: "PAUSEME", changed: true });
    expect(await evaluateCode(t.db, "pauseme", lines, null)).toMatchObject({ ok: false, reason: "paused" });
    await setPromotionPaused(t.db, owner, id, false);
    const later = await parsePromotion(t.db, fields({ code: "PAUSEME", startsAt: "2099-01-01T10:00" }));
    if (!later.ok) throw new Error("refused");
    expect(later.input.startsAt).toBe("2099-01-01T09:00:00.000Z");
    await updatePromotion(t.db, owner, id, later.input);
    expect(await evaluateCode(t.db, "PAUSEME", lines, null)).toMatchObject({ reason: "notStarted" });
    const ended = await parsePromotion(t.db, fields({ code: "PAUSEME", endsAt: "2020-01-01T10:00" }));
    if (!ended.ok) throw new Error("refused");
    await updatePromotion(t.db, owner, id, ended.input);
    expect(await evaluateCode(t.db, "PAUSEME", lines, null)).toMatchObject({ reason: "expired" });
    expect(await evaluateCode(t.db, "NOSUCH", lines, null)).toMatchObject({ reason: "unknown" });

    const saleOnly = await shopper(onSale, 1, "PAUSEME");
    await newCode({ code: "NOTSALE" });
    await enterCode(t.db, saleOnly.cartId, "notsale");
    expect((await checkoutView(t.db, saleOnly.userId, PAYMENT)).code).toMatchObject({ reason: "notForItems" });

    const audit = await t.db.selectFrom("audit_log").select(["action", "changes"]).where("entity", "=", "promotion").where("entity_id", "=", id).orderBy("id").execute();
    expect(audit.map((a) => a.action)).toEqual(["create", "update", "update", "update", "update"]);
    expect(JSON.parse(audit[1].changes!)).toEqual({ paused: [false, true] });
  });

  it("refuses bad fields with a reason per field, and a code another promotion has", async () => {
    const bad = await parsePromotion(t.db, fields({ code: "no spaces!", kind: "percent", value: "150", usageLimit: "0", startsAt: "tomorrow", categoryIds: ["999999"], productIds: "1, x" }));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.errors).sort()).toEqual(["categoryIds", "code", "productIds", "startsAt", "usageLimit", "value"]);
    await newCode({ code: "TAKEN" });
    const again = await parsePromotion(t.db, fields({ code: "taken" }));
    if (!again.ok) throw new Error("refused");
    expect(await createPromotion(t.db, owner, again.input)).toEqual({ ok: false, errors: { code: "promotions.admin.errors.codeTaken" } });
  });

  it("lets exactly 10 of 50 shoppers pressing at once have a code limited to 10", async () => {
    const product = await perfume(1_000_000, 1_000);
    const id = await newCode({ code: "FIRST10", kind: "fixed", value: "2000", usageLimit: "10" });
    const shoppers = [];
    for (let i = 0; i < 50; i++) shoppers.push(await shopper(product, 1, "FIRST10"));
    const results = await Promise.all(shoppers.map((s) => submit(s)));
    const placed = results.filter((r) => r.ok);
    expect(placed).toHaveLength(10);
    // The others were shown the total without the discount (the code is used up), nothing placed.
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? null : r.problem))).toEqual(Array(40).fill("confirm"));
    const withCode = await t.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).where("promotion_code", "=", "FIRST10").executeTakeFirstOrThrow();
    expect(Number(withCode.n)).toBe(10);
    expect(await usesOf(id)).toBe(10);
    const view = await checkoutView(t.db, shoppers[49].userId, PAYMENT);
    expect(view.code?.reason === "usedUp" || view.code === null).toBe(true);
  });
});
