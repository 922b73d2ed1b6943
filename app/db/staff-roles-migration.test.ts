import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { migrateToLatest, migrateUpTo } from "./migrate.server";

// Migration 0096 (docs/decisions/218), run on a copy of the schema as it stood before it: admins
// become owners, customers stay customers, the staff roles are accepted and anything else is still
// refused; the rows that point at accounts (sessions, orders) keep pointing at them.

describe.each(ENGINES)("migration 0096 on %s", (engine) => {
  let t: TestDatabase;
  const at = "2026-01-01T00:00:00.000Z";
  const user = (email: string, role: string) =>
    sql<{ id: number }>`insert into users (email, password_hash, first_name, last_name, role, created_at) values (${email}, 'x', 'A', 'B', ${role}, ${at}) returning id`.execute(t.db);

  beforeAll(async () => {
    t = await freshDatabase(engine, { migrate: false });
    await migrateUpTo(t.db, "0094_order_holds");
    await user("admin@example.com", "admin");
    const customer = (await user("chioma@example.com", "customer")).rows[0].id;
    await sql`insert into sessions (id, user_id, expires_at, created_at) values ('s1', ${customer}, ${at}, ${at})`.execute(t.db);
    expect(await migrateToLatest(t.db)).toEqual(["0095_phone_numbers", "0096_staff_roles", "0097_guest_orders", "0098_promotions", "0100_messages", "0101_privacy", "0102_staff_safeguards", "0106_store_credit", "0107_guest_customers", "0108_automatic_sales", "0109_guest_cart_reminders"]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("makes every admin an owner and leaves customers and their sessions as they were", async () => {
    const rows = await t.db.selectFrom("users").select(["email", "role"]).orderBy("id").execute();
    expect(rows).toEqual([
      { email: "admin@example.com", role: "owner" },
      { email: "chioma@example.com", role: "customer" },
    ]);
    expect(await t.db.selectFrom("sessions").select("id").execute()).toEqual([{ id: "s1" }]);
  });

  it("accepts the staff roles and refuses any other, 'admin' included", async () => {
    for (const role of ["manager", "fulfilment", "support"]) await user(`${role}@example.com`, role);
    for (const role of ["admin", "superuser"]) await expect(user(`${role}-x@example.com`, role)).rejects.toThrow();
  });

  it("keeps the e-mail unique and the references to accounts enforced", async () => {
    await expect(user("admin@example.com", "customer")).rejects.toThrow();
    await expect(sql`insert into sessions (id, user_id, expires_at, created_at) values ('s2', 999999, ${at}, ${at})`.execute(t.db)).rejects.toThrow();
    await sql`delete from users where email = 'chioma@example.com'`.execute(t.db);
    expect(await t.db.selectFrom("sessions").select("id").execute()).toEqual([]);
  });
});
