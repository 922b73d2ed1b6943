import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { makeProducts, makeUser, setSize, firstSizeOf } from "../../../tests/support/catalogue";
import { addAddress, listAddresses, MAX_ADDRESSES } from "../accounts/addresses.server";
import { type CatalogScope, onCatalogChange, productCards } from "../catalogue/catalog.server";
import { type CheckoutInput, checkoutView, placeCheckoutOrder } from "./checkout.server";
import { testContext } from "../../../tests/support/context";
import { translatorFor } from "~/platform/translations.server";

const lagos = { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" };
const PAYMENT = { paystack: false, bankTransfer: true, payOnDelivery: true };
/** The seeded Lagos fee (₦3,000), free from ₦500,000. */
const lagosTotal = (subtotal: number) => (subtotal >= 50_000_000 ? subtotal : subtotal + 300_000);
/** What the checkout page would send besides the address, for a basket of this subtotal delivered to Lagos. */
const choices = (subtotal: number) => ({
  deliveryMethod: "delivery",
  paymentMethod: "on_delivery",
  expectedTotal: String(lagosTotal(subtotal)),
  payment: PAYMENT,
  phone: "0803 123 4567",
});

describe.each(ENGINES)("checkout on %s", (engine) => {
  let t: TestDatabase;
  let users = 0;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function shopperWithCart(lines: { productId: number; quantity: number }[]) {
    const userId = await makeUser(t.db, `shopper${++users}@example.com`);
    const at = new Date().toISOString();
    const cartId = `cart-of-user-${users}-${"x".repeat(20)}`;
    await t.db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
    if (lines.length) {
      await t.db
        .insertInto("cart_lines")
        .values(lines.map((l) => ({ cart_id: cartId, product_id: l.productId, size_id: firstSizeOf(l.productId), quantity: l.quantity, created_at: at })))
        .execute();
    }
    return { userId, cartId };
  }

  async function submit(userId: number, input: Partial<CheckoutInput> = {}) {
    const view = await checkoutView(t.db, userId, PAYMENT);
    return placeCheckoutOrder(t.db, { id: userId }, {
      checkoutKey: view.checkoutKey,
      seen: view.seen,
      addressId: null,
      address: lagos,
      saveAddress: false,
      ...choices(view.cart.subtotal),
      ...input,
    });
  }

  const stockOf = async (id: number) => (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
  const cartLines = async (cartId: string) => t.db.selectFrom("cart_lines").select("product_id").where("cart_id", "=", cartId).execute();

  it("places the order from the database's prices, takes the stock and empties the cart", async () => {
    const [oud, bleu] = await makeProducts(t.db, [
      { name: "Oud Wood", price: 30_000_000, stock: 5 },
      { name: "Bleu", price: 16_500_050, stock: 2 },
    ]);
    const { userId, cartId } = await shopperWithCart([
      { productId: oud, quantity: 2 },
      { productId: bleu, quantity: 1 },
    ]);
    const result = await submit(userId);
    if (!result.ok) throw new Error(result.problem);
    expect(result.order.number).toMatch(/^UB-\d{5,}$/);
    expect(result.order.subtotal).toBe(2 * 30_000_000 + 16_500_050);
    expect(result.order.total).toBe(result.order.subtotal);
    expect(result.order.status).toBe("pending");
    expect(await stockOf(oud)).toBe(3);
    expect(await stockOf(bleu)).toBe(1);
    expect(await cartLines(cartId)).toEqual([]);
    const events = await t.db.selectFrom("order_events").select("status").where("order_id", "=", result.order.id).execute();
    expect(events).toEqual([{ status: "pending" }]);
  });

  it("tells the kept pages which products an order was of, or anything once one of them sold out (docs/decisions/205)", async () => {
    const [oud, bleu, pair] = await makeProducts(t.db, [
      { name: "Scope Oud", price: 30_000_000, stock: 5 },
      { name: "Scope Bleu", price: 16_500_050, stock: 1 },
      { name: "Scope Pair", price: 20_000_000, stock: 2 },
    ]);
    const heard: CatalogScope[] = [];
    const stop = onCatalogChange((where, scope) => where === "here" && heard.push(scope));
    try {
      // A card says only whether a product is sold out: one bottle fewer leaves every card of it as it was.
      const cards = async () => (await productCards(t.db, [oud, bleu])).sort((a, b) => a.id - b.id);
      const cardsBefore = await cards();
      const oudOnly = await shopperWithCart([{ productId: oud, quantity: 2 }]);
      expect((await submit(oudOnly.userId)).ok).toBe(true);
      expect(heard).toEqual([{ ordered: [oud] }]);
      expect(await cards()).toEqual(cardsBefore);
      // The last bottle of one of two products: every card of it changes.
      const both = await shopperWithCart([
        { productId: oud, quantity: 1 },
        { productId: bleu, quantity: 1 },
      ]);
      expect((await submit(both.userId)).ok).toBe(true);
      expect(heard[1]).toBe("anything");
      expect((await productCards(t.db, [bleu]))[0].soldOut).toBe(1);

      // Two shoppers take the last two bottles at the same moment: whichever order comes second sees
      // the product sold out, however the two interleave.
      heard.length = 0;
      const shoppers = [await shopperWithCart([{ productId: pair, quantity: 1 }]), await shopperWithCart([{ productId: pair, quantity: 1 }])];
      const results = await Promise.all(shoppers.map((s) => submit(s.userId)));
      expect(results.map((r) => r.ok)).toEqual([true, true]);
      expect(await stockOf(pair)).toBe(0);
      expect(heard).toHaveLength(2);
      expect(heard).toContainEqual({ ordered: [pair] });
      expect(heard).toContain("anything");
    } finally {
      stop();
    }
  });

  it("has the spec's three address outcomes: save then link, snapshot only, saved address linked", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Outcome", price: 1_000_000, stock: 10 }]);

    const saving = await shopperWithCart([{ productId: p, quantity: 1 }]);
    const saved = await submit(saving.userId, { saveAddress: true });
    if (!saved.ok) throw new Error(saved.problem);
    const [savedAddress] = await listAddresses(t.db, saving.userId);
    expect(savedAddress).toMatchObject(lagos);
    const savedOrder = await t.db.selectFrom("orders").selectAll().where("id", "=", saved.order.id).executeTakeFirstOrThrow();
    expect(savedOrder.address_id).toBe(savedAddress.id);
    expect(savedOrder.ship_city).toBe("Lekki");

    const once = await shopperWithCart([{ productId: p, quantity: 1 }]);
    const snapshot = await submit(once.userId, { address: { ...lagos, city: "Ikeja" } });
    if (!snapshot.ok) throw new Error(snapshot.problem);
    const snapshotOrder = await t.db.selectFrom("orders").selectAll().where("id", "=", snapshot.order.id).executeTakeFirstOrThrow();
    expect(snapshotOrder.address_id).toBeNull();
    expect(snapshotOrder.ship_city).toBe("Ikeja");
    expect(await listAddresses(t.db, once.userId)).toEqual([]);

    const linked = await shopperWithCart([{ productId: p, quantity: 1 }]);
    const home = await addAddress(t.db, linked.userId, { ...lagos, street: "3 Awolowo Road" });
    // The typed fields are ignored when a saved address is chosen.
    const viaSaved = await submit(linked.userId, { addressId: home.id, address: { street: "", city: "", state: "", country: "" } });
    if (!viaSaved.ok) throw new Error(viaSaved.problem);
    const linkedOrder = await t.db.selectFrom("orders").selectAll().where("id", "=", viaSaved.order.id).executeTakeFirstOrThrow();
    expect(linkedOrder.address_id).toBe(home.id);
    expect(linkedOrder.ship_street).toBe("3 Awolowo Road");

    // Deleting the saved address later never changes the order.
    await t.db.deleteFrom("addresses").where("id", "=", home.id).execute();
    const after = await t.db.selectFrom("orders").selectAll().where("id", "=", viaSaved.order.id).executeTakeFirstOrThrow();
    expect(after.ship_street).toBe("3 Awolowo Road");
    expect(after.address_id).toBeNull();
  });

  it("does not save a fifth address, and still places the order", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Limit", price: 1_000_000, stock: 10 }]);
    const { userId } = await shopperWithCart([{ productId: p, quantity: 1 }]);
    for (let i = 0; i < MAX_ADDRESSES; i++) await addAddress(t.db, userId, { ...lagos, street: `${i} Road` });
    const result = await submit(userId, { saveAddress: true });
    expect(result.ok).toBe(true);
    expect(await listAddresses(t.db, userId)).toHaveLength(MAX_ADDRESSES);
  });

  it("keeps the mobile number on the order in E.164, and gives it to a saved address and an account that had none", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Rider Calls", price: 1_000_000, stock: 10 }]);
    const orderPhone = async (id: number) => (await t.db.selectFrom("orders").select("phone").where("id", "=", id).executeTakeFirstOrThrow()).phone;
    const userPhone = async (id: number) => (await t.db.selectFrom("users").select("phone").where("id", "=", id).executeTakeFirstOrThrow()).phone;

    // A saved address from before numbers were asked: the number typed now is kept with it and the account.
    const { userId } = await shopperWithCart([{ productId: p, quantity: 1 }]);
    const old = await addAddress(t.db, userId, lagos);
    expect((await checkoutView(t.db, userId, PAYMENT)).phone).toBeNull();
    const placed = await submit(userId, { addressId: old.id, phone: "+234 (0) 803-123-4567" });
    if (!placed.ok) throw new Error(placed.problem);
    expect(placed.order.phone).toBe("+2348031234567");
    expect(await orderPhone(placed.order.id)).toBe("+2348031234567");
    expect((await listAddresses(t.db, userId))[0].phone).toBe("+2348031234567");
    expect(await userPhone(userId)).toBe("+2348031234567");
    expect((await checkoutView(t.db, userId, PAYMENT)).phone).toBe("+2348031234567");

    // Another number on a later order is that order's: the account and the address keep theirs.
    await t.db.insertInto("cart_lines").values({ cart_id: (await t.db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow()).id, product_id: p, size_id: firstSizeOf(p), quantity: 1, created_at: new Date().toISOString() }).execute();
    const second = await submit(userId, { addressId: old.id, phone: "0909 876 5432", deliveryMethod: "pickup", expectedTotal: "1000000" });
    if (!second.ok) throw new Error(second.problem);
    expect(await orderPhone(second.order.id)).toBe("+2349098765432");
    expect((await listAddresses(t.db, userId))[0].phone).toBe("+2348031234567");
    expect(await userPhone(userId)).toBe("+2348031234567");

    // A new address saved at checkout is saved with the number.
    const saving = await shopperWithCart([{ productId: p, quantity: 1 }]);
    expect((await submit(saving.userId, { saveAddress: true, phone: "07012345678" })).ok).toBe(true);
    expect((await listAddresses(t.db, saving.userId))[0]).toMatchObject({ ...lagos, phone: "+2347012345678" });
  });

  it("asks for a Nigerian mobile number, for delivery and pick-up, with the address's own errors, writing nothing", async () => {
    const [p] = await makeProducts(t.db, [{ name: "No Number", price: 1_000_000, stock: 3 }]);
    const { userId, cartId } = await shopperWithCart([{ productId: p, quantity: 1 }]);
    expect(await submit(userId, { phone: "" })).toEqual({ ok: false, problem: "invalidAddress", errors: { phone: "address.errors.phoneRequired" } });
    expect(await submit(userId, { phone: "01 234 5678" })).toEqual({ ok: false, problem: "invalidAddress", errors: { phone: "address.errors.phone" } });
    expect(await submit(userId, { phone: "<script>", deliveryMethod: "pickup", expectedTotal: "1000000" })).toEqual({
      ok: false,
      problem: "invalidAddress",
      errors: { phone: "address.errors.phone" },
    });
    expect(await submit(userId, { phone: "0803", address: { ...lagos, city: "" } })).toEqual({
      ok: false,
      problem: "invalidAddress",
      errors: { city: "address.errors.city", phone: "address.errors.phone" },
    });
    expect(await stockOf(p)).toBe(3);
    expect(await cartLines(cartId)).toHaveLength(1);
    expect(await t.db.selectFrom("orders").select("id").where("user_id", "=", userId).execute()).toEqual([]);
  });

  it("refuses another user's saved address, a bad address and an empty cart, writing nothing", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Guarded", price: 1_000_000, stock: 3 }]);
    const other = await shopperWithCart([]);
    const theirs = await addAddress(t.db, other.userId, lagos);
    const { userId, cartId } = await shopperWithCart([{ productId: p, quantity: 1 }]);

    expect(await submit(userId, { addressId: theirs.id })).toEqual({ ok: false, problem: "unknownAddress" });
    expect(await submit(userId, { addressId: 999_999 })).toEqual({ ok: false, problem: "unknownAddress" });
    const bad = await submit(userId, { address: { street: "", city: "x".repeat(10_000), state: "Atlantis", country: "Nigeria" } });
    expect(bad).toEqual({
      ok: false,
      problem: "invalidAddress",
      errors: { street: "address.errors.street", city: "address.errors.tooLong" },
    });
    expect(await submit(other.userId)).toEqual({ ok: false, problem: "empty" });
    expect(await stockOf(p)).toBe(3);
    expect(await cartLines(cartId)).toHaveLength(1);
    const orders = await t.db.selectFrom("orders").select("id").where("user_id", "in", [userId, other.userId]).execute();
    expect(orders).toEqual([]);
  });

  it("refuses when a price changed after the page was shown, and accepts the updated page", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Repriced", price: 1_000_000, stock: 3 }]);
    const { userId } = await shopperWithCart([{ productId: p, quantity: 1 }]);
    const view = await checkoutView(t.db, userId, PAYMENT);
    await setSize(t.db, p, { price: 1_200_000 });
    const input = { checkoutKey: view.checkoutKey, seen: view.seen, addressId: null, address: lagos, saveAddress: false, ...choices(1_200_000) };
    expect(await placeCheckoutOrder(t.db, { id: userId }, input)).toEqual({ ok: false, problem: "changed" });
    // A forged "seen" or total never helps: only the database decides.
    expect(await placeCheckoutOrder(t.db, { id: userId }, { ...input, seen: "0".repeat(64) })).toEqual({ ok: false, problem: "changed" });

    const fresh = await checkoutView(t.db, userId, PAYMENT);
    const result = await placeCheckoutOrder(t.db, { id: userId }, { ...input, checkoutKey: fresh.checkoutKey, seen: fresh.seen });
    if (!result.ok) throw new Error(result.problem);
    expect(result.order.total).toBe(1_200_000 + 300_000);
  });

  it("places one order when the same form is submitted twice, even at the same moment", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Twice", price: 2_000_000, stock: 10 }]);
    const { userId } = await shopperWithCart([{ productId: p, quantity: 2 }]);
    const view = await checkoutView(t.db, userId, PAYMENT);
    const input = { checkoutKey: view.checkoutKey, seen: view.seen, addressId: null, address: lagos, saveAddress: true, ...choices(view.cart.subtotal) };
    const [a, b] = await Promise.all([
      placeCheckoutOrder(t.db, { id: userId }, input),
      placeCheckoutOrder(t.db, { id: userId }, input),
    ]);
    const again = await placeCheckoutOrder(t.db, { id: userId }, input);
    if (!a.ok || !b.ok || !again.ok) throw new Error("expected the same order three times");
    expect(new Set([a.order.number, b.order.number, again.order.number]).size).toBe(1);
    expect([a.reused, b.reused].sort()).toEqual([false, true]);
    expect(await stockOf(p)).toBe(8);
    expect(await listAddresses(t.db, userId)).toHaveLength(1);
    const orders = await t.db.selectFrom("orders").select("id").where("user_id", "=", userId).execute();
    expect(orders).toHaveLength(1);
  });

  it("sells the last bottle once when 50 shoppers check out at the same moment", async () => {
    const [last] = await makeProducts(t.db, [{ name: "Last Bottle", price: 45_000_000, stock: 1 }]);
    const shoppers = [];
    for (let i = 0; i < 50; i++) shoppers.push(await shopperWithCart([{ productId: last, quantity: 1 }]));
    const views = await Promise.all(shoppers.map((s) => checkoutView(t.db, s.userId, PAYMENT)));
    const results = await Promise.all(
      shoppers.map((s, i) =>
        placeCheckoutOrder(t.db, { id: s.userId }, {
          checkoutKey: views[i].checkoutKey,
          seen: views[i].seen,
          addressId: null,
          address: lagos,
          saveAddress: false,
          ...choices(views[i].cart.subtotal),
        }),
      ),
    );
    const placed = results.filter((r) => r.ok);
    expect(placed).toHaveLength(1);
    for (const refused of results.filter((r) => !r.ok)) {
      expect(refused).toMatchObject({ ok: false, problem: expect.stringMatching(/^(soldOut|changed)$/) });
    }
    expect(results.filter((r) => !r.ok && r.problem === "soldOut").length).toBeGreaterThan(0);
    expect(await stockOf(last)).toBe(0);
    const items = await t.db.selectFrom("order_items").select("quantity").where("product_id", "=", last).execute();
    expect(items).toEqual([{ quantity: 1 }]);
  });

  it("queues the confirmation in the order's transaction: one per order, none for a refused or resent form", async () => {
    const [p] = await makeProducts(t.db, [{ name: "Confirmed Scent", price: 2_500_000, stock: 1 }]);
    const first = await shopperWithCart([{ productId: p, quantity: 1 }]);
    const second = await shopperWithCart([{ productId: p, quantity: 1 }]);
    const mail = (email: string) => ({ t: translatorFor("en"), config: testContext(t).config, user: { email, firstName: "Ada" } });
    const [view1, view2] = [await checkoutView(t.db, first.userId, PAYMENT), await checkoutView(t.db, second.userId, PAYMENT)];
    const input1 = { checkoutKey: view1.checkoutKey, seen: view1.seen, addressId: null, address: lagos, saveAddress: false, ...choices(2_500_000) };
    const placed = await placeCheckoutOrder(t.db, { id: first.userId }, input1, { mail: mail("first@example.com") });
    if (!placed.ok) throw new Error(placed.problem);
    const again = await placeCheckoutOrder(t.db, { id: first.userId }, input1, { mail: mail("first@example.com") });
    expect(again).toMatchObject({ ok: true, reused: true });
    const soldOut = await placeCheckoutOrder(
      t.db,
      { id: second.userId },
      { checkoutKey: view2.checkoutKey, seen: view2.seen, addressId: null, address: lagos, saveAddress: false, ...choices(2_500_000) },
      { mail: mail("second@example.com") },
    );
    expect(soldOut.ok).toBe(false);
    const queued = await t.db
      .selectFrom("mail_outbox")
      .select(["to_address", "kind", "subject", "text_body", "status"])
      .where("to_address", "in", ["first@example.com", "second@example.com"])
      .execute();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ to_address: "first@example.com", kind: "order-confirmation", status: "pending" });
    expect(queued[0].subject).toContain(placed.order.number);
    expect(queued[0].text_body).toContain("₦25,000.00");
    expect(queued[0].text_body).toContain(`http://shop.test/orders/${placed.order.number}`);
  });

  it("places one order per cart when several tabs of each of several carts check out at the same moment", async () => {
    const TABS = 4;
    const CARTS = 12;
    const [rose, musk] = await makeProducts(t.db, [
      { name: "Race Rose", price: 1_000_000, stock: 100 },
      { name: "Race Musk", price: 2_000_000, stock: 100 },
    ]);
    const carts = [];
    // Half the carts list the products the other way round: orders still take their stock without deadlocks.
    for (let i = 0; i < CARTS; i++) {
      const lines = [{ productId: rose, quantity: 2 }, { productId: musk, quantity: 1 }];
      carts.push(await shopperWithCart(i % 2 ? lines.reverse() : lines));
    }
    // Every tab opened the checkout page before any was submitted: each has its own form key.
    const tabs: { cart: (typeof carts)[number]; view: Awaited<ReturnType<typeof checkoutView>> }[] = [];
    for (const cart of carts) for (let tab = 0; tab < TABS; tab++) tabs.push({ cart, view: await checkoutView(t.db, cart.userId, PAYMENT) });
    const results = await Promise.all(
      tabs.map(({ cart, view }) =>
        placeCheckoutOrder(t.db, { id: cart.userId }, { checkoutKey: view.checkoutKey, seen: view.seen, addressId: null, address: lagos, saveAddress: false, ...choices(view.cart.subtotal) }),
      ),
    );
    for (const cart of carts) {
      const mine = results.filter((_, i) => tabs[i].cart === cart);
      expect(mine.filter((r) => r.ok)).toHaveLength(1);
      // The other tabs find the cart already emptied by the first.
      expect(mine.filter((r) => !r.ok)).toEqual(Array(TABS - 1).fill({ ok: false, problem: "empty" }));
      const orders = await t.db.selectFrom("orders").select("id").where("user_id", "=", cart.userId).execute();
      expect(orders).toHaveLength(1);
      expect(await cartLines(cart.cartId)).toEqual([]);
    }
    expect(await stockOf(rose)).toBe(100 - 2 * CARTS);
    expect(await stockOf(musk)).toBe(100 - CARTS);
  });
});
