import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { migrateToLatest, migrateUpTo } from "./migrate.server";

// Migration 0080 (docs/decisions/121) on a shop as the release before sizes left it: every product
// becomes a one-size product, and no cart line, order item, stock history row or wishlist entry is lost.

describe.each(ENGINES)("migration 0080 on %s", (engine) => {
  let t: TestDatabase;
  const at = "2026-01-01T00:00:00.000Z";

  beforeAll(async () => {
    t = await freshDatabase(engine, { migrate: false });
    await migrateUpTo(t.db, "0071_reviews");
    const q = (text: string) => sql.raw(text).execute(t.db);
    await q(`insert into brands (name, slug, created_at) values ('Dior', 'dior', '${at}')`);
    await q(`insert into categories (name, slug, created_at) values ('Men', 'men', '${at}')`);
    await q(`insert into users (email, password_hash, first_name, last_name, role, created_at) values ('ada@example.com', 'x', 'Ada', 'Obi', 'customer', '${at}')`);
    await q(`insert into products (slug, name, description, price, discount, stock, image, category_id, brand_id, created_at, updated_at)
             values ('sauvage', 'Sauvage', 'd', 15000000, 1500000, 27, null, 1, 1, '${at}', '${at}'),
                    ('oud', 'Oud', 'd', 29000000, null, 0, null, 1, 1, '${at}', '${at}')`);
    await q(`insert into carts (id, user_id, created_at, updated_at) values ('cart-aaaaaaaaaaaaaaaaaaaaaa', 1, '${at}', '${at}')`);
    await q(`insert into cart_lines (cart_id, product_id, quantity, created_at) values ('cart-aaaaaaaaaaaaaaaaaaaaaa', 1, 2, '${at}'), ('cart-aaaaaaaaaaaaaaaaaaaaaa', 2, 1, '${at}')`);
    await q(`insert into wishlist (user_id, product_id, created_at) values (1, 2, '${at}')`);
    await q(`insert into orders (number, user_id, channel, status, subtotal, shipping, total, created_at, updated_at) values ('UB-10001', 1, 'checkout', 'pending', 15000000, 0, 15000000, '${at}', '${at}')`);
    await q(`insert into order_items (order_id, product_id, name, unit_price, quantity) values (1, 1, 'Sauvage', 15000000, 1)`);
    await q(`insert into stock_adjustments (product_id, actor_user_id, reason, note, change, stock_before, stock_after, created_at) values (1, 1, 'received', null, 5, 22, 27, '${at}')`);
    await q(`insert into back_in_stock_requests (product_id, email, user_id, locale, token, created_at) values (2, 'ada@example.com', 1, 'en', 'tok-aaaaaaaaaaaaaaaaaaaaaaaa', '${at}')`);
    expect(await migrateToLatest(t.db)).toEqual(expect.arrayContaining(["0080_product_sizes", "0081_back_in_stock_per_size"]));
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("gives every product one size from its own price, discount and stock", async () => {
    const sizes = await t.db.selectFrom("product_sizes").select(["id", "product_id", "label", "sku", "price", "discount", "stock", "position"]).orderBy("product_id").execute();
    expect(sizes).toEqual([
      { id: expect.any(Number), product_id: 1, label: "Standard", sku: null, price: 15_000_000, discount: 1_500_000, stock: 27, position: 0 },
      { id: expect.any(Number), product_id: 2, label: "Standard", sku: null, price: 29_000_000, discount: null, stock: 0, position: 0 },
    ]);
    const products = await t.db.selectFrom("products").select(["id", "price", "discount", "price_max", "stock"]).orderBy("id").execute();
    expect(products).toEqual([
      { id: 1, price: 15_000_000, discount: 1_500_000, price_max: 15_000_000, stock: 27 },
      { id: 2, price: 29_000_000, discount: null, price_max: 29_000_000, stock: 0 },
    ]);
  });

  it("keeps every cart line, order item, stock history row and wishlist entry, pointing at that size", async () => {
    const sizeOf = new Map((await t.db.selectFrom("product_sizes").select(["id", "product_id"]).execute()).map((s) => [s.product_id, s.id]));
    expect(await t.db.selectFrom("cart_lines").select(["product_id", "size_id", "quantity"]).orderBy("product_id").execute()).toEqual([
      { product_id: 1, size_id: sizeOf.get(1), quantity: 2 },
      { product_id: 2, size_id: sizeOf.get(2), quantity: 1 },
    ]);
    expect(await t.db.selectFrom("order_items").select(["product_id", "size_id", "size_label", "name"]).execute()).toEqual([{ product_id: 1, size_id: sizeOf.get(1), size_label: null, name: "Sauvage" }]);
    expect(await t.db.selectFrom("stock_adjustments").select(["size_id", "stock_after"]).execute()).toEqual([{ size_id: sizeOf.get(1), stock_after: 27 }]);
    expect(await t.db.selectFrom("wishlist").select(["user_id", "product_id"]).execute()).toEqual([{ user_id: 1, product_id: 2 }]);
    expect(await t.db.selectFrom("back_in_stock_requests").select(["product_id", "size_id", "email"]).execute()).toEqual([{ product_id: 2, size_id: sizeOf.get(2), email: "ada@example.com" }]);
    // The same perfume in a second size is a second line now.
    const at2 = new Date().toISOString();
    const second = await t.db.insertInto("product_sizes").values({ product_id: 1, label: "60 ml", price: 9_800_000, stock: 3, created_at: at2, updated_at: at2 }).returning("id").executeTakeFirstOrThrow();
    await t.db.insertInto("cart_lines").values({ cart_id: "cart-aaaaaaaaaaaaaaaaaaaaaa", product_id: 1, size_id: second.id, quantity: 1, created_at: at2 }).execute();
    expect((await t.db.selectFrom("cart_lines").select("size_id").where("product_id", "=", 1).execute()).length).toBe(2);
    await expect(t.db.insertInto("cart_lines").values({ cart_id: "cart-aaaaaaaaaaaaaaaaaaaaaa", product_id: 1, size_id: second.id, quantity: 1, created_at: at2 }).execute()).rejects.toThrow();
    expect(await t.db.selectFrom("products").select(["price", "price_max", "stock"]).where("id", "=", 1).executeTakeFirstOrThrow()).toEqual({ price: 9_800_000, price_max: 15_000_000, stock: 30 });
  });
});
