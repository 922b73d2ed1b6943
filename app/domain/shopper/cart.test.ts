import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { addLine, cartView, clearCart, decrementLine, deleteAbandonedCarts, incrementLine, mergeGuestCartIntoUser, parseCartAction, removeLine, setLineQuantity } from "./cart.server";
import { CART_COOKIE, cartSummary, ensureCart, findCartId, mergeCartOnSignIn, requestCartView } from "~/http/cart.server";
import { createSession } from "~/http/session.server";
import { addProduct, setSize } from "../../../tests/support/catalogue";
import { countingStatements } from "../../../tests/support/statements";

const stamp = "2026-01-01T00:00:00.000Z";

describe.each(ENGINES)("cart on %s", (engine) => {
  let t: TestDatabase;
  let context: ReturnType<typeof testContext>;
  let brandId: number;
  let categoryId: number;

  async function product(fields: { price?: number; stock?: number; name?: string; archived?: boolean } = {}): Promise<number> {
    return (await addProduct(t.db, { brandId, categoryId, ...fields })).id;
  }

  async function user(email: string): Promise<number> {
    const row = await t.db
      .insertInto("users")
      .values({ email, password_hash: "x", first_name: "Ada", last_name: "Obi", role: "customer", created_at: stamp })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A new anonymous cart, as a first add would make it; returns its id and cookie. */
  async function anonymousCart(): Promise<{ cartId: string; cookie: string }> {
    const { cartId, setCookie } = await ensureCart(browserRequest("/cart", { method: "POST" }), context);
    return { cartId, cookie: setCookie! };
  }

  async function lines(cartId: string) {
    return t.db.selectFrom("cart_lines").select(["product_id", "quantity"]).where("cart_id", "=", cartId).orderBy("product_id").execute();
  }

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    brandId = (await t.db.insertInto("brands").values({ name: "Dior", slug: "dior", created_at: stamp }).returning("id").executeTakeFirstOrThrow()).id;
    categoryId = (
      await t.db.insertInto("categories").values({ name: "Men", slug: "men", created_at: stamp }).returning("id").executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe("the cart cookie", () => {
    it("gives an anonymous shopper a random id of at least 128 bits in an HttpOnly, SameSite=Lax cookie", async () => {
      const a = await anonymousCart();
      const b = await anonymousCart();
      expect(a.cartId).not.toBe(b.cartId);
      expect(a.cartId).toMatch(/^[A-Za-z0-9_-]{32}$/); // 32 base64url characters = 192 bits
      expect(a.cookie).toBe(`${CART_COOKIE}=${a.cartId}; Path=/; SameSite=Lax; Max-Age=5184000; HttpOnly`);
      expect(await findCartId(browserRequest("/", { cookies: [a.cookie] }), context)).toBe(a.cartId);
    });

    it("marks the cookie Secure when the shop is served over https", async () => {
      const secure = { ...context, config: { ...context.config, publicUrl: "https://unboxed.ng" } };
      const { setCookie } = await ensureCart(browserRequest("/cart", { method: "POST" }), secure);
      expect(setCookie).toMatch(/; HttpOnly; Secure$/);
    });

    it("keeps using the same cart, and renews its cookie", async () => {
      const a = await anonymousCart();
      const again = await ensureCart(browserRequest("/cart", { cookies: [a.cookie] }), context);
      expect(again.cartId).toBe(a.cartId);
      expect(again.setCookie).toBe(a.cookie);
    });

    it("gives a forged, malformed or unknown cookie a fresh cart with a new id", async () => {
      const before = await t.db.selectFrom("carts").select("id").execute();
      for (const forged of ["A".repeat(32), "x", "../../etc/passwd", "%E0%A4%A", "a".repeat(5000), "' or 1=1 --"]) {
        const request = browserRequest("/cart", { cookies: [`${CART_COOKIE}=${encodeURIComponent(forged)}`] });
        expect(await findCartId(request, context)).toBeNull();
        const { cartId } = await ensureCart(request, context);
        expect(cartId).not.toBe(forged);
        expect(before.map((c) => c.id)).not.toContain(cartId);
      }
    });

    it("never lets a cookie reach a cart that belongs to an account", async () => {
      const userId = await user("owner@example.com");
      const session = await createSession(context, userId);
      const { cartId } = await ensureCart(browserRequest("/cart", { cookies: [session] }), context);
      expect(await findCartId(browserRequest("/", { cookies: [`${CART_COOKIE}=${cartId}`] }), context)).toBeNull();
      // Nor the header's summary, which finds the cart in the same query as its lines.
      await addLine(t.db, cartId, await product());
      expect((await cartSummary(browserRequest("/", { cookies: [session] }), context)).lines).toBe(1);
      expect(await cartSummary(browserRequest("/", { cookies: [`${CART_COOKIE}=${cartId}`] }), context)).toEqual({ lines: 0, total: 0, items: [] });
    });
  });

  describe("a signed-in shopper's cart", () => {
    it("belongs to the account, follows it to another device and is created only once under a race", async () => {
      const userId = await user("ada@example.com");
      const phone = await createSession(context, userId);
      const laptop = await createSession(context, userId);
      const ids = await Promise.all(
        Array.from({ length: 6 }, () => ensureCart(browserRequest("/cart", { cookies: [phone] }), context)),
      );
      expect(new Set(ids.map((i) => i.cartId)).size).toBe(1);
      expect(ids[0].setCookie).toBeNull();
      const productId = await product();
      await addLine(t.db, ids[0].cartId, productId);
      const onLaptop = await findCartId(browserRequest("/", { cookies: [laptop] }), context);
      expect(onLaptop).toBe(ids[0].cartId);
      expect(await lines(onLaptop!)).toEqual([{ product_id: productId, quantity: 1 }]);
      const carts = await t.db.selectFrom("carts").select("id").where("user_id", "=", userId).execute();
      expect(carts).toHaveLength(1);
    });
  });

  describe("adding", () => {
    let cartId: string;
    beforeEach(async () => {
      ({ cartId } = await anonymousCart());
    });

    it("adds a line of 1; adding it again changes nothing", async () => {
      const id = await product({ name: "Sauvage" });
      expect(await addLine(t.db, cartId, id)).toEqual({ ok: true, kind: "added", productName: "Sauvage" });
      expect(await addLine(t.db, cartId, id)).toEqual({ ok: true, kind: "alreadyInCart", productName: "Sauvage" });
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 1 }]);
    });

    it("leaves an existing line's quantity alone when it is added again", async () => {
      const id = await product({ stock: 9 });
      await addLine(t.db, cartId, id);
      await incrementLine(t.db, cartId, id);
      await incrementLine(t.db, cartId, id);
      expect((await addLine(t.db, cartId, id)).kind).toBe("alreadyInCart");
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 3 }]);
    });

    it("refuses sold-out, archived and unknown products", async () => {
      const soldOut = await product({ stock: 0, name: "Gone" });
      const archived = await product({ archived: true });
      expect(await addLine(t.db, cartId, soldOut)).toEqual({ ok: false, kind: "outOfStock", productName: "Gone" });
      expect((await addLine(t.db, cartId, archived)).kind).toBe("unknownProduct");
      expect((await addLine(t.db, cartId, 2_000_000_000)).kind).toBe("unknownProduct");
      expect(await lines(cartId)).toEqual([]);
    });

    it("ends two (or ten) adds of the same product at once in one line of 1", async () => {
      const id = await product();
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => addLine(t.db, cartId, id)));
      expect(outcomes.filter((o) => o.kind === "added")).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === "alreadyInCart")).toHaveLength(9);
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 1 }]);
    });
  });

  describe("changing quantities", () => {
    let cartId: string;
    beforeEach(async () => {
      ({ cartId } = await anonymousCart());
    });

    it("increments up to the stock and no further", async () => {
      const id = await product({ stock: 3, name: "Aventus" });
      await addLine(t.db, cartId, id);
      expect((await incrementLine(t.db, cartId, id)).kind).toBe("updated");
      expect((await incrementLine(t.db, cartId, id)).kind).toBe("updated");
      expect(await incrementLine(t.db, cartId, id)).toEqual({ ok: false, kind: "stockLimit", productName: "Aventus", available: 3 });
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 3 }]);
    });

    it("never goes above the stock when many increments arrive at once", async () => {
      const id = await product({ stock: 4 });
      await addLine(t.db, cartId, id);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => incrementLine(t.db, cartId, id)));
      expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 4 }]);
    });

    it("decrements, and at quantity 1 removes the line", async () => {
      const id = await product({ name: "Oud Wood" });
      await addLine(t.db, cartId, id);
      await incrementLine(t.db, cartId, id);
      expect((await decrementLine(t.db, cartId, id)).kind).toBe("updated");
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 1 }]);
      expect(await decrementLine(t.db, cartId, id)).toEqual({ ok: true, kind: "removed", productName: "Oud Wood" });
      expect(await lines(cartId)).toEqual([]);
    });

    it("never goes below 1 or negative when many decrements arrive at once", async () => {
      const id = await product({ stock: 9 });
      await addLine(t.db, cartId, id);
      await setLineQuantity(t.db, cartId, id, 2);
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => decrementLine(t.db, cartId, id)));
      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(await lines(cartId)).toEqual([]);
      const negative = await t.db.selectFrom("cart_lines").select("quantity").where("quantity", "<", 1).execute();
      expect(negative).toEqual([]);
    });

    it("steps down from the stock when the stock fell below the quantity", async () => {
      const id = await product({ stock: 9 });
      await addLine(t.db, cartId, id);
      await setLineQuantity(t.db, cartId, id, 8);
      await setSize(t.db, id, { stock: 3 });
      await decrementLine(t.db, cartId, id);
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 2 }]);
    });

    it("sets a typed quantity between 1 and the stock", async () => {
      const id = await product({ stock: 6 });
      await addLine(t.db, cartId, id);
      expect((await setLineQuantity(t.db, cartId, id, 6)).kind).toBe("updated");
      expect(await setLineQuantity(t.db, cartId, id, 7)).toMatchObject({ ok: false, kind: "stockLimit", available: 6 });
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 6 }]);
      for (const bad of [0, -1, 1.5, Number.NaN, 1e9]) {
        await expect(setLineQuantity(t.db, cartId, id, bad)).rejects.toThrow(RangeError);
      }
    });

    it("says when the line is not in the cart, or the product left the shop or sold out", async () => {
      const id = await product({ stock: 4 });
      expect((await incrementLine(t.db, cartId, id)).kind).toBe("notInCart");
      expect((await setLineQuantity(t.db, cartId, id, 2)).kind).toBe("notInCart");
      await addLine(t.db, cartId, id);
      await setSize(t.db, id, { stock: 0 });
      expect((await incrementLine(t.db, cartId, id)).kind).toBe("outOfStock");
      await t.db.updateTable("products").set({ archived_at: stamp }).where("id", "=", id).execute();
      await setSize(t.db, id, { stock: 4 });
      expect((await incrementLine(t.db, cartId, id)).kind).toBe("unknownProduct");
      expect(await lines(cartId)).toEqual([{ product_id: id, quantity: 1 }]);
    });

    it("removes a line, twice without complaint, and clears the cart", async () => {
      const a = await product();
      const b = await product();
      await addLine(t.db, cartId, a);
      await addLine(t.db, cartId, b);
      expect((await removeLine(t.db, cartId, a)).kind).toBe("removed");
      expect((await removeLine(t.db, cartId, a)).kind).toBe("removed");
      expect(await lines(cartId)).toEqual([{ product_id: b, quantity: 1 }]);
      expect((await clearCart(t.db, cartId)).kind).toBe("cleared");
      expect(await lines(cartId)).toEqual([]);
      expect(await t.db.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst()).toEqual({ id: cartId });
    });
  });

  describe("reading the cart", () => {
    it("reads names and prices fresh, shows sold-out, archived and reduced lines, and leaves them out of the total", async () => {
      const { cartId, cookie } = await anonymousCart();
      const fine = await product({ price: 4_500_000, stock: 5, name: "Bleu" });
      const reduced = await product({ price: 1_000_000, stock: 9, name: "Tobacco" });
      const soldOut = await product({ price: 700_000, stock: 2, name: "Libre" });
      const archived = await product({ price: 300_000, stock: 2, name: "Old" });
      const deleted = await product({ price: 100_000, stock: 2, name: "Deleted" });
      for (const id of [fine, reduced, soldOut, archived, deleted]) await addLine(t.db, cartId, id);
      await setLineQuantity(t.db, cartId, fine, 2);
      await setLineQuantity(t.db, cartId, reduced, 5);

      await t.db.updateTable("products").set({ name: "Bleu de Chanel" }).where("id", "=", fine).execute();
      await setSize(t.db, fine, { price: 5_000_000 });
      await setSize(t.db, reduced, { stock: 3 });
      await setSize(t.db, soldOut, { stock: 0 });
      await t.db.updateTable("products").set({ archived_at: stamp }).where("id", "=", archived).execute();
      await t.db.deleteFrom("products").where("id", "=", deleted).execute();

      const view = await cartView(t.db, cartId);
      expect(view.lines.map((l) => [l.name, l.status, l.quantity, l.unitPrice, l.lineTotal])).toEqual([
        ["Bleu de Chanel", "available", 2, 5_000_000, 10_000_000],
        ["Tobacco", "reduced", 3, 1_000_000, 3_000_000],
        ["Libre", "soldOut", 1, 700_000, 0],
        ["Old", "unavailable", 1, 300_000, 0],
      ]);
      expect(view.subtotal).toBe(13_000_000);
      expect(view.buyableLines).toBe(2);

      // The cart page's read: the same, the cart found in the statement that reads its lines.
      const counted = countingStatements(t.db);
      expect(await requestCartView(browserRequest("/cart", { cookies: [cookie] }), { db: counted.db })).toEqual(view);
      expect(counted.statements).toHaveLength(1);

      const summary = await cartSummary(browserRequest("/", { cookies: [cookie] }), context);
      expect(summary.lines).toBe(4);
      expect(summary.total).toBe(13_000_000);
      expect(summary.items.map((i) => i.buyable)).toEqual([true, true, false, false]);
    });

    it("shows a signed-in shopper their account's cart on the cart page, and a cookie never an account's", async () => {
      const userId = await user("page-reader@example.com");
      const session = await createSession(context, userId);
      const { cartId } = await ensureCart(browserRequest("/cart", { cookies: [session] }), context);
      await addLine(t.db, cartId, await product({ name: "Account Oud" }));
      const view = await cartView(t.db, cartId);
      expect(view.lines.map((l) => l.name)).toEqual(["Account Oud"]);
      // The session read first (one statement), then the lines by the account's cart (one more).
      const counted = countingStatements(t.db);
      expect(await requestCartView(browserRequest("/cart", { cookies: [session] }), { db: counted.db })).toEqual(view);
      expect(counted.statements).toHaveLength(2);
      const empty = { lines: [], subtotal: 0, buyableLines: 0 };
      expect(await requestCartView(browserRequest("/cart", { cookies: [`${CART_COOKIE}=${cartId}`] }), context)).toEqual(empty);
      expect(await requestCartView(browserRequest("/cart", { cookies: [`${CART_COOKIE}=${"A".repeat(32)}`] }), context)).toEqual(empty);
    });

    it("shows an empty cart to a shopper without one", async () => {
      expect(await requestCartView(browserRequest("/cart"), context)).toEqual({ lines: [], subtotal: 0, buyableLines: 0 });
      expect(await cartView(t.db, null)).toEqual({ lines: [], subtotal: 0, buyableLines: 0 });
      expect(await cartSummary(browserRequest("/"), context)).toEqual({ lines: 0, total: 0, items: [] });
    });
  });

  describe("signing in", () => {
    it("merges the anonymous cart into the account's: the larger quantity wins, capped by the stock", async () => {
      const userId = await user("merge@example.com");
      const session = await createSession(context, userId);
      const userCart = (await ensureCart(browserRequest("/cart", { cookies: [session] }), context)).cartId;
      const both = await product({ stock: 10 });
      const bothCapped = await product({ stock: 4 });
      const guestOnly = await product({ stock: 10 });
      const userOnly = await product({ stock: 10 });
      const guestSoldOut = await product({ stock: 3 });
      const userLarger = await product({ stock: 10 });

      await addLine(t.db, userCart, userLarger);
      await setLineQuantity(t.db, userCart, userLarger, 4);
      await addLine(t.db, userCart, both);
      await setLineQuantity(t.db, userCart, both, 2);
      await addLine(t.db, userCart, bothCapped);
      await addLine(t.db, userCart, userOnly);
      await setLineQuantity(t.db, userCart, userOnly, 3);

      const guest = await anonymousCart();
      await addLine(t.db, guest.cartId, both);
      await setLineQuantity(t.db, guest.cartId, both, 5);
      await addLine(t.db, guest.cartId, bothCapped);
      await setLineQuantity(t.db, guest.cartId, bothCapped, 4);
      await addLine(t.db, guest.cartId, guestOnly);
      await addLine(t.db, guest.cartId, guestSoldOut);
      await setLineQuantity(t.db, guest.cartId, guestSoldOut, 3);
      await addLine(t.db, guest.cartId, userLarger);
      await setSize(t.db, bothCapped, { stock: 2 });
      await setSize(t.db, guestSoldOut, { stock: 0 });

      const clear = await mergeCartOnSignIn(browserRequest("/auth", { cookies: [guest.cookie] }), context, userId);
      expect(clear).toBe(`${CART_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0; HttpOnly`);

      expect(await lines(userCart)).toEqual(
        [
          { product_id: both, quantity: 5 },
          { product_id: bothCapped, quantity: 2 },
          { product_id: guestOnly, quantity: 1 },
          { product_id: userOnly, quantity: 3 },
          { product_id: guestSoldOut, quantity: 1 },
          { product_id: userLarger, quantity: 4 },
        ].sort((a, b) => a.product_id - b.product_id),
      );
      expect(await t.db.selectFrom("carts").select("id").where("id", "=", guest.cartId).executeTakeFirst()).toBeUndefined();
      expect(await lines(guest.cartId)).toEqual([]);
    });

    it("gives a shopper without an account cart the anonymous cart's lines", async () => {
      const userId = await user("fresh@example.com");
      const id = await product();
      const guest = await anonymousCart();
      await addLine(t.db, guest.cartId, id);
      await mergeGuestCartIntoUser(t.db, guest.cartId, userId);
      const session = await createSession(context, userId);
      const cartId = await findCartId(browserRequest("/", { cookies: [session] }), context);
      expect(cartId).not.toBeNull();
      expect(cartId).not.toBe(guest.cartId);
      expect(await lines(cartId!)).toEqual([{ product_id: id, quantity: 1 }]);
    });

    it("does nothing without a cart cookie, and only clears a forged one", async () => {
      const userId = await user("nocart@example.com");
      expect(await mergeCartOnSignIn(browserRequest("/auth"), context, userId)).toBeNull();
      const forged = await mergeCartOnSignIn(browserRequest("/auth", { cookies: [`${CART_COOKIE}=${"B".repeat(32)}`] }), context, userId);
      expect(forged).toMatch(/^ub_cart=; .*Max-Age=0/);
      expect(await t.db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirst()).toBeUndefined();
    });

    it("cannot merge another account's cart", async () => {
      const victim = await user("victim@example.com");
      const attacker = await user("attacker@example.com");
      const victimSession = await createSession(context, victim);
      const victimCart = (await ensureCart(browserRequest("/cart", { cookies: [victimSession] }), context)).cartId;
      const id = await product();
      await addLine(t.db, victimCart, id);
      await mergeGuestCartIntoUser(t.db, victimCart, attacker);
      expect(await lines(victimCart)).toEqual([{ product_id: id, quantity: 1 }]);
      expect(await t.db.selectFrom("carts").select("id").where("user_id", "=", attacker).executeTakeFirst()).toBeUndefined();
    });
  });

  it("deletes anonymous carts untouched for 60 days, never an account's", async () => {
    const old = "2020-01-01T00:00:00.000Z";
    const userId = await user("old@example.com");
    await t.db
      .insertInto("carts")
      .values([
        { id: "old-anonymous-cart-0000000000", user_id: null, created_at: old, updated_at: old },
        { id: "old-account-cart-00000000000", user_id: userId, created_at: old, updated_at: old },
      ])
      .execute();
    const { cartId } = await anonymousCart();
    expect(await deleteAbandonedCarts(t.db)).toBeGreaterThanOrEqual(1);
    const ids = (await t.db.selectFrom("carts").select("id").execute()).map((c) => c.id);
    expect(ids).not.toContain("old-anonymous-cart-0000000000");
    expect(ids).toContain("old-account-cart-00000000000");
    expect(ids).toContain(cartId);
  });
});

describe("cart form input", () => {
  it("accepts each intent with a well-formed product id and quantity", () => {
    expect(parseCartAction({ intent: "add", productId: "12" })).toEqual({ action: { intent: "add", productId: 12 } });
    expect(parseCartAction({ intent: "set", productId: "3", quantity: " 4 " })).toEqual({ action: { intent: "set", productId: 3, quantity: 4 } });
    expect(parseCartAction({ intent: "clear" })).toEqual({ action: { intent: "clear" } });
    expect(parseCartAction({ intent: "whatsapp" })).toEqual({ action: { intent: "whatsapp" } });
  });

  it("refuses quantities 0, -1, 1.5, abc, 1e9 and too large, with the quantity message", () => {
    for (const quantity of ["0", "-1", "1.5", "abc", "1e9", "1000000000", "1000", "", "0x10", "٣"]) {
      expect(parseCartAction({ intent: "set", productId: "3", quantity }), quantity).toEqual({ errorKey: "cart.errors.quantity" });
    }
  });

  it("refuses malformed product ids, unknown intents, missing fields and unreadable forms", () => {
    for (const productId of ["abc", "1.5", "-1", "0", "1e9", "", "99999999999", " 1"]) {
      expect(parseCartAction({ intent: "add", productId }), productId).toEqual({ errorKey: "cart.errors.badRequest" });
    }
    expect(parseCartAction({ intent: "steal", productId: "1" })).toEqual({ errorKey: "cart.errors.badRequest" });
    expect(parseCartAction({ intent: "remove" })).toEqual({ errorKey: "cart.errors.badRequest" });
    expect(parseCartAction({})).toEqual({ errorKey: "cart.errors.badRequest" });
    expect(parseCartAction(null)).toEqual({ errorKey: "cart.errors.badRequest" });
  });
});
