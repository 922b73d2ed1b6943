import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { migrateToLatest, migrateUpTo } from "./migrate.server";

// Migration 0095 (docs/decisions/217): a phone number on accounts, saved addresses and orders. Rows
// written before it stay as they were, with no number; new ones may carry one.
describe.each(ENGINES)("migration 0095 on %s", (engine) => {
  let t: TestDatabase;
  const at = "2026-01-01T00:00:00.000Z";
  let userId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine, { migrate: false });
    await migrateUpTo(t.db, "0094_order_holds");
    // An account, its address and an order as today's schema holds them.
    const user = await sql<{ id: number }>`insert into users (email, password_hash, first_name, last_name, created_at)
      values ('ada@example.com', 'x', 'Ada', 'Obi', ${at}) returning id`.execute(t.db);
    userId = user.rows[0].id;
    await sql`insert into addresses (user_id, street, city, state, country, created_at) values (${userId}, '1 Allen Avenue', 'Ikeja', 'Lagos', 'Nigeria', ${at})`.execute(t.db);
    await sql`insert into orders (number, user_id, channel, status, ship_street, ship_city, ship_state, ship_country, subtotal, shipping, total, created_at, updated_at)
      values ('UB-1', ${userId}, 'checkout', 'pending', '1 Allen Avenue', 'Ikeja', 'Lagos', 'Nigeria', 100, 0, 100, ${at}, ${at})`.execute(t.db);
    expect(await migrateToLatest(t.db)).toContain("0095_phone_numbers");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("keeps the rows written before it, without a number", async () => {
    expect(await t.db.selectFrom("users").select(["email", "phone"]).execute()).toEqual([{ email: "ada@example.com", phone: null }]);
    expect(await t.db.selectFrom("addresses").select(["street", "phone"]).execute()).toEqual([{ street: "1 Allen Avenue", phone: null }]);
    expect(await t.db.selectFrom("orders").select(["number", "total", "phone"]).execute()).toEqual([{ number: "UB-1", total: 100, phone: null }]);
  });

  it("takes a number on each of them", async () => {
    await t.db.updateTable("users").set({ phone: "+2348031234567" }).execute();
    await t.db.updateTable("addresses").set({ phone: "+2348031234567" }).execute();
    await t.db.updateTable("orders").set({ phone: "+2348031234567" }).execute();
    const phones = await Promise.all(
      (["users", "addresses", "orders"] as const).map(async (table) => (await t.db.selectFrom(table).select("phone").executeTakeFirstOrThrow()).phone),
    );
    expect(phones).toEqual(["+2348031234567", "+2348031234567", "+2348031234567"]);
  });

  it("can be undone, leaving the rows", async () => {
    await migrateUpTo(t.db, "0094_order_holds");
    const { rows } = await sql<{ number: string }>`select number from orders`.execute(t.db);
    expect(rows).toEqual([{ number: "UB-1" }]);
    await expect(sql`select phone from orders`.execute(t.db)).rejects.toThrow();
    expect(await migrateToLatest(t.db)).toEqual(["0095_phone_numbers", "0096_staff_roles", "0097_guest_orders", "0098_promotions", "0100_messages", "0101_privacy", "0102_staff_safeguards", "0106_store_credit", "0107_guest_customers", "0108_automatic_sales", "0109_guest_cart_reminders"]);
  });
});
