import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import type { Db } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { captureSecurityLog } from "~/platform/security-log.server";
import { listAudit } from "./audit.server";
import { changeRole, CUSTOMERS_PAGE_SIZE, getCustomer, listCustomers } from "./customers.server";
import { createSession } from "~/http/session.server";

const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$NOT-A-REAL-HASH-but-unmistakable";

async function account(db: Db, email: string, first: string, last: string, createdAt: string, role: Role = "customer") {
  const row = await db
    .insertInto("users")
    .values({ email, password_hash: HASH, first_name: first, last_name: last, role, created_at: createdAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

describe.each(ENGINES)("the owner's customers on %s", (engine) => {
  let t: TestDatabase;
  let ngozi: number;
  let emeka: number;
  let product: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    ngozi = await account(t.db, "ngozi.okafor@example.com", "Ngozi", "Okafor", "2026-01-05T09:00:00.000Z");
    emeka = await account(t.db, "emeka@mail.example", "Emeka", "Obi", "2026-02-10T09:00:00.000Z");
    // 25 more, each a day apart, so paging has something to do.
    for (let i = 0; i < 25; i++) {
      const day = String(i + 1).padStart(2, "0");
      await account(t.db, `shopper${day}@example.net`, `Shopper${day}`, "Adeyemi", `2026-03-${day}T09:00:00.000Z`);
    }
    const brandId = (await addBrand(t.db)).id;
    const categoryId = (await addCategory(t.db)).id;
    product = (await addProduct(t.db, { brandId, categoryId, name: "Sauvage", price: 4_500_000, stock: 100 })).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("lists newest accounts first, a page at a time, with the total and page count", async () => {
    const first = await listCustomers(t.db);
    expect(first.total).toBe(27);
    expect(first.pages).toBe(2);
    expect(first.customers).toHaveLength(CUSTOMERS_PAGE_SIZE);
    expect(first.customers[0].email).toBe("shopper25@example.net");
    const second = await listCustomers(t.db, { page: 2 });
    expect(second.page).toBe(2);
    expect(second.customers.map((c) => c.email)).toEqual([
      "shopper05@example.net",
      "shopper04@example.net",
      "shopper03@example.net",
      "shopper02@example.net",
      "shopper01@example.net",
      "emeka@mail.example",
      "ngozi.okafor@example.com",
    ]);
    // A page past the end shows the last page.
    expect((await listCustomers(t.db, { page: 99 })).page).toBe(2);
  });

  it("searches by any part of the name or e-mail, in any case, with wildcards taken literally", async () => {
    const emails = async (q: string) => (await listCustomers(t.db, { q })).customers.map((c) => c.email);
    expect(await emails("NGO")).toEqual(["ngozi.okafor@example.com"]);
    expect(await emails("kafo")).toEqual(["ngozi.okafor@example.com"]);
    expect(await emails("emeka obi")).toEqual(["emeka@mail.example"]);
    expect(await emails("MAIL.EXAMPLE")).toEqual(["emeka@mail.example"]);
    expect(await emails("r07@")).toEqual(["shopper07@example.net"]);
    const adeyemi = await listCustomers(t.db, { q: "adeyemi" });
    expect(adeyemi.total).toBe(25);
    expect(adeyemi.pages).toBe(2);
    expect(await emails("%")).toEqual([]);
    expect(await emails("_")).toEqual([]);
    expect(await emails("nobody-here")).toEqual([]);
  });

  it("counts every order, sums only the paid ones (in kobo) and shows the last order's time", async () => {
    await insertOrder(t.db, { userId: ngozi, items: [{ productId: product, quantity: 1 }], createdAt: "2026-04-01T10:00:00.000Z", paidAt: "2026-04-01T10:05:00.000Z" });
    await insertOrder(t.db, { userId: ngozi, items: [{ productId: product, quantity: 2 }], createdAt: "2026-04-03T10:00:00.000Z", paidAt: "2026-04-03T10:05:00.000Z" });
    // Unpaid, refunded and cancelled orders count as orders but add nothing to the amount spent.
    await insertOrder(t.db, { userId: ngozi, items: [{ productId: product, quantity: 5 }], createdAt: "2026-04-07T10:00:00.000Z" });
    await insertOrder(t.db, { userId: ngozi, items: [{ productId: product, quantity: 3 }], createdAt: "2026-04-05T10:00:00.000Z", paymentStatus: "refunded" });
    await insertOrder(t.db, { userId: ngozi, status: "cancelled", items: [{ productId: product, quantity: 1 }], createdAt: "2026-04-02T10:00:00.000Z" });
    // Someone else's and a guest's orders are not hers.
    await insertOrder(t.db, { userId: emeka, items: [{ productId: product, quantity: 1 }], createdAt: "2026-04-09T10:00:00.000Z", paidAt: "2026-04-09T10:00:00.000Z" });
    await insertOrder(t.db, { userId: null, items: [{ productId: product, quantity: 4 }], createdAt: "2026-04-10T10:00:00.000Z", paidAt: "2026-04-10T10:00:00.000Z" });

    const row = (await listCustomers(t.db, { q: "ngozi" })).customers[0];
    expect(row).toMatchObject({ id: ngozi, name: "Ngozi Okafor", role: "customer", orders: 5, spent: 3 * 4_500_000, lastOrderAt: "2026-04-07T10:00:00.000Z" });
    expect(row.createdAt).toBe("2026-01-05T09:00:00.000Z");
    expect((await listCustomers(t.db, { q: "emeka" })).customers[0]).toMatchObject({ orders: 1, spent: 4_500_000, lastOrderAt: "2026-04-09T10:00:00.000Z" });
    expect((await listCustomers(t.db, { q: "shopper01" })).customers[0]).toMatchObject({ orders: 0, spent: 0, lastOrderAt: null });
  });

  it("shows one account with its orders (newest first), addresses and wishlist count, and never a secret", async () => {
    const context = testContext(t);
    const cookie = await createSession(context, ngozi);
    await t.db.insertInto("password_resets").values({ token_hash: "reset-token-hash-ngozi", user_id: ngozi, expires_at: "2099-01-01T00:00:00.000Z", used_at: null, created_at: "2026-04-01T00:00:00.000Z" }).execute();
    await t.db
      .insertInto("addresses")
      .values([
        { user_id: ngozi, street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria", created_at: "2026-04-01T00:00:00.000Z" },
        { user_id: ngozi, street: "3 Aminu Kano Crescent", city: "Wuse II", state: "FCT", country: "Nigeria", created_at: "2026-04-02T00:00:00.000Z" },
        { user_id: emeka, street: "1 Other Street", city: "Enugu", state: "Enugu", country: "Nigeria", created_at: "2026-04-02T00:00:00.000Z" },
      ])
      .execute();
    await t.db.insertInto("wishlist").values({ user_id: ngozi, product_id: product, created_at: "2026-04-01T00:00:00.000Z" }).execute();

    const detail = await getCustomer(t.db, ngozi);
    expect(detail).toBeDefined();
    expect(detail).toMatchObject({ email: "ngozi.okafor@example.com", firstName: "Ngozi", lastName: "Okafor", orders: 5, spent: 13_500_000, wishlistCount: 1, ordersPage: 1, ordersPages: 1 });
    expect(detail!.addresses.map((a) => a.city)).toEqual(["Lekki", "Wuse II"]);
    expect(detail!.recentOrders.map((o) => o.createdAt)).toEqual([
      "2026-04-07T10:00:00.000Z",
      "2026-04-05T10:00:00.000Z",
      "2026-04-03T10:00:00.000Z",
      "2026-04-02T10:00:00.000Z",
      "2026-04-01T10:00:00.000Z",
    ]);
    expect(detail!.recentOrders.map((o) => o.paymentStatus)).toEqual(["unpaid", "refunded", "paid", "unpaid", "paid"]);

    const sessionHash = (await t.db.selectFrom("sessions").select("id").where("user_id", "=", ngozi).executeTakeFirstOrThrow()).id;
    const text = JSON.stringify(detail);
    expect(text).not.toContain(HASH);
    expect(text).not.toContain("argon2");
    expect(text).not.toContain(sessionHash);
    expect(text).not.toContain(cookie.split(";")[0].split("=")[1]);
    expect(text).not.toContain("reset-token-hash-ngozi");
    expect(Object.keys(detail!)).not.toEqual(expect.arrayContaining(["password_hash"]));
    expect(JSON.stringify(await listCustomers(t.db))).not.toContain(HASH);

    expect(await getCustomer(t.db, 999_999)).toBeUndefined();
    const empty = await getCustomer(t.db, emeka);
    expect(empty).toMatchObject({ wishlistCount: 0, orders: 1 });
    expect(empty!.addresses.map((a) => a.city)).toEqual(["Enugu"]);
  });

  it("pages a long order history", async () => {
    const busy = await account(t.db, "busy@example.com", "Busy", "Buyer", "2026-05-01T00:00:00.000Z");
    for (let i = 0; i < 23; i++) {
      await insertOrder(t.db, { userId: busy, items: [{ productId: product, quantity: 1 }], createdAt: `2026-05-${String(i + 2).padStart(2, "0")}T10:00:00.000Z` });
    }
    const second = await getCustomer(t.db, busy, { ordersPage: 2 });
    expect(second).toMatchObject({ orders: 23, ordersPage: 2, ordersPages: 2 });
    expect(second!.recentOrders.map((o) => o.createdAt)).toEqual(["2026-05-04T10:00:00.000Z", "2026-05-03T10:00:00.000Z", "2026-05-02T10:00:00.000Z"]);
    expect((await getCustomer(t.db, busy, { ordersPage: 50 }))!.ordersPage).toBe(2);
  });

  it("lists only admins, or only customers, when asked", async () => {
    const owner = await account(t.db, "owner@unboxed.example", "Ada", "Owner", "2026-06-01T00:00:00.000Z", "owner");
    const all = (await listCustomers(t.db)).total;
    const admins = await listCustomers(t.db, { role: "owner" });
    expect(admins.customers.map((c) => [c.id, c.role])).toEqual([[owner, "owner"]]);
    expect((await listCustomers(t.db, { role: "customer" })).total).toBe(all - 1);
    expect((await listCustomers(t.db, { role: "owner", q: "ngozi" })).total).toBe(0);
    expect((await listCustomers(t.db, { role: "customer", q: "ngozi" })).total).toBe(1);
  });
});

describe.each(ENGINES)("admin roles on %s", (engine) => {
  let t: TestDatabase;
  const role = async (id: number) => (await t.db.selectFrom("users").select("role").where("id", "=", id).executeTakeFirstOrThrow()).role;
  const admins = async () => (await t.db.selectFrom("users").select("id").where("role", "=", "owner").execute()).map((r) => r.id);
  const stamp = () => Math.random().toString(36).slice(2, 10);

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("makes an account an admin and takes it away, in the audit log and the security log", async () => {
    const owner = await account(t.db, `owner-${stamp()}@unboxed.example`, "Ada", "Owner", "2026-01-01T00:00:00.000Z", "owner");
    const funke = await account(t.db, `funke-${stamp()}@example.com`, "Funke", "Ade", "2026-01-02T00:00:00.000Z");
    const log = captureSecurityLog();
    try {
      expect(await changeRole(t.db, { actorId: owner, userId: funke, role: "owner" })).toMatchObject({ ok: true, changed: true });
      expect(await role(funke)).toBe("owner");
      expect(await changeRole(t.db, { actorId: owner, userId: funke, role: "owner" })).toMatchObject({ ok: true, changed: false });
      expect(await changeRole(t.db, { actorId: owner, userId: funke, role: "customer" })).toMatchObject({ ok: true, changed: true });
      expect(await role(funke)).toBe("customer");
    } finally {
      log.stop();
    }
    const audit = await listAudit(t.db, { entity: "user" });
    expect(audit.entries.map((e) => [e.action, e.entityId, e.changes.role, e.actor])).toEqual([
      ["update", funke, ["owner", "customer"], "Ada Owner"],
      ["update", funke, ["customer", "owner"], "Ada Owner"],
    ]);
    const changed = log.lines.filter((l) => l.event === "role_changed");
    expect(changed).toEqual([
      expect.objectContaining({ actorId: owner, userId: funke, from: "customer", to: "owner" }),
      expect.objectContaining({ actorId: owner, userId: funke, from: "owner", to: "customer" }),
    ]);
    expect(log.lines.filter((l) => l.event === "admin_change")).toHaveLength(2);
  });

  it("never changes the asker's own role, nor lets an account that is no longer an admin change any", async () => {
    const owner = await account(t.db, `solo-${stamp()}@unboxed.example`, "Solo", "Owner", "2026-01-01T00:00:00.000Z", "owner");
    const other = await account(t.db, `other-${stamp()}@unboxed.example`, "Other", "Admin", "2026-01-01T00:00:00.000Z", "owner");
    const shopper = await account(t.db, `shopper-${stamp()}@example.com`, "Shopper", "One", "2026-01-01T00:00:00.000Z");
    const before = (await listAudit(t.db)).total;
    const log = captureSecurityLog();
    try {
      expect(await changeRole(t.db, { actorId: owner, userId: owner, role: "customer" })).toEqual({ ok: false, error: "self" });
      expect(await changeRole(t.db, { actorId: owner, userId: owner, role: "owner" })).toEqual({ ok: false, error: "self" });
      expect(await changeRole(t.db, { actorId: shopper, userId: other, role: "customer" })).toEqual({ ok: false, error: "notOwner" });
      expect(await changeRole(t.db, { actorId: shopper, userId: shopper, role: "owner" })).toEqual({ ok: false, error: "self" });
      expect(await changeRole(t.db, { actorId: owner, userId: 9_999_999, role: "owner" })).toEqual({ ok: false, error: "notFound" });
    } finally {
      log.stop();
    }
    expect(await role(owner)).toBe("owner");
    expect(await role(other)).toBe("owner");
    expect(await role(shopper)).toBe("customer");
    expect((await listAudit(t.db)).total).toBe(before);
    expect(log.lines.filter((l) => l.event === "role_change_refused").map((l) => l.reason)).toEqual(["self", "self", "notOwner", "self"]);

    // Once demoted by the other admin, the owner cannot demote them back.
    expect(await changeRole(t.db, { actorId: other, userId: owner, role: "customer" })).toMatchObject({ ok: true, changed: true });
    expect(await changeRole(t.db, { actorId: owner, userId: other, role: "customer" })).toEqual({ ok: false, error: "notOwner" });
    expect(await role(other)).toBe("owner");
  });

  it("gives the staff roles, lets only an owner do it, and keeps an owner when owners make each other managers at once", async () => {
    const owner = await account(t.db, `staff-owner-${stamp()}@unboxed.example`, "Ada", "Owner", "2026-01-01T00:00:00.000Z", "owner");
    const manager = await account(t.db, `manager-${stamp()}@unboxed.example`, "Musa", "Manager", "2026-01-01T00:00:00.000Z", "manager");
    const packer = await account(t.db, `packer-${stamp()}@example.com`, "Pat", "Packer", "2026-01-01T00:00:00.000Z");
    for (const next of ["fulfilment", "support", "manager", "customer"] as const) {
      expect(await changeRole(t.db, { actorId: owner, userId: packer, role: next })).toMatchObject({ ok: true, changed: true });
      expect(await role(packer)).toBe(next);
    }
    // A manager may not give roles, not even to make someone a customer again.
    expect(await changeRole(t.db, { actorId: manager, userId: packer, role: "fulfilment" })).toEqual({ ok: false, error: "notOwner" });
    expect(await changeRole(t.db, { actorId: manager, userId: owner, role: "support" })).toEqual({ ok: false, error: "notOwner" });
    expect(await role(owner)).toBe("owner");

    await t.db.updateTable("users").set({ role: "customer" }).where("role", "=", "owner").execute();
    for (let round = 0; round < 4; round++) {
      const a = await account(t.db, `ma${round}-${stamp()}@unboxed.example`, "Amaka", "Owner", "2026-01-01T00:00:00.000Z", "owner");
      const b = await account(t.db, `mb${round}-${stamp()}@unboxed.example`, "Bayo", "Owner", "2026-01-01T00:00:00.000Z", "owner");
      const results = await Promise.all([changeRole(t.db, { actorId: a, userId: b, role: "manager" }), changeRole(t.db, { actorId: b, userId: a, role: "manager" })]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(await admins()).toHaveLength(1);
      await t.db.updateTable("users").set({ role: "customer" }).where("id", "in", [a, b]).execute();
    }
  });

  it("leaves at least one admin when two admins demote each other at the same moment", async () => {
    await t.db.updateTable("users").set({ role: "customer" }).where("role", "=", "owner").execute();
    for (let round = 0; round < 8; round++) {
      const a = await account(t.db, `a${round}-${stamp()}@unboxed.example`, "Amaka", "Admin", "2026-01-01T00:00:00.000Z", "owner");
      const b = await account(t.db, `b${round}-${stamp()}@unboxed.example`, "Bayo", "Admin", "2026-01-01T00:00:00.000Z", "owner");
      const results = await Promise.all([changeRole(t.db, { actorId: a, userId: b, role: "customer" }), changeRole(t.db, { actorId: b, userId: a, role: "customer" })]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: "notOwner" }]);
      const left = await admins();
      expect(left).toHaveLength(1);
      expect([a, b]).toContain(left[0]);
      await t.db.updateTable("users").set({ role: "customer" }).where("role", "=", "owner").execute();
    }
  });

  it("leaves at least one admin when three admins each demote the next at once", async () => {
    await t.db.updateTable("users").set({ role: "customer" }).where("role", "=", "owner").execute();
    for (let round = 0; round < 5; round++) {
      const ids: number[] = [];
      for (const name of ["Chidi", "Dayo", "Efe"]) ids.push(await account(t.db, `${name}${round}-${stamp()}@unboxed.example`, name, "Admin", "2026-01-01T00:00:00.000Z", "owner"));
      const results = await Promise.all(ids.map((id, i) => changeRole(t.db, { actorId: id, userId: ids[(i + 1) % 3], role: "customer" })));
      const left = await admins();
      expect(left.length).toBeGreaterThanOrEqual(1);
      expect(results.filter((r) => r.ok)).toHaveLength(3 - left.length);
      // The audit log holds exactly the changes that happened.
      const demoted = ids.filter((id) => !left.includes(id));
      const entries = (await t.db.selectFrom("audit_log").select("entity_id").where("entity", "=", "user").where("entity_id", "in", ids).execute()).map((e) => e.entity_id);
      expect(entries.sort()).toEqual(demoted.sort());
      await t.db.updateTable("users").set({ role: "customer" }).where("role", "=", "owner").execute();
    }
  });
});
