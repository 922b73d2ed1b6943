import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { makeProducts, makeUser } from "../../../tests/support/catalogue";
import { toggleWishlist, wishlistCards, wishlistIds } from "./wishlist.server";

describe.each(ENGINES)("wishlist on %s", (engine) => {
  let t: TestDatabase;
  let ada: number;
  let bola: number;
  let products: number[];

  beforeAll(async () => {
    t = await freshDatabase(engine);
    ada = await makeUser(t.db, "ada@example.com");
    bola = await makeUser(t.db, "bola@example.com");
    products = await makeProducts(t.db, [
      { name: "Oud Wood", price: 30_000_000, stock: 3 },
      { name: "Sauvage", price: 15_000_000, stock: 0 },
    ]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("toggles a product in and out of the user's own wishlist", async () => {
    expect(await toggleWishlist(t.db, ada, products[0])).toEqual({ inWishlist: true });
    expect(await toggleWishlist(t.db, ada, products[1])).toEqual({ inWishlist: true });
    expect(await wishlistIds(t.db, ada)).toEqual([...products].sort((a, b) => a - b));
    expect((await wishlistCards(t.db, ada)).map((c) => c.name)).toEqual(["Sauvage", "Oud Wood"]);

    // Bola's toggle touches only Bola's rows.
    expect(await toggleWishlist(t.db, bola, products[0])).toEqual({ inWishlist: true });
    expect(await toggleWishlist(t.db, bola, products[0])).toEqual({ inWishlist: false });
    expect(await wishlistIds(t.db, ada)).toHaveLength(2);

    expect(await toggleWishlist(t.db, ada, products[0])).toEqual({ inWishlist: false });
    expect(await wishlistIds(t.db, ada)).toEqual([products[1]]);
  });

  it("refuses unknown and archived products, and is empty for signed-out shoppers", async () => {
    expect(await toggleWishlist(t.db, ada, 999_999)).toBeNull();
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", products[1]).execute();
    expect(await toggleWishlist(t.db, ada, products[1])).toBeNull();
    expect(await wishlistCards(t.db, ada)).toEqual([]);
  });
});
