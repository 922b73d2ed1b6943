import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "~/platform/password.server";
import { addBrand, addCategory, addProduct, addUser, firstSizeOf } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { getAdminOrder, listAdminOrders } from "../orders/admin-orders.server";
import { listAudit } from "../backoffice/audit.server";
import { loadDashboard } from "../backoffice/dashboard.server";
import { exportOrdersCsv } from "../orders/order-export.server";
import { accountData, eraseAccount, eraseCustomerForShopper } from "./data-rights.server";
import { ERASED_REVIEW_AUTHOR, erasedEmail, HANDLERS } from "./personal-data.server";

// A shopper's download holds every table's rows about them; erasing the account removes or
// anonymises them at once, while the orders still total the same everywhere the owner looks and name no one.

const PASSWORD = "a long shopper passphrase";
const EMAIL = "chioma.eze@example.com";
const PHONE = "+2348031234567";
const STREET = "12 Admiralty Way";
const CITY = "Lekki";
const TRACES = ["Chioma", "Eze", EMAIL, PHONE, STREET, CITY, "chioma.eze"];

function traces(value: unknown): string[] {
  const text = JSON.stringify(value);
  return TRACES.filter((trace) => text.includes(trace));
}

describe.each(ENGINES)("a shopper's data on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let userId: number;
  let otherId: number;
  let products: { id: number; name: string }[];
  const orders: { id: number; number: string; total: number }[] = [];

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t, { OWNER_EMAIL: "owner@unboxed.example" });
    const now = new Date().toISOString();
    const brand = await addBrand(t.db);
    const category = await addCategory(t.db);
    products = [await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Oud Wood", stock: 20 }), await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Sauvage", stock: 20 })];
    const owner = await addUser(t.db, "owner");
    userId = (
      await t.db
        .insertInto("users")
        .values({ email: EMAIL, password_hash: await hashPassword(PASSWORD), first_name: "Chioma", last_name: "Eze", role: "customer", phone: PHONE, locale: "en", created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    otherId = (await addUser(t.db, "customer", "bola@example.com", "Bola")).id;
    await t.db.insertInto("addresses").values({ user_id: userId, street: STREET, city: CITY, state: "Lagos", country: "Nigeria", phone: PHONE, created_at: now }).execute();
    await t.db.insertInto("addresses").values({ user_id: otherId, street: "3 Allen Avenue", city: "Ikeja", state: "Lagos", country: "Nigeria", created_at: now }).execute();
    const address = { street: STREET, city: CITY, state: "Lagos", country: "Nigeria" };
    orders.push(await insertOrder(t.db, { userId, status: "delivered", items: [{ productId: products[0].id, quantity: 2 }], address, phone: PHONE, paidAt: now }));
    orders.push(await insertOrder(t.db, { userId, status: "cancelled", items: [{ productId: products[1].id, quantity: 1 }], address, phone: PHONE }));
    await insertOrder(t.db, { userId: otherId, status: "delivered", items: [{ productId: products[1].id, quantity: 1 }], paidAt: now, address: { street: "3 Allen Avenue", city: "Ikeja", state: "Lagos", country: "Nigeria" } });
    await t.db.updateTable("orders").set({ placed_from: "203.0.113.7" }).where("user_id", "=", userId).execute();
    await t.db.insertInto("wishlist").values({ user_id: userId, product_id: products[1].id, created_at: now }).execute();
    await t.db.insertInto("wishlist").values({ user_id: otherId, product_id: products[1].id, created_at: now }).execute();
    const review = await t.db
      .insertInto("reviews")
      .values({ product_id: products[0].id, user_id: userId, rating: 5, body: "Lasts all day.", author: "Chioma E.", created_at: now, hidden_at: null, hidden_by: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db.insertInto("audit_log").values({ actor_user_id: owner.id, action: "update", entity: "review", entity_id: review.id, summary: "Oud Wood: Chioma E.", changes: null, created_at: now }).execute();
    await t.db.insertInto("audit_log").values({ actor_user_id: owner.id, action: "update", entity: "user", entity_id: userId, summary: EMAIL, changes: null, created_at: now }).execute();
    await t.db.insertInto("recently_viewed").values({ user_id: userId, product_id: products[1].id, seq: 1, viewed_at: now }).execute();
    await t.db.insertInto("back_in_stock_requests").values({ product_id: products[1].id, size_id: firstSizeOf(products[1].id), email: EMAIL, user_id: userId, locale: "en", token: "t1", created_at: now, notified_at: null }).execute();
    // Asked before signing in: the same address without the account.
    await t.db.insertInto("back_in_stock_requests").values({ product_id: products[0].id, size_id: firstSizeOf(products[0].id), email: EMAIL, user_id: null, locale: "en", token: "t2", created_at: now, notified_at: null }).execute();
    await t.db.insertInto("sessions").values({ id: "session-hash-1", user_id: userId, expires_at: new Date(Date.now() + 86_400_000).toISOString(), created_at: now }).execute();
    await t.db.insertInto("sessions").values({ id: "session-hash-2", user_id: otherId, expires_at: new Date(Date.now() + 86_400_000).toISOString(), created_at: now }).execute();
    await t.db.insertInto("carts").values({ id: "cart-of-chioma", user_id: userId, created_at: now, updated_at: now }).execute();
    await t.db.insertInto("cart_lines").values({ cart_id: "cart-of-chioma", product_id: products[0].id, size_id: firstSizeOf(products[0].id), quantity: 1, created_at: now }).execute();
    await t.db
      .insertInto("mail_outbox")
      .values({ kind: "order-confirmation", to_address: EMAIL, subject: `Order ${orders[0].number}`, text_body: `Hello Chioma, ${STREET}`, html_body: null, status: "sent", attempts: 1, next_attempt_at: now, locked_until: null, last_error: null, created_at: now, sent_at: now })
      .execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("downloads every table's rows about the shopper, and none of another's", async () => {
    const file = await accountData(context, { id: userId, email: EMAIL });
    expect(file.format).toBe("unboxed-personal-data/1");
    // Every handler that exports has its section (a new table's handler is listed without this test changing).
    expect(Object.keys(file.data).sort()).toEqual(HANDLERS.map((h) => h.name).filter((n) => n !== "auditEntries").sort());
    const data = file.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(data.account).toMatchObject({ id: userId, email: EMAIL, firstName: "Chioma", lastName: "Eze", phone: PHONE, language: "en" });
    expect(data.addresses).toEqual([expect.objectContaining({ street: STREET, city: CITY, phone: PHONE })]);
    expect(data.orders.map((o: { number: string }) => o.number)).toEqual(orders.map((o) => o.number));
    expect(data.orders[0]).toMatchObject({ status: "delivered", phone: PHONE, deliveryAddress: { street: STREET }, totalKobo: orders[0].total });
    expect(data.orders[0].items).toEqual([expect.objectContaining({ name: "Oud Wood", quantity: 2 })]);
    expect(data.orders[0].history.length).toBeGreaterThanOrEqual(1);
    expect(data.wishlist).toEqual([expect.objectContaining({ product: "Sauvage" })]);
    expect(data.reviews).toEqual([expect.objectContaining({ product: "Oud Wood", rating: 5, text: "Lasts all day.", shownAs: "Chioma E." })]);
    expect(data.recentlyViewed).toEqual([expect.objectContaining({ product: "Sauvage" })]);
    expect(data.backInStockRequests).toHaveLength(2);
    expect(data.sessions).toHaveLength(1);
    expect(data.cart).toEqual([expect.objectContaining({ product: "Oud Wood", quantity: 1 })]);
    expect(data.emailsSent).toEqual([expect.objectContaining({ about: "order-confirmation", status: "sent" })]);
    const text = JSON.stringify(file);
    expect(text).not.toContain("Bola");
    expect(text).not.toContain("Allen Avenue");
    expect(text).not.toContain("argon2");
    expect(text).not.toContain("session-hash");
  });

  it("refuses to erase without the right password, and changes nothing", async () => {
    expect(await eraseAccount(context, { userId, password: "" })).toEqual({ ok: false, reason: "passwordRequired" });
    expect(await eraseAccount(context, { userId, password: "not my password" })).toEqual({ ok: false, reason: "wrongPassword" });
    const user = await t.db.selectFrom("users").select(["email", "erased_at"]).where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user).toEqual({ email: EMAIL, erased_at: null });
  });

  it("refuses while an order is on its way, naming it", async () => {
    const open = await insertOrder(t.db, { userId, status: "shipped", items: [{ productId: products[0].id, quantity: 1 }] });
    expect(await eraseAccount(context, { userId, password: PASSWORD })).toEqual({ ok: false, reason: "openOrders", orders: [open.number] });
    await t.db.updateTable("orders").set({ status: "delivered" }).where("id", "=", open.id).execute();
    orders.push(open);
  });

  it("refuses a staff account", async () => {
    const staff = await addUser(t.db, "manager");
    await t.db.updateTable("users").set({ password_hash: await hashPassword(PASSWORD) }).where("id", "=", staff.id).execute();
    expect(await eraseAccount(context, { userId: staff.id, password: PASSWORD })).toEqual({ ok: false, reason: "staff" });
  });

  it("erases at once, and the orders still total the same in the admin, the dashboard and the CSV, naming no one", async () => {
    const listBefore = await listAdminOrders(t.db, {});
    const csvBefore = await exportOrdersCsv(t.db, {});
    const dashboardBefore = await loadDashboard(t.db);
    const sumOf = (list: { total: number }[]) => list.reduce((s, o) => s + o.total, 0);
    expect(traces(csvBefore)).toContain(EMAIL);

    const result = await eraseAccount(context, { userId, password: PASSWORD });
    expect(result).toEqual({ ok: true, orders: orders.map((o) => o.number) });

    // The account row is kept (orders, reviews and the log point at it) but names no one and cannot sign in.
    const user = await t.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: erasedEmail(userId), first_name: "Erased", last_name: "customer", phone: null, locale: null });
    expect(user.erased_at).not.toBeNull();
    expect(await verifyPassword(user.password_hash, PASSWORD)).toBe(false);
    expect(await eraseAccount(context, { userId, password: PASSWORD })).toEqual({ ok: false, reason: "wrongPassword" });

    const count = async (table: "sessions" | "addresses" | "wishlist" | "recently_viewed" | "carts", id: number) =>
      Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", id).executeTakeFirstOrThrow()).n);
    for (const table of ["sessions", "addresses", "wishlist", "recently_viewed", "carts"] as const) {
      expect(await count(table, userId), table).toBe(0);
      if (table !== "recently_viewed" && table !== "carts") expect(await count(table, otherId), `${table} of another`).toBe(1);
    }
    expect(await t.db.selectFrom("back_in_stock_requests").select("id").where("email", "=", EMAIL).execute()).toEqual([]);
    expect(await t.db.selectFrom("mail_outbox").select("id").where("to_address", "=", EMAIL).execute()).toEqual([]);
    const review = await t.db.selectFrom("reviews").select(["author", "body", "rating"]).where("user_id", "=", userId).executeTakeFirstOrThrow();
    expect(review).toEqual({ author: ERASED_REVIEW_AUTHOR, body: "Lasts all day.", rating: 5 });

    // Orders: the same amounts, items and dates; no name, e-mail, number, street or client address.
    const kept = await t.db.selectFrom("orders").selectAll().where("user_id", "=", userId).orderBy("id").execute();
    expect(kept.map((o) => o.total)).toEqual(orders.map((o) => o.total));
    expect(kept.every((o) => o.phone === null && o.ship_street === null && o.ship_city === null && o.placed_from === null)).toBe(true);
    expect(kept[0].ship_state).toBe("Lagos");

    const listAfter = await listAdminOrders(t.db, {});
    expect(listAfter.total).toBe(listBefore.total);
    expect(sumOf(listAfter.orders)).toBe(sumOf(listBefore.orders));
    expect(traces(listAfter)).toEqual([]);
    for (const order of orders) {
      const page = await getAdminOrder(t.db, order.number);
      expect(page?.total).toBe(order.total);
      expect(page?.items.length).toBeGreaterThan(0);
      expect(traces(page)).toEqual([]);
    }
    const csvAfter = await exportOrdersCsv(t.db, {});
    expect(traces(csvAfter)).toEqual([]);
    const totals = (csv: string) => csv.split("\r\n").length;
    expect(totals(csvAfter)).toBe(totals(csvBefore));
    const totalColumn = (csv: string) => {
      const [head, ...rows] = csv.trim().split(/\r?\n/);
      const at = head.replace(/^\uFEFF/, "").split(",").indexOf("total_ngn");
      return rows.reduce((sum, row) => sum + Number(row.split(",")[at]), 0);
    };
    expect(totalColumn(csvAfter)).toBeCloseTo(totalColumn(csvBefore), 2);
    const dashboardAfter = await loadDashboard(t.db);
    expect(dashboardAfter.month).toEqual(dashboardBefore.month);
    expect(dashboardAfter.byStatus).toEqual(dashboardBefore.byStatus);
    expect(traces(dashboardAfter)).toEqual([]);

    // The audit log records the erasure and no longer names the person anywhere.
    const log = await listAudit(t.db, {});
    const erased = log.entries.find((e) => e.action === "erase");
    expect(erased).toMatchObject({ entity: "user", entityId: userId, summary: `customer #${userId}` });
    expect(erased?.changes["erased.orders"]).toEqual([null, orders.length]);
    expect(traces(log)).toEqual([]);

    // The owner is told, by the outbox, naming the orders and not the person.
    const mail = await t.db.selectFrom("mail_outbox").selectAll().where("kind", "=", "privacy-erasure").execute();
    expect(mail.map((m) => m.to_address)).toEqual(["owner@unboxed.example"]);
    expect(mail[0].text_body).toContain(orders[0].number);
    expect(traces(mail)).toEqual([]);

    // The other shopper is untouched.
    expect(await t.db.selectFrom("users").select("email").where("id", "=", otherId).executeTakeFirstOrThrow()).toEqual({ email: "bola@example.com" });
  });

  it("lets the owner erase a customer at their written request, with the same rules, naming the owner in the log", async () => {
    const owner = await addUser(t.db, "owner");
    const staff = await addUser(t.db, "support");
    const shopper = await addUser(t.db, "customer", "kemi@example.com", "Kemi");
    const open = await insertOrder(t.db, { userId: shopper.id, status: "confirmed", items: [{ productId: products[0].id, quantity: 1 }] });
    expect(await eraseCustomerForShopper(context, { actorId: owner.id, userId: staff.id })).toEqual({ ok: false, reason: "staff" });
    expect(await eraseCustomerForShopper(context, { actorId: owner.id, userId: 999_999 })).toEqual({ ok: false, reason: "notFound" });
    expect(await eraseCustomerForShopper(context, { actorId: owner.id, userId: shopper.id })).toEqual({ ok: false, reason: "openOrders", orders: [open.number] });
    await t.db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", open.id).execute();
    expect(await eraseCustomerForShopper(context, { actorId: owner.id, userId: shopper.id })).toEqual({ ok: true, orders: [open.number] });
    expect(await eraseCustomerForShopper(context, { actorId: owner.id, userId: shopper.id })).toEqual({ ok: false, reason: "erased" });
    const user = await t.db.selectFrom("users").select(["email", "first_name"]).where("id", "=", shopper.id).executeTakeFirstOrThrow();
    expect(user).toEqual({ email: erasedEmail(shopper.id), first_name: "Erased" });
    const entry = await t.db.selectFrom("audit_log").select(["actor_user_id", "summary"]).where("action", "=", "erase").where("entity_id", "=", shopper.id).executeTakeFirstOrThrow();
    expect(entry).toEqual({ actor_user_id: owner.id, summary: `customer #${shopper.id}` });
  });
});
