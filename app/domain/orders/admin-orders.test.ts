import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { decodeQuotedPrintable } from "../../../tests/support/mail";
import { insertOrder } from "../../../tests/support/orders";
import { readOutbox } from "~/platform/mail.server";
import type { AppLoadContext } from "react-router";
import { canMoveOrder, changeOrderStatus, getAdminOrder, listAdminOrders } from "./admin-orders.server";
import { drainMailOutbox } from "../operations/mail-outbox.server";
import { ORDER_STATUSES } from "~/lib/admin";
import { onCatalogChange } from "../catalogue/catalog.server";

describe.each(ENGINES)("admin orders on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let admin: { id: number; email: string };
  let customer: { id: number; email: string };
  let brandId: number;
  let categoryId: number;

  const stock = async (id: number) => (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    admin = await addUser(t.db, "owner", "owner@unboxed.example", "Ada");
    customer = await addUser(t.db, "customer", "chioma@example.com", "Chioma");
    brandId = (await addBrand(t.db)).id;
    categoryId = (await addCategory(t.db)).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("allows exactly pending -> confirmed -> shipped -> delivered, and cancelling before shipping", () => {
    const allowed = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.filter((to) => canMoveOrder(from, to)).map((to) => `${from}->${to}`));
    expect(allowed.sort()).toEqual(["confirmed->cancelled", "confirmed->shipped", "pending->cancelled", "pending->confirmed", "shipped->delivered"]);
  });

  it("moves an order along, recording each step with its time and admin, and e-mails the customer", async () => {
    const product = await addProduct(t.db, { brandId, categoryId, name: "Bleu de Chanel", price: 16_500_000, stock: 5 });
    const order = await insertOrder(t.db, { userId: customer.id, phone: "+2348031234567", items: [{ productId: product.id, quantity: 1 }] });
    for (const [from, to] of [
      ["pending", "confirmed"],
      ["confirmed", "shipped"],
      ["shipped", "delivered"],
    ] as const) {
      const result = await changeOrderStatus(context, { number: order.number, from, to, note: to === "shipped" ? "GIG Logistics, tracking 123" : null, actorId: admin.id });
      expect(result).toEqual({ ok: true, restocked: 0, taken: 0, mail: "queued" });
    }
    const detail = await getAdminOrder(t.db, order.number);
    expect(detail?.status).toBe("delivered");
    expect(detail?.phone).toBe("+2348031234567");
    expect(detail?.next).toEqual([]);
    expect(detail?.history.map((h) => [h.status, h.actor])).toEqual([
      ["pending", null],
      ["confirmed", "Ada Test"],
      ["shipped", "Ada Test"],
      ["delivered", "Ada Test"],
    ]);
    expect(detail?.history[2].note).toBe("GIG Logistics, tracking 123");
    for (const h of detail!.history) expect(Date.parse(h.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await stock(product.id)).toBe(4);

    // Queued with each change, in its transaction; the outbox worker sends them.
    const queued = await t.db.selectFrom("mail_outbox").select(["kind", "to_address", "status"]).where("to_address", "=", customer.email).execute();
    expect(queued).toEqual(Array(3).fill({ kind: "order-status", to_address: customer.email, status: "pending" }));
    expect(await drainMailOutbox(t.db, context.config)).toMatchObject({ sent: 3, retrying: 0, failed: 0 });
    const mails = await readOutbox(context.config.dataDir, customer.email);
    expect(mails).toHaveLength(3);
    const shipped = decodeQuotedPrintable(mails.find((m) => /Subject: .*Shipped/.test(m.raw))!.raw);
    expect(shipped).toContain(`Subject: Your Unboxed order ${order.number}: Shipped`);
    expect(shipped).toContain(`Your order ${order.number} is on its way to you.`);
    expect(shipped).toContain("Order total: ₦165,000.00");
    expect(shipped).toContain("GIG Logistics, tracking 123");
    expect(shipped).toContain("http://shop.test/profile");

    const audit = await t.db.selectFrom("audit_log").select(["action", "changes", "actor_user_id"]).where("entity", "=", "order").where("entity_id", "=", order.id).orderBy("id").execute();
    expect(audit.map((a) => JSON.parse(a.changes!).status)).toEqual([
      ["pending", "confirmed"],
      ["confirmed", "shipped"],
      ["shipped", "delivered"],
    ]);
    expect(audit.every((a) => a.action === "update" && a.actor_user_id === admin.id)).toBe(true);
  });

  it.each(["pending", "confirmed"] as const)("cancelling a %s checkout order puts its stock back, in one go", async (status) => {
    const a = await addProduct(t.db, { brandId, categoryId, stock: 5 });
    const b = await addProduct(t.db, { brandId, categoryId, stock: 1 });
    const order = await insertOrder(t.db, { userId: customer.id, items: [{ productId: a.id, quantity: 2 }, { productId: b.id, quantity: 1 }] });
    expect([await stock(a.id), await stock(b.id)]).toEqual([3, 0]);
    if (status === "confirmed") await changeOrderStatus(context, { number: order.number, from: "pending", to: "confirmed", actorId: admin.id });
    const result = await changeOrderStatus(context, { number: order.number, from: status, to: "cancelled", note: "Customer asked", actorId: admin.id });
    expect(result).toEqual({ ok: true, restocked: 3, taken: 0, mail: "queued" });
    expect([await stock(a.id), await stock(b.id)]).toEqual([5, 1]);
    // Cancelled is final: no second restock.
    expect(await changeOrderStatus(context, { number: order.number, from: "cancelled", to: "pending", actorId: admin.id })).toEqual({ ok: false, error: "notAllowed" });
    expect(await changeOrderStatus(context, { number: order.number, from: status, to: "cancelled", actorId: admin.id })).toEqual({ ok: false, error: "stale" });
    expect([await stock(a.id), await stock(b.id)]).toEqual([5, 1]);
  });

  it("tells the page caches only the order's products when their stock moves or it is cancelled, unless one sold out or came back into stock (docs/decisions/205)", async () => {
    const heard: unknown[] = [];
    const stop = onCatalogChange((_where, scope) => heard.push(scope));
    try {
      const plenty = await addProduct(t.db, { brandId, categoryId, stock: 5 });
      const last = await addProduct(t.db, { brandId, categoryId, stock: 1 });
      const chat = (items: { productId: number; quantity: number }[]) => insertOrder(t.db, { userId: customer.id, channel: "whatsapp", items });
      const move = (number: string, from: "pending" | "confirmed", to: "confirmed" | "cancelled") => changeOrderStatus(context, { number, from, to, actorId: admin.id });

      // Confirming takes stock: some left, then the last bottle.
      const some = await chat([{ productId: plenty.id, quantity: 2 }]);
      await move(some.number, "pending", "confirmed");
      const lastOne = await chat([{ productId: plenty.id, quantity: 1 }, { productId: last.id, quantity: 1 }]);
      await move(lastOne.number, "pending", "confirmed");
      // Cancelling gives it back: to a product that still had some, then to one that had none.
      await move(some.number, "confirmed", "cancelled");
      await move(lastOne.number, "confirmed", "cancelled");
      // An order cancelled before it held stock no longer counts as sold: its products' pages and the best sellers change.
      await move((await chat([{ productId: last.id, quantity: 1 }, { productId: plenty.id, quantity: 1 }])).number, "pending", "cancelled");
      expect(heard).toEqual([{ ordered: [plenty.id] }, "anything", { ordered: [plenty.id] }, "anything", { ordered: [plenty.id, last.id] }]);
      // Neither stock nor sales: nothing told.
      const shipped = await chat([{ productId: plenty.id, quantity: 1 }]);
      await move(shipped.number, "pending", "confirmed");
      heard.length = 0;
      expect(await changeOrderStatus(context, { number: shipped.number, from: "confirmed", to: "shipped", actorId: admin.id })).toMatchObject({ ok: true });
      expect(heard).toEqual([]);
    } finally {
      stop();
    }
  });

  it("refuses to cancel a shipped order, to skip steps, and changes seen out of date", async () => {
    const p = await addProduct(t.db, { brandId, categoryId, stock: 3 });
    const order = await insertOrder(t.db, { userId: null, channel: "whatsapp", address: null, items: [{ productId: p.id, quantity: 1 }] });
    expect(await changeOrderStatus(context, { number: order.number, from: "pending", to: "shipped", actorId: admin.id })).toEqual({ ok: false, error: "notAllowed" });
    expect(await changeOrderStatus(context, { number: order.number, from: "confirmed", to: "shipped", actorId: admin.id })).toEqual({ ok: false, error: "stale" });
    expect(await changeOrderStatus(context, { number: "UB-0", from: "pending", to: "confirmed", actorId: admin.id })).toEqual({ ok: false, error: "notFound" });
    // A WhatsApp guest has no e-mail to send.
    expect(await changeOrderStatus(context, { number: order.number, from: "pending", to: "confirmed", actorId: admin.id })).toEqual({ ok: true, restocked: 0, taken: 1, mail: "none" });
    await changeOrderStatus(context, { number: order.number, from: "confirmed", to: "shipped", actorId: admin.id });
    expect(await changeOrderStatus(context, { number: order.number, from: "shipped", to: "cancelled", actorId: admin.id })).toEqual({ ok: false, error: "notAllowed" });
    expect(await stock(p.id)).toBe(2);
    const events = await t.db.selectFrom("order_events").select("status").where("order_id", "=", order.id).orderBy("id").execute();
    expect(events.map((e) => e.status)).toEqual(["pending", "confirmed", "shipped"]);
  });

  it("takes a WhatsApp order's stock when it is confirmed, and puts it back only if it was taken", async () => {
    const a = await addProduct(t.db, { brandId, categoryId, stock: 4 });
    const b = await addProduct(t.db, { brandId, categoryId, stock: 2 });
    const chat = (items: { productId: number; quantity: number }[]) => insertOrder(t.db, { userId: customer.id, channel: "whatsapp", items });

    const dropped = await chat([{ productId: a.id, quantity: 1 }]);
    expect(await stock(a.id)).toBe(4);
    expect(await changeOrderStatus(context, { number: dropped.number, from: "pending", to: "cancelled", actorId: admin.id })).toMatchObject({ ok: true, restocked: 0, taken: 0 });
    expect(await stock(a.id)).toBe(4);

    const kept = await chat([{ productId: a.id, quantity: 3 }, { productId: b.id, quantity: 2 }]);
    expect(await changeOrderStatus(context, { number: kept.number, from: "pending", to: "confirmed", actorId: admin.id })).toMatchObject({ ok: true, taken: 5 });
    expect([await stock(a.id), await stock(b.id)]).toEqual([1, 0]);
    const [entry] = await t.db.selectFrom("audit_log").select("changes").where("entity", "=", "order").where("entity_id", "=", kept.id).execute();
    expect(JSON.parse(entry.changes!)).toEqual({ status: ["pending", "confirmed"], stockTaken: [null, 5] });
    expect(await changeOrderStatus(context, { number: kept.number, from: "confirmed", to: "cancelled", actorId: admin.id })).toMatchObject({ ok: true, restocked: 5 });
    expect([await stock(a.id), await stock(b.id)]).toEqual([4, 2]);
  });

  it("refuses to confirm a WhatsApp order the stock cannot cover, changing nothing", async () => {
    const a = await addProduct(t.db, { brandId, categoryId, stock: 5, name: "Plenty left" });
    const b = await addProduct(t.db, { brandId, categoryId, stock: 1, name: "Last bottle" });
    const order = await insertOrder(t.db, { userId: customer.id, channel: "whatsapp", items: [{ productId: a.id, quantity: 2 }, { productId: b.id, quantity: 2 }] });
    const refused = await changeOrderStatus(context, { number: order.number, from: "pending", to: "confirmed", actorId: admin.id });
    expect(refused).toEqual({ ok: false, error: "notEnoughStock", product: "Last bottle", available: 1 });
    expect([await stock(a.id), await stock(b.id)]).toEqual([5, 1]);
    const detail = await getAdminOrder(t.db, order.number);
    expect(detail?.status).toBe("pending");
    expect(detail?.history.map((h) => h.status)).toEqual(["pending"]);
    expect(await t.db.selectFrom("audit_log").select("id").where("entity", "=", "order").where("entity_id", "=", order.id).execute()).toEqual([]);
  });

  it("restocks archived products too, and skips items whose product was erased", async () => {
    const kept = await addProduct(t.db, { brandId, categoryId, stock: 4 });
    const gone = await addProduct(t.db, { brandId, categoryId, stock: 4 });
    const order = await insertOrder(t.db, { userId: customer.id, items: [{ productId: kept.id, quantity: 1 }, { productId: gone.id, quantity: 1 }] });
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", kept.id).execute();
    await t.db.deleteFrom("products").where("id", "=", gone.id).execute();
    const result = await changeOrderStatus(context, { number: order.number, from: "pending", to: "cancelled", actorId: admin.id });
    expect(result).toMatchObject({ ok: true, restocked: 1 });
    expect(await stock(kept.id)).toBe(4);
    const detail = await getAdminOrder(t.db, order.number);
    expect(detail?.items.map((i) => i.productId)).toEqual([kept.id, null]);
  });

  it("lists orders by status and channel, and finds them by number or customer e-mail", async () => {
    const p = await addProduct(t.db, { brandId, categoryId, stock: 50 });
    const other = await addUser(t.db, "customer", "emeka@example.org", "Emeka");
    const mine = await insertOrder(t.db, { userId: other.id, number: "UB-77001", items: [{ productId: p.id, quantity: 1 }] });
    await insertOrder(t.db, { userId: null, channel: "whatsapp", number: "UB-77002", items: [{ productId: p.id, quantity: 1 }] });

    expect((await listAdminOrders(t.db, { q: "ub-77001" })).orders.map((o) => o.number)).toEqual(["UB-77001"]);
    expect((await listAdminOrders(t.db, { q: "EMEKA@example" })).orders.map((o) => o.number)).toEqual(["UB-77001"]);
    const whatsapp = await listAdminOrders(t.db, { q: "UB-7700", channel: "whatsapp", status: "pending" });
    expect(whatsapp.orders).toEqual([expect.objectContaining({ number: "UB-77002", channel: "whatsapp", customerEmail: null })]);
    const row = (await listAdminOrders(t.db, { q: "UB-77001" })).orders[0];
    expect(row).toMatchObject({ id: mine.id, status: "pending", channel: "checkout", total: 5_000_000, customerEmail: "emeka@example.org", customerName: "Emeka Test" });
    expect((await listAdminOrders(t.db, { status: "delivered" })).orders.every((o) => o.status === "delivered")).toBe(true);

    const detail = await getAdminOrder(t.db, "UB-77001");
    expect(detail).toMatchObject({
      address: { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" },
      items: [expect.objectContaining({ quantity: 1, unitPrice: 5_000_000, lineTotal: 5_000_000 })],
      next: ["confirmed", "cancelled"],
    });
    expect(await getAdminOrder(t.db, "UB-404")).toBeUndefined();
  });
});
