import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserRequest, testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { addBrand, addCategory, addProduct, makeUser, setSize } from "../../../tests/support/catalogue";
import { insertOrder } from "../../../tests/support/orders";
import { countingStatements } from "../../../tests/support/statements";
import { RECENT_SHOWN } from "~/lib/recently-viewed";
import { requestBackInStock, sizesWaitedFor } from "../catalogue/back-in-stock.server";
import { addLine, setLineQuantity, userCartId } from "./cart.server";
import { CART_COOKIE, cartSummary, ensureCart } from "~/http/cart.server";
import { productPersonal } from "./personal.server";
import { shopperAndState } from "~/http/personal.server";
import { RECENT_KEPT, recentlyViewed, recordView, viewedIds } from "./recently-viewed.server";
import { reviewEligibility } from "../catalogue/reviews.server";
import { createSession, getSessionUser } from "~/http/session.server";
import { toggleWishlist, WISHLIST_SHOWN_LIMIT, wishlistIds } from "./wishlist.server";

describe.each(ENGINES)("a shopper's own parts of a page on %s", (engine) => {
  let t: TestDatabase;
  let context: ReturnType<typeof testContext>;
  let brandId: number;
  let categoryId: number;
  const product = async (input: { price?: number; stock?: number; archived?: boolean } = {}) => (await addProduct(t.db, { brandId, categoryId, ...input })).id;
  const later = () => new Promise((resolve) => setTimeout(resolve, 3));
  /** Adds sizes to a product; returns their ids, and the id of the size it was made with. */
  const addSizes = async (productId: number, sizes: { label: string; price: number; stock: number; position: number }[]) => {
    const at = new Date().toISOString();
    const added = await t.db
      .insertInto("product_sizes")
      .values(sizes.map((size) => ({ product_id: productId, ...size, created_at: at, updated_at: at })))
      .returning("id")
      .execute();
    const first = await t.db.selectFrom("product_sizes").select("id").where("product_id", "=", productId).where("position", "<", 2).executeTakeFirstOrThrow();
    return { ids: added.map((row) => row.id), first: first.id };
  };

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

  it("orders cart lines added at the same moment as the separate read does: by product, then by the size's place", async () => {
    const ada = await makeUser(t.db, "ada.same-moment@example.com");
    const [first, second] = [await product({ stock: 9 }), await product({ stock: 9 })];
    const {
      ids: [large, small],
      first: firstSize,
    } = await addSizes(second, [
      { label: "100 ml", price: 5_000_000, stock: 3, position: 3 },
      { label: "30 ml", price: 1_000_000, stock: 3, position: 2 },
    ]);
    const cart = await userCartId(t.db, ada);
    for (const [id, sizeId] of [[second, large], [first], [second, small], [second, firstSize]] as [number, number?][]) await addLine(t.db, cart, id, sizeId);
    // One moment for all four, as a guest cart merged at sign-in writes them: only the tie-breaks order them.
    await t.db.updateTable("cart_lines").set({ created_at: new Date().toISOString() }).where("cart_id", "=", cart).execute();

    const session = await createSession(context, ada);
    const { state } = await shopperAndState(browserRequest("/", { cookies: [session] }), context, "en");
    expect(state.cart.items.map((i) => [i.productId, i.sizeId])).toEqual([
      [first, expect.any(Number)],
      [second, firstSize],
      [second, small],
      [second, large],
    ]);
    expect(state.cart).toEqual((await separately(session)).cart);
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

  describe("a signed-in shopper's product page", () => {
    const shopper = async (email: string) => ({ id: await makeUser(t.db, email), email: email.toUpperCase() });
    const views = (userId: number) => t.db.selectFrom("recently_viewed").select(["product_id", "seq"]).where("user_id", "=", userId).orderBy("seq", "desc").execute();

    it("reads the row, the review state and the waited sizes in one statement, the same as the separate reads, and records the view", async () => {
      const ada = await shopper("ada.product@example.com");
      const bola = await shopper("bola.product@example.com");
      const viewed = [await product(), await product({ archived: true }), await product({ stock: 0 }), await product()];
      for (const id of viewed) await recordView(t.db, ada.id, id);
      await recordView(t.db, bola.id, viewed[0]);
      // The page's product: sold out in two of its three sizes; Ada waits for one of them, Bola for the other.
      const page = await product({ stock: 5 });
      await insertOrder(t.db, { userId: ada.id, status: "delivered", items: [{ productId: page, quantity: 1 }] });
      await setSize(t.db, page, { stock: 0 });
      const {
        ids: [second, third],
        first,
      } = await addSizes(page, [
        { label: "50 ml", price: 3_000_000, stock: 0, position: 2 },
        { label: "100 ml", price: 5_000_000, stock: 4, position: 3 },
      ]);
      expect((await requestBackInStock(t.db, { productId: page, sizeId: second, email: ada.email, userId: ada.id, locale: "en" })).ok).toBe(true);
      expect((await requestBackInStock(t.db, { productId: page, sizeId: first, email: bola.email, userId: bola.id, locale: "en" })).ok).toBe(true);
      expect(third).toBeDefined();

      const expectedRow = await recentlyViewed(t.db, ada.id, [page]);
      const expected = { review: await reviewEligibility(t.db, ada.id, page), waited: await sizesWaitedFor(t.db, page, ada.email), recent: expectedRow };
      expect(expected).toMatchObject({ review: "eligible", waited: [second] });
      expect(expectedRow.map((card) => card.id)).toEqual([viewed[3], viewed[2], viewed[0]]);

      const counted = countingStatements(t.db);
      const personal = await productPersonal(counted.db, ada, page, true);
      expect(personal).toEqual(expected);
      // The cards are the catalogue's own, field for field and in the same order.
      expect(JSON.stringify(personal.recent)).toBe(JSON.stringify(expectedRow));
      // The new view is written after the read (docs/decisions/196): on PostgreSQL in one statement that
      // checks the latest view again; on SQLite in a transaction that reads it again (not before it: the
      // read already found it new).
      if (engine === "postgres") expect(counted.statements).toEqual(["SelectQueryNode", "RawNode"]);
      // (the write between the pragmas that commit it without waiting for the disk: decision 172)
      else expect(counted.statements).toEqual(["SelectQueryNode", "RawNode", "SelectQueryNode", "InsertQueryNode", "DeleteQueryNode", "RawNode"]);
      expect(await viewedIds(t.db, ada.id)).toEqual([page, viewed[3], viewed[2], viewed[1], viewed[0]]);

      // Opening it again: nothing written, the same row; on both engines one statement.
      const before = await views(ada.id);
      const again = countingStatements(t.db);
      expect(await productPersonal(again.db, ada, page, true)).toEqual(personal);
      expect(again.statements).toHaveLength(1);
      expect(await views(ada.id)).toEqual(before);

      // Bola sees his own: not bought, his size, his one view.
      expect(await productPersonal(t.db, bola, page, true)).toEqual({ review: "notBought", waited: [first], recent: [expect.objectContaining({ id: viewed[0] })] });
      // Without a sold-out size the waited sizes are not asked.
      expect((await productPersonal(t.db, bola, viewed[3], false)).waited).toEqual([]);
      expect(await productPersonal(t.db, null, page, true)).toEqual({ review: null, waited: [], recent: null });
    });

    it("shows views of the same number, as two pages opened at once on PostgreSQL can leave them, in the order of the separate read", async () => {
      const ada = await shopper("ada.same-seq@example.com");
      const [a, b, c, page] = [await product(), await product(), await product(), await product()];
      const at = new Date().toISOString();
      await t.db
        .insertInto("recently_viewed")
        .values([
          { user_id: ada.id, product_id: a, seq: 1, viewed_at: at },
          { user_id: ada.id, product_id: c, seq: 2, viewed_at: at },
          { user_id: ada.id, product_id: b, seq: 2, viewed_at: at },
        ])
        .execute();
      const separate = await recentlyViewed(t.db, ada.id, [page]);
      expect(separate.map((card) => card.id)).toEqual([c, b, a]);
      expect((await productPersonal(t.db, ada, page, false)).recent).toEqual(separate);
    });

    it("gives each review state as reviewEligibility does", async () => {
      const page = await product();
      const states: Record<string, number> = {
        notBought: (await shopper("never@example.com")).id,
        notDelivered: (await shopper("shipped@example.com")).id,
        eligible: (await shopper("delivered@example.com")).id,
        alreadyReviewed: (await shopper("reviewed@example.com")).id,
      };
      await insertOrder(t.db, { userId: states.notDelivered, status: "shipped", items: [{ productId: page, quantity: 1 }] });
      await insertOrder(t.db, { userId: states.eligible, status: "delivered", items: [{ productId: page, quantity: 1 }] });
      await insertOrder(t.db, { userId: states.alreadyReviewed, status: "delivered", items: [{ productId: page, quantity: 1 }] });
      await t.db
        .insertInto("reviews")
        .values({ product_id: page, user_id: states.alreadyReviewed, rating: 4, body: "Lasts all day long.", author: "Chioma T.", created_at: new Date().toISOString() })
        .execute();
      for (const [state, id] of Object.entries(states)) {
        expect((await productPersonal(t.db, { id, email: "x@example.com" }, page, false)).review, state).toBe(state);
        expect(await reviewEligibility(t.db, id, page)).toBe(state);
      }
    });

    it(`keeps the latest ${RECENT_KEPT} views: a new view removes the oldest, a kept one moves to the front`, async () => {
      const ada = await shopper("many.views@example.com");
      const ids: number[] = [];
      for (let i = 0; i < RECENT_KEPT + 2; i++) ids.push(await product());
      for (const id of ids.slice(0, RECENT_KEPT)) await recordView(t.db, ada.id, id);
      const latestFirst = ids.slice(0, RECENT_KEPT).reverse();

      const fresh = await productPersonal(t.db, ada, ids[RECENT_KEPT], false);
      expect(fresh.recent?.map((c) => c.id)).toEqual(latestFirst.slice(0, RECENT_SHOWN));
      expect(await viewedIds(t.db, ada.id)).toEqual([ids[RECENT_KEPT], ...latestFirst.slice(0, RECENT_KEPT - 1)]);
      expect(await views(ada.id)).toHaveLength(RECENT_KEPT);

      // A product already kept, not the latest: it moves to the front and nothing is removed.
      const kept = latestFirst[5];
      const moved = await productPersonal(t.db, ada, kept, false);
      expect(moved.recent?.map((c) => c.id)).toEqual([ids[RECENT_KEPT], ...latestFirst.filter((id) => id !== kept)].slice(0, RECENT_SHOWN));
      expect(await viewedIds(t.db, ada.id)).toEqual([kept, ids[RECENT_KEPT], ...latestFirst.slice(0, RECENT_KEPT - 1).filter((id) => id !== kept)]);
      expect(await views(ada.id)).toHaveLength(RECENT_KEPT);
    });

    it("records every view when several of a shopper's pages are opened at once, and the next view keeps the latest", async () => {
      const ada = await shopper("tabs@example.com");
      const ids: number[] = [];
      for (let i = 0; i < RECENT_KEPT + 4; i++) ids.push(await product());
      const pages = await Promise.all(ids.map((id) => productPersonal(t.db, ada, id, false)));
      expect(pages).toHaveLength(ids.length);
      const latest = await viewedIds(t.db, ada.id);
      expect(latest).toHaveLength(RECENT_KEPT);
      expect(ids).toEqual(expect.arrayContaining(latest));
      // On PostgreSQL each page's statement trims the views it saw when it started, so views written
      // by pages opened at the same moment may outlive them until the shopper's next view.
      if (engine === "sqlite") expect(await views(ada.id)).toHaveLength(RECENT_KEPT);
      else expect((await views(ada.id)).length).toBeLessThanOrEqual(ids.length);
      const next = await product();
      await productPersonal(t.db, ada, next, false);
      expect((await viewedIds(t.db, ada.id))[0]).toBe(next);
      expect(await views(ada.id)).toHaveLength(RECENT_KEPT);
    });
  });
});
