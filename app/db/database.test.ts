import { firstSizeOf } from "../../tests/support/catalogue";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { type DatabaseHandle, type Db, openDatabase, withoutWaitingForDisk } from "./client.server";
import { migrateToLatest } from "./migrate.server";

const TABLES = [
  "brands",
  "categories",
  "products",
  "users",
  "sessions",
  "pending_registrations",
  "password_resets",
  "addresses",
  "carts",
  "cart_lines",
  "orders",
  "order_items",
  "wishlist",
  "order_events",
  "audit_log",
  "rate_limits",
  "mail_outbox",
  "delivery_zones",
  "delivery_states",
  "delivery_settings",
  "catalogue_imports",
  "stock_adjustments",
  "recently_viewed",
  "product_photos",
  "staff_invitations",
  "recovery_codes",
  "sign_in_challenges",
  "staff_settings",
];

describe.each(ENGINES)("data layer on %s", (engine) => {
  let t: TestDatabase;
  const stamp = "2026-01-01T00:00:00.000Z";

  beforeAll(async () => {
    t = await freshDatabase(engine, { migrate: false });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("creates every table, and a second run applies nothing and keeps the data", async () => {
    const first = await migrateToLatest(t.db);
    expect(first).toEqual(["0001_initial", "0002_order_history_and_audit", "0004_rate_limits", "0005_cart_orders", "0007_checkout_key", "0010_mail_outbox", "0015_password_change_required", "0016_pending_registrations", "0020_category_names_in_spanish", "0030_delivery_and_payment_status", "0031_online_payments", "0040_product_search", "0041_product_sorting", "0042_perfume_facts", "0060_catalogue_imports", "0061_user_locale", "0064_customer_indexes", "0067_stock_adjustments", "0070_back_in_stock", "0071_reviews", "0080_product_sizes", "0081_back_in_stock_per_size", "0085_product_photos", "0088_bought_together_indexes", "0089_recently_viewed", "0090_first_size_with_the_product", "0091_category_names_raise_the_catalogue_version", "0092_shopper_lists_in_index_order", "0093_shop_fold_inlined", "0094_order_holds", "0095_phone_numbers", "0096_staff_roles", "0097_guest_orders", "0098_promotions", "0100_messages", "0101_privacy", "0102_staff_safeguards", "0106_store_credit", "0107_guest_customers", "0108_automatic_sales", "0109_guest_cart_reminders"]);
    const names = (await t.db.introspection.getTables()).map((table) => table.name);
    for (const table of TABLES) expect(names).toContain(table);

    await t.db.insertInto("brands").values({ name: "Dior", slug: "dior", created_at: stamp }).execute();
    expect(await migrateToLatest(t.db)).toEqual([]);
    const brands = await t.db.selectFrom("brands").select("name").execute();
    expect(brands).toEqual([{ name: "Dior" }]);
  });

  it("returns counts, sums and money columns as numbers", async () => {
    const category = await t.db
      .insertInto("categories")
      .values({ name: "Men", slug: "men", created_at: stamp })
      .returning("id")
      .executeTakeFirstOrThrow();
    const brand = await t.db.selectFrom("brands").select("id").executeTakeFirstOrThrow();
    const product = (price: number, slug: string) => ({
      slug,
      name: slug,
      description: "d",
      price,
      discount: null,
      stock: 3,
      image: null,
      category_id: category.id,
      brand_id: brand.id,
      created_at: stamp,
      updated_at: stamp,
    });
    // 30,000,000,000 kobo does not fit a 32-bit integer: money columns must be 64-bit.
    await t.db.insertInto("products").values([product(30_000_000_000, "a"), product(4_500_050, "b")]).execute();

    const row = await t.db
      .selectFrom("products")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("price").as("total"), eb.fn.max("price").as("top")])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ n: 2, total: 30_004_500_050, top: 30_000_000_000 });
    expect(typeof row.n).toBe("number");
    const prices = await t.db.selectFrom("products").select(["id", "price"]).orderBy("price").execute();
    expect(prices.map((p) => p.price)).toEqual([4_500_050, 30_000_000_000]);
    expect(typeof prices[0].id).toBe("number");
  });

  it("enforces foreign keys, checks and unique pairs", async () => {
    const bad = {
      slug: "orphan",
      name: "orphan",
      description: "d",
      price: 100,
      discount: null,
      stock: 1,
      image: null,
      category_id: 999_999,
      brand_id: 999_999,
      created_at: stamp,
      updated_at: stamp,
    };
    await expect(t.db.insertInto("products").values(bad).execute()).rejects.toThrow();

    const product = await t.db.selectFrom("products").select("id").executeTakeFirstOrThrow();
    await expect(
      t.db.updateTable("products").set({ stock: -1 }).where("id", "=", product.id).execute(),
    ).rejects.toThrow();

    await t.db.insertInto("carts").values({ id: "cart-1", user_id: null, created_at: stamp, updated_at: stamp }).execute();
    const line = { cart_id: "cart-1", product_id: product.id, size_id: firstSizeOf(product.id), quantity: 1, created_at: stamp };
    await t.db.insertInto("cart_lines").values(line).execute();
    await expect(t.db.insertInto("cart_lines").values(line).execute()).rejects.toThrow();
    await expect(
      t.db.insertInto("cart_lines").values({ ...line, cart_id: "missing-cart" }).execute(),
    ).rejects.toThrow();
    await expect(
      t.db.updateTable("cart_lines").set({ quantity: 0 }).where("cart_id", "=", "cart-1").execute(),
    ).rejects.toThrow();

    await t.db
      .insertInto("users")
      .values({ email: "ada@example.com", password_hash: "x", first_name: "Ada", last_name: "Obi", created_at: stamp })
      .execute();
    await expect(
      t.db
        .insertInto("users")
        .values({ email: "ada@example.com", password_hash: "y", first_name: "A", last_name: "B", created_at: stamp })
        .execute(),
    ).rejects.toThrow();
    const user = await t.db.selectFrom("users").select("role").executeTakeFirstOrThrow();
    expect(user.role).toBe("customer");
    await expect(sql`update users set role = 'superuser'`.execute(t.db)).rejects.toThrow();
  });

  it("refuses to delete a category that products still use", async () => {
    const category = await t.db.selectFrom("categories").select("id").where("slug", "=", "men").executeTakeFirstOrThrow();
    await expect(t.db.deleteFrom("categories").where("id", "=", category.id).execute()).rejects.toThrow();
  });

  it("commits a shopper's cart or view without waiting for the disk, in one transaction, and every other write still waits (decision 172)", async () => {
    const setting = async (on: Db) =>
      engine === "postgres"
        ? (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(on)).rows[0].synchronous_commit
        : String((await sql<{ synchronous: number }>`pragma synchronous`.execute(on)).rows[0].synchronous);
    const [waits, relaxed] = engine === "postgres" ? ["on", "off"] : ["2", "1"];
    // The test cluster commits without waiting, for speed: this database waits, as a shop's does.
    let reopened: DatabaseHandle | null = null;
    if (engine === "postgres") {
      const { name } = (await sql<{ name: string }>`select current_database() as name`.execute(t.db)).rows[0];
      await sql`alter database ${sql.id(name)} set synchronous_commit = on`.execute(t.db);
      reopened = await openDatabase({ databaseUrl: t.url, sqlitePath: "" });
    }
    const db = reopened?.db ?? t.db;
    expect(await setting(db)).toBe(waits);
    // Other transactions run over and over meanwhile: none of them may see the relaxed setting.
    const seen = new Set<string>();
    let writing = true;
    const others = (async () => {
      while (writing) await db.transaction().execute(async (trx) => void seen.add(await setting(trx)));
    })();
    const insideSeen = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        withoutWaitingForDisk(db, async (trx) => {
          await trx.insertInto("brands").values({ name: `Relaxed ${i}`, slug: `relaxed-${i}`, created_at: stamp }).execute();
          return setting(trx);
        }),
      ),
    );
    // A failure inside undoes the whole transaction, and the setting is restored all the same.
    await expect(
      withoutWaitingForDisk(db, async (trx) => {
        await trx.insertInto("brands").values({ name: "Undone", slug: "undone", created_at: stamp }).execute();
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    // Inside another transaction it refuses, and that transaction is undone whole, not committed early.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("brands").values({ name: "Outer", slug: "outer", created_at: stamp }).execute();
        await withoutWaitingForDisk(trx, async () => undefined);
      }),
    ).rejects.toThrow("opens its own transaction");
    expect(await db.selectFrom("brands").select("id").where("slug", "=", "outer").executeTakeFirst()).toBeUndefined();
    writing = false;
    await others;
    expect(insideSeen).toEqual(Array(5).fill(relaxed));
    expect(seen).toEqual(new Set([waits]));
    // On every connection, those that wrote among them.
    const afterwards = await Promise.all(Array.from({ length: 10 }, () => db.transaction().execute(setting)));
    expect(new Set(afterwards)).toEqual(new Set([waits]));
    const written = await db.selectFrom("brands").select("slug").where("slug", "like", "relaxed-%").execute();
    expect(written).toHaveLength(5);
    expect(await db.selectFrom("brands").select("id").where("slug", "=", "undone").executeTakeFirst()).toBeUndefined();
    await reopened?.close();
  });
});

describe("PostgreSQL connections", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase("postgres");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("survives the server closing idle connections (a restart or failover), and reconnects", async () => {
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.01)`.execute(t.db)));
    const url = new URL(inject("postgresUrl"));
    url.pathname = `/${(await sql<{ name: string }>`select current_database() as name`.execute(t.db)).rows[0].name}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    const killed = await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const row = await t.db.selectFrom("brands").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(row.n).toBe(0);
  });
});
