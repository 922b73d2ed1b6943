import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translatorFor } from "~/platform/translations.server";
import { addBrand, addCategory, addProduct, firstSizeOf, makeUser, setSize } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { changeOrderStatus } from "../orders/admin-orders.server";
import { type CheckoutInput, checkoutView, placeCheckoutOrder } from "../orders/checkout.server";
import { expireUnpaidOrders } from "../orders/order-expiry.server";
import { markOrderPaid } from "../payments/payments.server";
import { queueGiftCardEmail } from "./credit-mail.server";
import { creditLines } from "./credit-lines.server";
import {
  adjustCredit,
  creditBalance,
  creditStatement,
  enterGiftCard,
  giftCardKey,
  giftCardState,
  issueGiftCard,
  parseGiftCard,
  refundAsCredit,
  setUseCredit,
} from "./credit.server";

const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
/** The seeded Lagos fee (₦3,000), free from ₦500,000. */
const LAGOS_FEE = 300_000;
const SHOP = { name: "Unboxed", publicUrl: "http://shop.test" };

describe("the gift card form and codes", () => {
  it("checks every field, and reads an expiry date as the end of that day in Lagos", () => {
    const fields = { amount: "25,000", expiresOn: "2099-02-14", recipientName: "Ngozi", recipientEmail: "NGOZI@example.com ", message: "Happy Valentine's", locale: "es", sold: "on" };
    expect(parseGiftCard(fields)).toEqual({
      ok: true,
      input: { amount: 2_500_000, expiresAt: "2099-02-14T22:59:59.999Z", recipientName: "Ngozi", recipientEmail: "ngozi@example.com", message: "Happy Valentine's", locale: "es", sold: true },
    });
    const bad = parseGiftCard({ amount: "-5", expiresOn: "2020-01-01", recipientName: " ", recipientEmail: "nope", message: "x".repeat(1001), locale: "fr", sold: "" });
    expect(bad.ok ? [] : Object.keys(bad.errors).sort()).toEqual(["amount", "expiresOn", "message", "recipientEmail", "recipientName"]);
    expect(parseGiftCard({ ...fields, expiresOn: "2099-02-30" }).ok).toBe(false);
    expect(parseGiftCard({ ...fields, amount: "1e9" }).ok).toBe(false);
  });

  it("writes what credit and a gift card paid, and what is left, in both languages", () => {
    const order = { total: 1_500_000, storeCredit: 300_000, giftCard: 1_000_000, giftCardCode: "ABCD-EFGH-JKMN-PQRS" };
    expect(creditLines(translatorFor("en"), order)).toEqual([
      { label: "Gift card (ABCD-EFGH-JKMN-PQRS)", amount: "−₦10,000.00" },
      { label: "Store credit", amount: "−₦3,000.00" },
      { label: "To pay", amount: "₦2,000.00" },
    ]);
    expect(creditLines(translatorFor("es"), order).map((l) => l.label)).toEqual(["Tarjeta regalo (ABCD-EFGH-JKMN-PQRS)", "Saldo a favor", "A pagar"]);
    expect(creditLines(translatorFor("en"), { ...order, storeCredit: 0, giftCard: 0 })).toEqual([]);
  });

  it("matches a code without regard to case, spaces or dashes", () => {
    expect(giftCardKey("abcd-efgh jkmn-pqrs")).toBe("ABCDEFGHJKMNPQRS");
    expect(giftCardKey("<script>")).toBeNull();
    expect(giftCardKey("short")).toBeNull();
  });
});

describe.each(ENGINES)("store credit and gift cards on %s", (engine) => {
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

  async function shopper(productId: number, quantity = 1) {
    const n = ++users;
    const userId = await makeUser(t.db, `credit-buyer${n}@example.com`);
    const at = new Date().toISOString();
    const cartId = `cart-of-credit-buyer-${n}-${"x".repeat(20)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    await fill(cartId, productId, quantity);
    return { userId, cartId, phone: `0805${String(n).padStart(7, "0")}` };
  }
  async function fill(cartId: string, productId: number, quantity = 1) {
    await t.db.insertInto("cart_lines").values({ cart_id: cartId, product_id: productId, size_id: firstSizeOf(productId), quantity, created_at: new Date().toISOString() }).execute();
  }

  /** What the checkout page sends: the total it showed (credit does not change the total, only what is due). */
  async function submit(s: { userId: number; phone: string }, input: Partial<CheckoutInput> = {}) {
    const view = await checkoutView(t.db, s.userId, PAYMENT);
    const goods = view.cart.subtotal;
    return placeCheckoutOrder(
      t.db,
      { id: s.userId },
      {
        checkoutKey: view.checkoutKey,
        seen: view.seen,
        addressId: null,
        address: lagos,
        saveAddress: false,
        deliveryMethod: "delivery",
        paymentMethod: "bank_transfer",
        expectedTotal: String(goods + (goods >= 50_000_000 ? 0 : LAGOS_FEE)),
        payment: PAYMENT,
        phone: s.phone,
        ...input,
      },
    );
  }

  const perfume = async (price: number, stock = 100) => {
    const id = (await addProduct(t.db, { brandId: brand, categoryId: category, price, stock })).id;
    await setSize(t.db, id, { price, stock });
    return id;
  };
  const ledgerOf = (where: { userId?: number; giftCardId?: number }) =>
    t.db
      .selectFrom("credit_ledger")
      .select(["amount", "reason", "order_id", "actor_id"])
      .$if(where.userId !== undefined, (qb) => qb.where("user_id", "=", where.userId!))
      .$if(where.giftCardId !== undefined, (qb) => qb.where("gift_card_id", "=", where.giftCardId!))
      .orderBy("id")
      .execute();
  const paymentOf = async (number: string) =>
    (await t.db.selectFrom("orders").select(["payment_status", "store_credit", "gift_card", "gift_card_code", "total"]).where("number", "=", number).executeTakeFirstOrThrow());

  it("refunds part of a paid order as credit, and spends it on the next order: wholly, then partly", async () => {
    const product = await perfume(1_000_000);
    const s = await shopper(product, 2);
    const first = await submit(s);
    if (!first.ok) throw new Error(first.problem);
    const context = testContext(t);
    // Not paid yet: nothing to refund.
    expect(await refundAsCredit(t.db, { number: first.order.number, amount: 100_000, note: "", actorId: owner })).toEqual({ ok: false, error: "notPaid" });
    expect(await markOrderPaid(context, { number: first.order.number, actorId: owner })).toMatchObject({ ok: true });
    // One bottle came back broken: ₦10,000 + the fee back as credit; never more than the order over all refunds.
    expect(await refundAsCredit(t.db, { number: first.order.number, amount: 1_300_000, note: "broken cap", actorId: owner })).toEqual({ ok: true, refunded: 1_300_000, balance: 1_300_000 });
    expect(await refundAsCredit(t.db, { number: first.order.number, amount: 1_000_001, note: "", actorId: owner })).toEqual({ ok: false, error: "tooMuch", left: 1_000_000 });
    expect((await paymentOf(first.order.number)).payment_status).toBe("paid");

    // The next order (₦10,000 + ₦3,000) is paid wholly by the credit, at once.
    await fill(s.cartId, product, 1);
    await setUseCredit(t.db, s.cartId, true);
    const second = await submit(s);
    if (!second.ok) throw new Error(second.problem);
    expect(second.order).toMatchObject({ total: 1_300_000, storeCredit: 1_300_000, giftCard: 0, paymentStatus: "paid" });
    expect(await paymentOf(second.order.number)).toMatchObject({ payment_status: "paid", store_credit: 1_300_000 });
    expect(await creditBalance(t.db, s.userId)).toBe(0);

    // Some more credit, with a note: the following order is paid partly by it, the rest due by transfer.
    expect(await adjustCredit(t.db, { userId: s.userId, amount: 500_000, note: "sorry for the wait", actorId: owner })).toEqual({ ok: true, balance: 500_000 });
    await fill(s.cartId, product, 1);
    await setUseCredit(t.db, s.cartId, true);
    const third = await submit(s);
    if (!third.ok) throw new Error(third.problem);
    expect(third.order).toMatchObject({ total: 1_300_000, storeCredit: 500_000, paymentStatus: "unpaid" });
    // Paid later by hand: the credit is not taken again.
    expect(await markOrderPaid(context, { number: third.order.number, actorId: owner })).toMatchObject({ ok: true });
    expect(await creditBalance(t.db, s.userId)).toBe(0);

    const statement = await creditStatement(t.db, s.userId);
    expect(statement.movements.map((m) => [m.reason, m.amount, m.orderNumber])).toEqual([
      ["spent", -500_000, third.order.number],
      ["issued", 500_000, null],
      ["spent", -1_300_000, second.order.number],
      ["refund", 1_300_000, first.order.number],
    ]);
    const audit = await t.db.selectFrom("audit_log").select(["entity", "entity_id", "changes"]).where("actor_user_id", "=", owner).where("changes", "like", "%redit%").orderBy("id").execute();
    expect(audit.map((a) => [a.entity, JSON.parse(a.changes!)])).toEqual([
      ["order", { refundedAsCredit: [null, 1_300_000], note: [null, "broken cap"] }],
      ["user", { storeCredit: [0, 500_000], note: [null, "sorry for the wait"] }],
    ]);
  });

  it("refuses a manual change below zero or without a note, and refunds the whole order as refunded", async () => {
    const product = await perfume(2_000_000);
    const s = await shopper(product);
    expect(await adjustCredit(t.db, { userId: s.userId, amount: -1, note: "oops", actorId: owner })).toEqual({ ok: false, error: "belowZero" });
    expect(await adjustCredit(t.db, { userId: s.userId, amount: 100, note: "  ", actorId: owner })).toEqual({ ok: false, error: "note" });
    expect(await adjustCredit(t.db, { userId: owner, amount: 100, note: "me", actorId: owner })).toEqual({ ok: false, error: "notFound" });
    const placed = await submit(s);
    if (!placed.ok) throw new Error(placed.problem);
    await markOrderPaid(testContext(t), { number: placed.order.number, actorId: owner });
    expect(await refundAsCredit(t.db, { number: placed.order.number, amount: placed.order.total, note: "", actorId: owner })).toMatchObject({ ok: true });
    expect((await paymentOf(placed.order.number)).payment_status).toBe("refunded");
  });

  it("issues a gift card by e-mail, and another shopper spends it over two orders, the second taking the rest", async () => {
    const parsed = parseGiftCard({ amount: "20,000", expiresOn: "", recipientName: "Ngozi", recipientEmail: "ngozi@example.com", message: "Happy birthday!", locale: "es", sold: "on" });
    if (!parsed.ok) throw new Error("refused");
    const card = await issueGiftCard(t.db, parsed.input, owner, queueGiftCardEmail(translatorFor, SHOP));
    const mail = await t.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).where("kind", "=", "gift-card").where("to_address", "=", "ngozi@example.com").executeTakeFirstOrThrow();
    expect(mail.subject).toBe("Tienes una tarjeta regalo de Unboxed");
    expect(mail.text_body).toContain(card.code);
    expect(mail.text_body).toContain("₦20,000.00");
    expect(mail.text_body).toContain("Happy birthday!");
    const audit = await t.db.selectFrom("audit_log").select(["summary", "changes"]).where("entity", "=", "gift_card").where("entity_id", "=", card.id).executeTakeFirstOrThrow();
    expect(audit.summary).not.toContain(card.code.slice(5));
    expect(JSON.parse(audit.changes!)).toMatchObject({ amount: [null, 2_000_000], sold: [null, true] });

    const product = await perfume(1_200_000);
    const s = await shopper(product);
    expect(await enterGiftCard(t.db, s.cartId, "nope-nope-nope")).toEqual({ ok: false, reason: "unknown" });
    expect(await enterGiftCard(t.db, s.cartId, card.code.toLowerCase())).toEqual({ ok: true });
    const first = await submit(s);
    if (!first.ok) throw new Error(first.problem);
    // ₦12,000 + ₦3,000 fee = ₦15,000, all from the card.
    expect(first.order).toMatchObject({ total: 1_500_000, giftCard: 1_500_000, giftCardCode: card.code, paymentStatus: "paid" });
    expect(await giftCardState(t.db, card.code)).toMatchObject({ ok: true, balance: 500_000 });

    await fill(s.cartId, product);
    // The code is the cart's no longer once spent: entered again for the second order.
    expect(await enterGiftCard(t.db, s.cartId, card.code)).toEqual({ ok: true });
    const second = await submit(s);
    if (!second.ok) throw new Error(second.problem);
    expect(second.order).toMatchObject({ total: 1_500_000, giftCard: 500_000, paymentStatus: "unpaid" });
    expect(await giftCardState(t.db, card.code)).toEqual({ ok: false, reason: "empty" });
    await fill(s.cartId, product);
    expect(await enterGiftCard(t.db, s.cartId, card.code)).toEqual({ ok: false, reason: "empty" });

    // Cancelled: what the card paid comes back, once.
    const context = testContext(t);
    expect(await changeOrderStatus(context, { number: second.order.number, from: "pending", to: "cancelled", actorId: owner })).toMatchObject({ ok: true });
    expect(await giftCardState(t.db, card.code)).toMatchObject({ ok: true, balance: 500_000 });
    expect((await ledgerOf({ giftCardId: card.id })).map((r) => [r.reason, Number(r.amount)])).toEqual([
      ["issued", 2_000_000],
      ["spent", -1_500_000],
      ["spent", -500_000],
      ["returned", 500_000],
    ]);

    // Expired unpaid: given back too.
    expect(await enterGiftCard(t.db, s.cartId, card.code)).toEqual({ ok: true });
    const third = await submit(s);
    if (!third.ok) throw new Error(third.problem);
    expect(third.order.giftCard).toBe(500_000);
    await t.db.updateTable("orders").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", third.order.id).execute();
    expect(await expireUnpaidOrders(t.db, { orderHoldHours: 48, publicUrl: "http://shop.test" }, translatorFor("en"))).toContain(third.order.number);
    expect(await giftCardState(t.db, card.code)).toMatchObject({ ok: true, balance: 500_000 });

    // Past its expiry it pays nothing, even when it was entered before.
    await fill(s.cartId, product);
    expect(await enterGiftCard(t.db, s.cartId, card.code)).toEqual({ ok: true });
    await t.db.updateTable("gift_cards").set({ expires_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", card.id).execute();
    expect(await giftCardState(t.db, card.code)).toEqual({ ok: false, reason: "expired" });
    const fourth = await submit(s);
    if (!fourth.ok) throw new Error(fourth.problem);
    expect(fourth.order).toMatchObject({ giftCard: 0, paymentStatus: "unpaid" });
  });

  it("never takes a gift card below zero when 50 shoppers spend it at once", async () => {
    const card = await issueGiftCard(
      t.db,
      { amount: 10 * 1_300_000 + 700_000, expiresAt: null, recipientName: "Team", recipientEmail: "team@example.com", message: null, locale: "en", sold: false },
      owner,
      queueGiftCardEmail(translatorFor, SHOP),
    );
    const product = await perfume(1_000_000, 1_000);
    const shoppers = [];
    for (let i = 0; i < 50; i++) {
      const s = await shopper(product);
      expect(await enterGiftCard(t.db, s.cartId, card.code)).toEqual({ ok: true });
      shoppers.push(s);
    }
    const results = await Promise.all(shoppers.map((s) => submit(s)));
    expect(results.every((r) => r.ok)).toBe(true);
    const orders = results.map((r) => (r.ok ? r.order : null)!);
    // Ten orders paid wholly, one partly (₦7,000 of ₦13,000), the rest by their own means.
    expect(orders.filter((o) => o.giftCard === 1_300_000)).toHaveLength(10);
    expect(orders.filter((o) => o.giftCard === 700_000)).toHaveLength(1);
    expect(orders.filter((o) => o.giftCard === 0)).toHaveLength(39);
    const ledger = await ledgerOf({ giftCardId: card.id });
    expect(ledger.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(0);
    expect(ledger.filter((r) => r.reason === "spent")).toHaveLength(11);
    expect(await giftCardState(t.db, card.code)).toEqual({ ok: false, reason: "empty" });
  });

  it("never takes an account's credit below zero under changes at once", async () => {
    const userId = await makeUser(t.db, "credit-race@example.com");
    await adjustCredit(t.db, { userId, amount: 1_000_000, note: "start", actorId: owner });
    const results = await Promise.all(Array.from({ length: 30 }, () => adjustCredit(t.db, { userId, amount: -300_000, note: "take", actorId: owner })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.error === "belowZero")).toBe(true);
    expect(await creditBalance(t.db, userId)).toBe(100_000);
  });
});
