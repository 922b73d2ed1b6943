import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserRequest, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { addBrand, addCategory, addProduct, makeUser, setSize } from "../../tests/support/catalogue";
import { countingStatements } from "../../tests/support/statements";
import { addLine, CART_COOKIE, cartSummary, ensureCart, setLineQuantity, userCartId } from "./cart.server";
import { shopperAndState } from "./personal.server";
import { createSession, getSessionUser } from "./sessions.server";
import { toggleWishlist, WISHLIST_SHOWN_LIMIT, wishlistIds } from "./wishlist.server";

describe.each(ENGINES)("a shopper's own parts of a page on %s", (engine) => {
  let t: TestDatabase;
  let context: ReturnType<typeof testContext>;
  let brandId: number;
  let categoryId: number;
  const product = async (input: { price?: number; stock?: number; archived?: boolean } = {}) => (await addProduct(t.db, { brandId, categoryId, ...input })).id;
  const later = () => new Promise((resolve) => setTimeout(resolve, 3));

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    brandId = (await addBrand(t.db)).id;
    categoryId = (await addCategory(t.db)).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** What the separate reads say for this session: its user, cart summary and hearts. */
  async function separately(session: string) {
    const request = browserRequest("/", { cookies: [session] });
    const user = await getSessionUser(request, t.db);
    return { user, cart: await cartSummary(request, context), wishlist: user ? await wishlistIds(t.db, user.id) : [] };
  }

  it("reads a signed-in shopper's account, cart and hearts in one statement, the same as the separate reads", async () => {
    const ada = await makeUser(t.db, "ada@example.com");
    const bola = await makeUser(t.db, "bola@example.com");
    const [available, reduced, soldOut, archived, cheap] = [await product({ price: 2_000_000, stock: 10 }), await product({ price: 3_500_000, stock: 5 }), await product(), await product(), await product({ price: 990_000 })];
    // A second size of `available`, priced apart: a line per size, shown after the first.
    const size = await t.db
      .insertInto("product_sizes")
      .values({ product_id: available, label: "100 ml", price: 4_100_000, stock: 3, position: 2, created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const cart = await userCartId(t.db, ada);
    for (const [id, sizeId] of [[reduced], [available], [soldOut], [archived], [available, size.id]] as [number, number?][]) {
      await addLine(t.db, cart, id, sizeId);
      await later();
    }
    await setLineQuantity(t.db, cart, reduced, 4);
    await setSize(t.db, reduced, { stock: 2 });
    await setSize(t.db, soldOut, { stock: 0 });
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", archived).execute();
    for (const id of [cheap, available, soldOut]) {
      await toggleWishlist(t.db, ada, id);
      await later();
    }
    // Bola has a cart and hearts of his own, which never show in Ada's.
    await addLine(t.db, await userCartId(t.db, bola), cheap);
    await toggleWishlist(t.db, bola, reduced);

    const session = await createSession(context, ada);
    // The account's language is already known (else it is written once: see below).
    await t.db.updateTable("users").set({ locale: "en" }).where("id", "=", ada).execute();
    const counted = countingStatements(t.db);
    const { shopper, state } = await shopperAndState(browserRequest("/", { cookies: [session] }), { db: counted.db }, "en");
    expect(counted.statements).toEqual(["SelectQueryNode"]);

    const expected = await separately(session);
    expect(shopper).toEqual(expected.user);
    expect(state).toEqual({ user: { firstName: "Chioma", lastName: "Test", email: "ada@example.com", role: "customer" }, cart: expected.cart, wishlist: expected.wishlist });
    expect(state.wishlist).toEqual([cheap, available, soldOut].sort((a, b) => a - b));
    expect(state.cart.items.map((i) => [i.productId, i.quantity, i.buyable])).toEqual([
      [reduced, 2, true],
      [available, 1, true],
      [soldOut, 1, false],
      [archived, 1, false],
      [available, 1, true],
    ]);
    expect(state.cart.items[4]).toMatchObject({ sizeId: size.id, unitPrice: 4_100_000 });
    expect(state.cart).toMatchObject({ lines: 5, total: 2 * 3_500_000 + 2_000_000 + 4_100_000 });

    const bolaState = (await shopperAndState(browserRequest("/", { cookies: [await createSession(context, bola)] }), context, "en")).state;
    expect(bolaState.wishlist).toEqual([reduced]);
    expect(bolaState.cart.items.map((i) => i.productId)).toEqual([cheap]);
  });

  it("gives an empty cart and no hearts to a signed-in shopper who has neither", async () => {
    const id = await makeUser(t.db, "new@example.com");
    const { shopper, state } = await shopperAndState(browserRequest("/", { cookies: [await createSession(context, id)] }), context, "en");
    expect(shopper?.id).toBe(id);
    expect(state.cart).toEqual({ lines: 0, total: 0, items: [] });
    expect(state.wishlist).toEqual([]);
  });

  it("shows the most recent hearts only, up to the limit", async () => {
    const id = await makeUser(t.db, "hearts@example.com");
    const at = Date.now();
    const products = await t.db
      .insertInto("products")
      .values(
        Array.from({ length: WISHLIST_SHOWN_LIMIT + 1 }, (_, i) => ({
          slug: `heart-${i}`,
          name: `Heart ${i}`,
          description: "A test perfume.",
          price: 1_000_000,
          stock: 1,
          image: null,
          category_id: categoryId,
          brand_id: brandId,
          archived_at: null,
          created_at: new Date(at).toISOString(),
          updated_at: new Date(at).toISOString(),
        })),
      )
      .returning("id")
      .execute();
    // The first product was hearted first: it is the one left out.
    await t.db
      .insertInto("wishlist")
      .values(products.map((p, i) => ({ user_id: id, product_id: p.id, created_at: new Date(at + i * 1000).toISOString() })))
      .execute();
    const shown = products.slice(1).map((p) => p.id).sort((a, b) => a - b);
    const { state } = await shopperAndState(browserRequest("/", { cookies: [await createSession(context, id)] }), context, "en");
    expect(state.wishlist).toEqual(shown);
    expect(await wishlistIds(t.db, id)).toEqual(shown);
  });

  it("treats an expired session as signed out, removes it, and still shows the cart of the browser's cookie", async () => {
    const id = await makeUser(t.db, "expired@example.com");
    await addLine(t.db, await userCartId(t.db, id), await product());
    await toggleWishlist(t.db, id, await product());
    const session = await createSession(context, id);
    const sessionId = (await t.db.selectFrom("sessions").select("id").where("user_id", "=", id).executeTakeFirstOrThrow()).id;
    await t.db.updateTable("sessions").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", sessionId).execute();
    const visitorCart = (await ensureCart(browserRequest("/"), context)).cartId;
    const onSale = await product({ price: 1_234_500 });
    await addLine(t.db, visitorCart, onSale);

    const { shopper, state } = await shopperAndState(browserRequest("/", { cookies: [session, `${CART_COOKIE}=${visitorCart}`] }), context, "en");
    expect(shopper).toBeNull();
    expect(state).toEqual({ user: null, cart: { lines: 1, total: 1_234_500, items: [expect.objectContaining({ productId: onSale })] }, wishlist: [] });
    expect(await t.db.selectFrom("sessions").select("id").where("id", "=", sessionId).executeTakeFirst()).toBeUndefined();
  });

  it("takes one statement for a visitor with a cart, none for a visitor without cookies, and none for a malformed session cookie", async () => {
    const cartId = (await ensureCart(browserRequest("/"), context)).cartId;
    await addLine(t.db, cartId, await product({ price: 700_000 }));
    let counted = countingStatements(t.db);
    const withCart = await shopperAndState(browserRequest("/", { cookies: [`${CART_COOKIE}=${cartId}`] }), { db: counted.db }, "en");
    expect(withCart.state.cart.total).toBe(700_000);
    expect(counted.statements).toHaveLength(1);
    counted = countingStatements(t.db);
    expect((await shopperAndState(browserRequest("/", { cookies: ["ub_session=not-a-token"] }), { db: counted.db }, "en")).state.user).toBeNull();
    expect(await shopperAndState(browserRequest("/"), { db: counted.db }, "en")).toEqual({ shopper: null, state: { user: null, cart: { lines: 0, total: 0, items: [] }, wishlist: [] } });
    expect(counted.statements).toEqual([]);
  });

  it("gives the same answer when another loader of the request has already read the session", async () => {
    const id = await makeUser(t.db, "shared@example.com");
    const productId = await product();
    await addLine(t.db, await userCartId(t.db, id), productId);
    await toggleWishlist(t.db, id, productId);
    const session = await createSession(context, id);
    const request = browserRequest("/", { cookies: [session] });
    const first = await getSessionUser(request, t.db);
    const { shopper, state } = await shopperAndState(request, context, "en");
    expect(shopper).toBe(first);
    expect(state.wishlist).toEqual([productId]);
    expect(state.cart.items.map((i) => i.productId)).toEqual([productId]);
    // And the other way round: the session read with the cart is shared with the request's other loaders.
    const again = browserRequest("/", { cookies: [session] });
    const counted = countingStatements(t.db);
    const together = await shopperAndState(again, { db: counted.db }, "en");
    expect(await getSessionUser(again, counted.db)).toBe(together.shopper);
    expect(counted.statements).toHaveLength(1);
  });

  it("remembers the language the account uses, in a write only when it changed", async () => {
    const id = await makeUser(t.db, "lang@example.com");
    const session = await createSession(context, id);
    const counted = countingStatements(t.db);
    await shopperAndState(browserRequest("/", { cookies: [session] }), { db: counted.db }, "es");
    expect(counted.statements).toEqual(["SelectQueryNode", "UpdateQueryNode"]);
    expect((await t.db.selectFrom("users").select("locale").where("id", "=", id).executeTakeFirstOrThrow()).locale).toBe("es");
    await shopperAndState(browserRequest("/", { cookies: [session] }), { db: counted.db }, "es");
    expect(counted.statements).toHaveLength(3);
  });
});
