import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts, makeUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { loadDashboard } from "./dashboard.server";
import { getGuestCustomer, listCustomers } from "./customers.server";
import { exportCustomersCsv } from "./customers-export.server";
import { customerRowsFor, dashboardFor, guestCustomerFor, staffView } from "./staff-view.server";
import { ordersWaiting } from "../orders/order-alerts.server";

// Guests in the back office (docs/decisions/217): listed with the accounts by e-mail and phone, marked as
// guests, with their orders and totals, a page of their own reached from an order, in the dashboard
// and the customers CSV, and their contact details hidden from the roles that may not see them.

describe.each(ENGINES)("guests as customers on %s", (engine) => {
  let t: TestDatabase;
  let product: number;
  const orders: Record<string, string> = {};

  /** A guest's checkout order: no account, the e-mail, name and phone it was placed with. */
  async function guestOrder(key: string, input: { email: string; name: string; phone: string; createdAt: string; paidAt?: string; status?: "pending" | "delivered" }) {
    const order = await insertOrder(t.db, { userId: null, phone: input.phone, createdAt: input.createdAt, paidAt: input.paidAt, status: input.status, items: [{ productId: product, quantity: 1 }] });
    await t.db.updateTable("orders").set({ email: input.email, customer_name: input.name, locale: "es" }).where("id", "=", order.id).execute();
    orders[key] = order.number;
    return order;
  }

  beforeAll(async () => {
    t = await freshDatabase(engine);
    [product] = await makeProducts(t.db, [{ name: "Guest Counted Oud", price: 1_000_000, stock: 50 }]);
    const ada = await makeUser(t.db, "ada.account@example.com");
    await t.db.updateTable("users").set({ created_at: "2026-06-01T09:00:00.000Z", first_name: "Ada", last_name: "Account" }).where("id", "=", ada).execute();
    await insertOrder(t.db, { userId: ada, createdAt: "2026-06-02T09:00:00.000Z", paidAt: "2026-06-02T09:10:00.000Z", items: [{ productId: product, quantity: 1 }] });
    // One guest, two orders (one paid), two numbers; another guest with one order; a WhatsApp chat (no e-mail) is nobody's.
    await guestOrder("bola1", { email: "bola.guest@example.com", name: "Bola Guest", phone: "+2348035550001", createdAt: "2026-06-03T09:00:00.000Z", paidAt: "2026-06-03T09:05:00.000Z", status: "delivered" });
    await guestOrder("bola2", { email: "bola.guest@example.com", name: "Bola G.", phone: "+2348035550002", createdAt: "2026-06-05T09:00:00.000Z" });
    await guestOrder("chidi", { email: "chidi.guest@example.com", name: "Chidi Guest", phone: "+2348035550003", createdAt: "2026-06-04T09:00:00.000Z" });
    orders.chat = (await insertOrder(t.db, { userId: null, channel: "whatsapp", createdAt: "2026-06-06T09:00:00.000Z", items: [{ productId: product, quantity: 1 }] })).number;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("lists guests with the accounts, newest first, by e-mail, marked, with their orders and paid total", async () => {
    const list = await listCustomers(t.db);
    expect(list.total).toBe(3);
    expect(list.customers.map((c) => [c.email, c.guest])).toEqual([
      ["chidi.guest@example.com", true],
      ["bola.guest@example.com", true],
      ["ada.account@example.com", false],
    ]);
    const bola = list.customers.find((c) => c.email === "bola.guest@example.com")!;
    expect(bola).toMatchObject({ id: null, name: "Bola G.", phone: "+2348035550002", orders: 2, spent: 1_000_000, createdAt: "2026-06-03T09:00:00.000Z", lastOrderAt: "2026-06-05T09:00:00.000Z" });
    expect([orders.bola1, orders.bola2]).toContain(bola.guestOrder);
    expect(list.customers.find((c) => !c.guest)).toMatchObject({ name: "Ada Account", orders: 1, guestOrder: null });
  });

  it("finds a guest by any of its orders' e-mail, name or phone, and filters guests or accounts only", async () => {
    const emails = async (options: Parameters<typeof listCustomers>[1]) => (await listCustomers(t.db, options)).customers.map((c) => c.email);
    // The first order's number finds Bola, and all Bola's orders are counted.
    expect(await emails({ q: "+2348035550001" })).toEqual(["bola.guest@example.com"]);
    expect((await listCustomers(t.db, { q: "5550001" })).customers[0]).toMatchObject({ orders: 2 });
    expect(await emails({ q: "chidi guest" })).toEqual(["chidi.guest@example.com"]);
    expect(await emails({ q: "BOLA.GUEST@" })).toEqual(["bola.guest@example.com"]);
    expect(await emails({ role: "guest" })).toEqual(["chidi.guest@example.com", "bola.guest@example.com"]);
    expect(await emails({ role: "customer" })).toEqual(["ada.account@example.com"]);
    expect(await emails({ q: "%" })).toEqual([]);
  });

  it("shows a guest's page from any of its orders, and none for an account's order, a chat or an unknown number", async () => {
    const fromFirst = await getGuestCustomer(t.db, orders.bola1);
    const fromSecond = await getGuestCustomer(t.db, orders.bola2);
    expect(fromFirst).toMatchObject({ email: "bola.guest@example.com", name: "Bola G.", orders: 2, spent: 1_000_000, locale: "es", phones: ["+2348035550002", "+2348035550001"] });
    expect(fromFirst!.recentOrders.map((o) => o.number)).toEqual([orders.bola2, orders.bola1]);
    expect(fromSecond!.recentOrders.map((o) => o.number)).toEqual(fromFirst!.recentOrders.map((o) => o.number));
    expect(await getGuestCustomer(t.db, orders.chat)).toBeUndefined();
    expect(await getGuestCustomer(t.db, "UB-99999999")).toBeUndefined();
    const accountOrder = await t.db.selectFrom("orders").select("number").where("user_id", "is not", null).executeTakeFirstOrThrow();
    expect(await getGuestCustomer(t.db, accountOrder.number)).toBeUndefined();
  });

  it("hides e-mails and phones from a role without customers' contact details, and totals from one without prices", async () => {
    const fulfilment = staffView("fulfilment");
    const rows = customerRowsFor((await listCustomers(t.db)).customers, fulfilment);
    expect(JSON.stringify(rows)).not.toContain("@example.com");
    expect(JSON.stringify(rows)).not.toContain("+234");
    const page = guestCustomerFor((await getGuestCustomer(t.db, orders.bola1))!, fulfilment);
    expect(page).toMatchObject({ email: "", phones: [], spent: 0 });
    expect(page.recentOrders.every((o) => o.total === 0)).toBe(true);
    expect(guestCustomerFor((await getGuestCustomer(t.db, orders.bola1))!, staffView("support"))).toMatchObject({ email: "bola.guest@example.com", spent: 1_000_000 });
  });

  it("names a guest order's e-mail and marks it on the dashboard and in the orders waiting", async () => {
    const dashboard = await loadDashboard(t.db, new Date("2026-06-07T09:00:00.000Z"));
    const latest = dashboard.latest.find((o) => o.number === orders.bola2);
    expect(latest).toMatchObject({ customer: "bola.guest@example.com", guest: true });
    expect(dashboard.latest.find((o) => o.number === orders.chat)).toMatchObject({ customer: null, guest: false });
    expect(dashboardFor(dashboard, staffView("fulfilment")).latest.find((o) => o.number === orders.bola2)).toMatchObject({ customer: null });
    const waiting = await ordersWaiting(t.db);
    expect(waiting.find((o) => o.number === orders.chidi)).toMatchObject({ customer: "chidi.guest@example.com", guest: true });
  });

  it("writes guests into the customers CSV, marked as guests, contact details only for the roles that see them", async () => {
    const csv = await exportCustomersCsv(t.db, staffView("owner"));
    const lines = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("kind,name,email,phone,role,since,orders,spent_ngn,last_order");
    expect(lines).toContain("account,Ada Account,ada.account@example.com,,customer,2026-06-01 10:00,1,10000.00,2026-06-02 10:00");
    expect(lines).toContain("guest,Bola G.,bola.guest@example.com,'+2348035550002,,2026-06-03 10:00,2,10000.00,2026-06-05 10:00");
    expect(lines).toContain("guest,Chidi Guest,chidi.guest@example.com,'+2348035550003,,2026-06-04 10:00,1,0.00,2026-06-04 10:00");
    expect(lines.filter((l) => l.startsWith("guest,"))).toHaveLength(2);
    const hidden = await exportCustomersCsv(t.db, { revenue: false, prices: false, contact: false });
    expect(hidden).not.toContain("@example.com");
    expect(hidden).not.toContain("+234");
    expect(hidden).toContain("guest,Bola G.,,,,2026-06-03 10:00,2,,2026-06-05 10:00");
  });

  it("pages a guest's orders as an account's: twenty a page, newest first, a page past the last is the last", async () => {
    for (let i = 0; i < 23; i++) {
      await guestOrder(`many${i}`, { email: "many.guest@example.com", name: "Many Guest", phone: "+2348035550009", createdAt: `2026-07-${String(i + 2).padStart(2, "0")}T10:00:00.000Z` });
    }
    const first = await getGuestCustomer(t.db, orders.many0);
    expect(first).toMatchObject({ orders: 23, ordersPage: 1, ordersPages: 2 });
    expect(first!.recentOrders).toHaveLength(20);
    expect(first!.recentOrders[0]).toMatchObject({ number: orders.many22, createdAt: "2026-07-24T10:00:00.000Z", channel: "checkout", status: "pending", paymentStatus: "unpaid" });
    const second = await getGuestCustomer(t.db, orders.many0, { ordersPage: 2 });
    expect(second!.recentOrders.map((o) => o.number)).toEqual([orders.many2, orders.many1, orders.many0]);
    expect((await getGuestCustomer(t.db, orders.many0, { ordersPage: 50 }))!.ordersPage).toBe(2);
  });
});
