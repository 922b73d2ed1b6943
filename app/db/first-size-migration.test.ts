import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { migrateToLatest, migrateUpTo } from "./migrate.server";

// Migration 0090 (docs/decisions/156): a product's first size is written with the product. The
// summaries on products (price and discount of the cheapest size, price_max of the dearest, stock the
// sum) stay what migration 0080's triggers made them, for products made before and after it, written
// one at a time or many in one statement.

describe.each(ENGINES)("migration 0090 on %s", (engine) => {
  let t: TestDatabase;
  const at = "2026-01-01T00:00:00.000Z";
  let n = 0;

  const product = (price: number, stock: number, extra: { discount?: number | null; price_max?: number } = {}) => ({
    slug: `p-${++n}`,
    name: `Perfume ${n}`,
    description: "d",
    price,
    discount: extra.discount ?? null,
    stock,
    image: null,
    category_id: 1,
    brand_id: 1,
    created_at: at,
    updated_at: at,
    ...(extra.price_max === undefined ? {} : { price_max: extra.price_max }),
  });
  const size = (productId: number, label: string, price: number, stock: number, discount: number | null = null) => ({
    product_id: productId,
    label,
    price,
    discount,
    stock,
    position: 1,
    created_at: at,
    updated_at: at,
  });
  const summary = (id: number) => t.db.selectFrom("products").select(["price", "discount", "price_max", "stock"]).where("id", "=", id).executeTakeFirstOrThrow();
  const sizes = (id: number) => t.db.selectFrom("product_sizes").select(["label", "price", "discount", "stock", "position"]).where("product_id", "=", id).orderBy("id").execute();
  const version = async () => Number((await t.db.selectFrom("catalog_version").select("version").executeTakeFirstOrThrow()).version);

  let before: { id: number };

  beforeAll(async () => {
    t = await freshDatabase(engine, { migrate: false });
    await migrateUpTo(t.db, "0089_recently_viewed");
    await sql`insert into brands (name, slug, created_at) values ('Dior', 'dior', ${at})`.execute(t.db);
    await sql`insert into categories (name, slug, created_at) values ('Men', 'men', ${at})`.execute(t.db);
    // A product made under migration 0080's triggers, in two sizes.
    before = await t.db.insertInto("products").values(product(15_000_000, 4, { discount: 1_000_000 })).returning("id").executeTakeFirstOrThrow();
    await t.db.insertInto("product_sizes").values(size(before.id, "100 ml", 21_000_000, 2)).execute();
    expect(await migrateToLatest(t.db)).toEqual(["0090_first_size_with_the_product", "0091_category_names_raise_the_catalogue_version", "0092_shopper_lists_in_index_order", "0093_shop_fold_inlined", "0094_order_holds", "0095_phone_numbers", "0096_staff_roles", "0097_guest_orders", "0098_promotions", "0100_messages", "0101_privacy", "0102_staff_safeguards", "0106_store_credit", "0107_guest_customers", "0108_automatic_sales", "0109_guest_cart_reminders"]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("leaves the summaries of products made before it as they were, and keeps them on later size changes", async () => {
    expect(await summary(before.id)).toEqual({ price: 15_000_000, discount: 1_000_000, price_max: 21_000_000, stock: 6 });
    await t.db.insertInto("product_sizes").values(size(before.id, "30 ml", 7_000_000, 5, 500_000)).execute();
    expect(await summary(before.id)).toEqual({ price: 7_000_000, discount: 500_000, price_max: 21_000_000, stock: 11 });
  });

  it("gives each product of a many-row INSERT its one size from its own figures, whatever price_max the writer gave", async () => {
    const v = await version();
    const rows = [product(5_000_000, 3, { discount: 400_000, price_max: 1 }), product(8_000_000, 0, { price_max: 0 }), product(9_000_000, 12, { price_max: 99_000_000 })];
    const ids = (await t.db.insertInto("products").values(rows).returning("id").execute()).map((r) => r.id);
    expect(await version()).toBeGreaterThan(v);
    const expected = [
      { price: 5_000_000, discount: 400_000, price_max: 5_000_000, stock: 3 },
      { price: 8_000_000, discount: null, price_max: 8_000_000, stock: 0 },
      { price: 9_000_000, discount: null, price_max: 9_000_000, stock: 12 },
    ];
    for (const [i, id] of ids.entries()) {
      expect(await summary(id)).toEqual(expected[i]);
      expect(await sizes(id)).toEqual([{ label: "Standard", price: expected[i].price, discount: expected[i].discount, stock: expected[i].stock, position: 0 }]);
    }
  });

  it("moves each product once by all the sizes a many-row INSERT adds to it", async () => {
    const [a, b] = (await t.db.insertInto("products").values([product(6_000_000, 1), product(10_000_000, 2, { discount: 1_000_000 })]).returning("id").execute()).map((r) => r.id);
    await t.db
      .insertInto("product_sizes")
      .values([size(a, "50 ml", 4_000_000, 5, 300_000), size(b, "200 ml", 18_000_000, 7), size(a, "200 ml", 11_000_000, 2)])
      .execute();
    expect(await summary(a)).toEqual({ price: 4_000_000, discount: 300_000, price_max: 11_000_000, stock: 8 });
    expect(await summary(b)).toEqual({ price: 10_000_000, discount: 1_000_000, price_max: 18_000_000, stock: 9 });
    // The other triggers of 0080 still follow: a size removed, repriced, restocked.
    await t.db.deleteFrom("product_sizes").where("product_id", "=", a).where("label", "=", "50 ml").execute();
    expect(await summary(a)).toEqual({ price: 6_000_000, discount: null, price_max: 11_000_000, stock: 3 });
    await t.db.updateTable("product_sizes").set({ price: 12_000_000, stock: 4 }).where("product_id", "=", a).where("label", "=", "Standard").execute();
    expect(await summary(a)).toEqual({ price: 11_000_000, discount: null, price_max: 12_000_000, stock: 6 });
  });

  it("writes a product and more sizes in one transaction as two statements would", async () => {
    const id = await t.db.transaction().execute(async (trx) => {
      const row = await trx.insertInto("products").values(product(3_000_000, 9)).returning("id").executeTakeFirstOrThrow();
      await trx.updateTable("product_sizes").set({ label: "30 ml", ml: 30 }).where("product_id", "=", row.id).execute();
      await trx.insertInto("product_sizes").values(size(row.id, "100 ml", 7_500_000, 1)).execute();
      return row.id;
    });
    expect(await summary(id)).toEqual({ price: 3_000_000, discount: null, price_max: 7_500_000, stock: 10 });
    expect((await sizes(id)).map((s) => s.label)).toEqual(["30 ml", "100 ml"]);
  });

  it("adds the stock of sizes that two transactions add to one product at the same moment", async () => {
    const { id } = await t.db.insertInto("products").values(product(4_000_000, 1)).returning("id").executeTakeFirstOrThrow();
    // On PostgreSQL the first holds the product's row while the second's trigger waits for it, then
    // moves the stock from the committed figure (stock + its own), not from the one it first read.
    await Promise.all(
      [0, 1].map((k) =>
        t.db.transaction().execute(async (trx) => {
          await trx.insertInto("product_sizes").values(size(id, `${k + 2}0 ml`, 4_000_000, 2 + k)).execute();
          if (engine === "postgres") await sql`select pg_sleep(0.3)`.execute(trx);
        }),
      ),
    );
    expect((await summary(id)).stock).toBe(1 + 2 + 3);
    expect(await sizes(id)).toHaveLength(3);
  });

  it("refuses a size that breaks a rule without touching the product", async () => {
    const { id } = await t.db.insertInto("products").values(product(2_000_000, 2)).returning("id").executeTakeFirstOrThrow();
    await expect(t.db.insertInto("product_sizes").values([size(id, "50 ml", 1_000_000, 1), size(id, "50 ml", 1_500_000, 1)]).execute()).rejects.toThrow();
    await expect(t.db.insertInto("product_sizes").values(size(id, "75 ml", 1_000_000, -1)).execute()).rejects.toThrow();
    expect(await summary(id)).toEqual({ price: 2_000_000, discount: null, price_max: 2_000_000, stock: 2 });
  });
});
