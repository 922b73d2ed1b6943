import { type SelectQueryBuilder, sql, type Transaction } from "kysely";
import { type Db, isPostgres } from "~/db/client.server";
import { containsText } from "~/db/like";
import type { Database, OrderChannel, OrderStatus, PaymentStatus, Role } from "~/db/schema";
import { logSecurityEvent } from "~/platform/security-log.server";
import { recordAudit } from "./audit.server";
import { can } from "./permissions.server";

/**
 * The owner's view of the shop's accounts (docs/decisions/114): a searchable, paged list with each
 * account's orders summed by the database, and one account's page with its orders, saved addresses
 * and wishlist. Nothing here ever reads a password hash, a token or a session.
 */

export const CUSTOMERS_PAGE_SIZE = 20;
export const CUSTOMER_ORDERS_PAGE_SIZE = 20;

export interface CustomerStats {
  /** every order the account placed, whatever its status */
  orders: number;
  /** kobo: the totals of the account's orders whose payment status is 'paid' */
  spent: number;
  lastOrderAt: string | null;
}

export interface CustomerRow extends CustomerStats {
  /** the account's id; null for a guest */
  id: number | null;
  email: string;
  name: string;
  role: Role;
  /** an account's sign-up; a guest's first order */
  createdAt: string;
  /**
   * A guest (docs/decisions/217): no account, known by the e-mail its checkout orders were placed
   * with. Its page is reached through one of those orders (`guestOrder`), so no e-mail is put in a URL.
   */
  guest: boolean;
  guestOrder: string | null;
  /** a guest's latest number, E.164 (an account's is on its page); null for a role without `customers.contact` */
  phone: string | null;
}

function fullName(first: string, last: string): string {
  return `${first} ${last}`.trim();
}

const NO_ORDERS: CustomerStats = { orders: 0, spent: 0, lastOrderAt: null };

/** Orders, paid total and last order of these accounts only, in one grouped query. */
async function statsFor(db: Db, userIds: number[]): Promise<Map<number, CustomerStats>> {
  const stats = new Map<number, CustomerStats>();
  if (userIds.length === 0) return stats;
  const rows = await db
    .selectFrom("orders")
    .where("user_id", "in", userIds)
    .groupBy("user_id")
    .select((eb) => [
      "user_id",
      eb.fn.countAll<number>().as("orders"),
      sql<number>`coalesce(sum(case when payment_status = 'paid' then total else 0 end), 0)`.as("spent"),
      eb.fn.max("created_at").as("last_order_at"),
    ])
    .execute();
  for (const r of rows) {
    if (r.user_id !== null) stats.set(r.user_id, { orders: Number(r.orders), spent: Number(r.spent), lastOrderAt: r.last_order_at ?? null });
  }
  return stats;
}

/** A guest's orders: checkout orders without an account, placed with this e-mail. */
function guestOrders(db: Db, email: string) {
  return db.selectFrom("orders").where("user_id", "is", null).where("channel", "=", "checkout").where("email", "=", email);
}

/**
 * One page of a customer's orders, newest first (`orders`: the account's, or the guest's by e-mail;
 * `count` of them in all); a page past the last is the last. For both customer pages.
 */
async function pageOfOrders(orders: SelectQueryBuilder<Database, "orders", object>, count: number, requested: number | undefined): Promise<{ recentOrders: CustomerOrder[]; ordersPage: number; ordersPages: number }> {
  const ordersPages = Math.max(1, Math.ceil(count / CUSTOMER_ORDERS_PAGE_SIZE));
  const ordersPage = Math.min(Math.max(1, requested ?? 1), ordersPages);
  const rows = await orders
    .select(["id", "number", "created_at", "channel", "status", "payment_status", "total"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(CUSTOMER_ORDERS_PAGE_SIZE)
    .offset((ordersPage - 1) * CUSTOMER_ORDERS_PAGE_SIZE)
    .execute();
  return {
    recentOrders: rows.map((o) => ({ id: o.id, number: o.number, createdAt: o.created_at, channel: o.channel, status: o.status, paymentStatus: o.payment_status, total: o.total })),
    ordersPage,
    ordersPages,
  };
}

export interface GuestSummary extends CustomerStats {
  firstOrderAt: string;
  /** the latest order's number, name and phone */
  number: string;
  name: string;
  phone: string | null;
}

/** Each of these guests' orders summed, and their latest order's name, number and phone, in two queries. */
export async function guestSummaries(db: Db, emails: string[]): Promise<Map<string, GuestSummary>> {
  const found = new Map<string, GuestSummary>();
  if (emails.length === 0) return found;
  const base = db.selectFrom("orders").where("user_id", "is", null).where("channel", "=", "checkout").where("email", "in", emails);
  const [sums, latest] = await Promise.all([
    base
      .groupBy("email")
      .select((eb) => [
        "email",
        eb.fn.countAll<number>().as("orders"),
        sql<number>`coalesce(sum(case when payment_status = 'paid' then total else 0 end), 0)`.as("spent"),
        eb.fn.max("created_at").as("last_order_at"),
        eb.fn.min("created_at").as("first_order_at"),
      ])
      .execute(),
    base.select(["email", "number", "customer_name", "phone"]).orderBy("created_at", "desc").orderBy("id", "desc").execute(),
  ]);
  for (const r of sums) {
    const last = latest.find((o) => o.email === r.email);
    if (!r.email || !last) continue;
    found.set(r.email, {
      orders: Number(r.orders),
      spent: Number(r.spent),
      lastOrderAt: r.last_order_at ?? null,
      firstOrderAt: r.first_order_at ?? "",
      number: last.number,
      name: last.customer_name ?? "",
      phone: last.phone,
    });
  }
  return found;
}

/** Who the customers list shows: everyone, accounts of one role, or guests only. */
export type CustomerKind = Role | "guest";

export function isCustomerKind(value: unknown): value is CustomerKind {
  return value === "guest" || isRole(value);
}

/**
 * Newest first, accounts and guests together (docs/decisions/114, 217), searched by name, e-mail or
 * phone (any part, any case), optionally one role or guests only. A guest is one e-mail's checkout
 * orders without an account, listed from its first order. Only the page's rows are summed.
 */
export async function listCustomers(
  db: Db,
  options: { q?: string; page?: number; role?: CustomerKind | null } = {},
): Promise<{ customers: CustomerRow[]; total: number; page: number; pages: number }> {
  const q = options.q?.trim();
  const role = options.role ?? null;
  let accounts = db
    .selectFrom("users as u")
    .select((eb) => [sql<string>`'account'`.as("kind"), eb.ref("u.id").$castTo<number | null>().as("id"), "u.email as email", "u.created_at as created_at"]);
  if (role && role !== "guest") accounts = accounts.where("u.role", "=", role);
  if (q) {
    accounts = accounts.where((eb) =>
      eb.or([
        containsText(sql.ref<string>("u.email"), q),
        containsText(sql<string>`${sql.ref("u.first_name")} || ' ' || ${sql.ref("u.last_name")}`, q),
        containsText(sql<string>`coalesce(${sql.ref("u.phone")}, '')`, q),
      ]),
    );
  }
  let guests = db
    .selectFrom("orders as g")
    .where("g.user_id", "is", null)
    .where("g.channel", "=", "checkout")
    .where("g.email", "is not", null)
    .groupBy("g.email")
    .select((eb) => [sql<string>`'guest'`.as("kind"), sql<number | null>`cast(null as integer)`.as("id"), sql<string>`${eb.ref("g.email")}`.as("email"), eb.fn.min("g.created_at").as("created_at")]);
  if (q) {
    // A guest is found by any of its orders' e-mail, name or phone; all its orders are counted.
    guests = guests.where("g.email", "in", (eb) =>
      eb
        .selectFrom("orders as m")
        .select("m.email")
        .where("m.user_id", "is", null)
        .where("m.channel", "=", "checkout")
        .where((w) =>
          w.or([
            containsText(sql<string>`coalesce(${sql.ref("m.email")}, '')`, q),
            containsText(sql<string>`coalesce(${sql.ref("m.customer_name")}, '')`, q),
            containsText(sql<string>`coalesce(${sql.ref("m.phone")}, '')`, q),
          ]),
        ),
    );
  }
  const both = role === null ? accounts.unionAll(guests) : role === "guest" ? guests : accounts;
  const { n } = await db
    .selectFrom(both.as("c"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / CUSTOMERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  const rows = await db
    .selectFrom(both.as("c"))
    .select(["c.kind", "c.id", "c.email", "c.created_at"])
    .orderBy("c.created_at", "desc")
    .orderBy("c.kind")
    .orderBy("c.id", "desc")
    .orderBy("c.email")
    .limit(CUSTOMERS_PAGE_SIZE)
    .offset((page - 1) * CUSTOMERS_PAGE_SIZE)
    .execute();
  const accountIds = rows.filter((r) => r.kind === "account" && r.id !== null).map((r) => Number(r.id));
  const [users, stats, guestRows] = await Promise.all([
    accountIds.length ? db.selectFrom("users").select(["id", "email", "first_name", "last_name", "role", "created_at"]).where("id", "in", accountIds).execute() : [],
    statsFor(db, accountIds),
    guestSummaries(
      db,
      rows.filter((r) => r.kind === "guest").map((r) => r.email),
    ),
  ]);
  const customers: CustomerRow[] = [];
  for (const r of rows) {
    if (r.kind === "account") {
      const u = users.find((user) => user.id === Number(r.id));
      if (!u) continue;
      customers.push({ id: u.id, email: u.email, name: fullName(u.first_name, u.last_name), role: u.role, createdAt: u.created_at, guest: false, guestOrder: null, phone: null, ...(stats.get(u.id) ?? NO_ORDERS) });
    } else {
      const g = guestRows.get(r.email);
      if (!g) continue;
      customers.push({ id: null, email: r.email, name: g.name, role: "customer", createdAt: g.firstOrderAt, guest: true, guestOrder: g.number, phone: g.phone, orders: g.orders, spent: g.spent, lastOrderAt: g.lastOrderAt });
    }
  }
  return { total, page, pages, customers };
}

/** A guest's page (docs/decisions/217): every checkout order without an account placed with one e-mail. */
export interface GuestCustomerDetail extends CustomerStats {
  email: string;
  /** the name on the latest order */
  name: string;
  /** every number the guest's orders were placed with, newest first, E.164 */
  phones: string[];
  firstOrderAt: string;
  /** the language of the latest order, null before it was kept */
  locale: string | null;
  /** an order of the guest's, by which its page is reached */
  guestOrder: string;
  recentOrders: CustomerOrder[];
  ordersPage: number;
  ordersPages: number;
}

/**
 * The guest who placed this order, or undefined when the order has an account (its page is the
 * account's), has no e-mail (a WhatsApp chat) or does not exist.
 */
export async function getGuestCustomer(db: Db, orderNumber: string, options: { ordersPage?: number } = {}): Promise<GuestCustomerDetail | undefined> {
  const order = await db
    .selectFrom("orders")
    .select(["email"])
    .where("number", "=", orderNumber)
    .where("user_id", "is", null)
    .where("channel", "=", "checkout")
    .executeTakeFirst();
  if (!order?.email) return undefined;
  const email = order.email;
  const summary = (await guestSummaries(db, [email])).get(email);
  if (!summary) return undefined;
  const [orders, phones, latest] = await Promise.all([
    pageOfOrders(guestOrders(db, email), summary.orders, options.ordersPage),
    guestOrders(db, email)
      .where("phone", "is not", null)
      .groupBy("phone")
      .select((eb) => ["phone", eb.fn.max("created_at").as("at")])
      .orderBy("at", "desc")
      .execute(),
    guestOrders(db, email).select("locale").orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst(),
  ]);
  return {
    email,
    name: summary.name,
    phones: phones.map((p) => p.phone).filter((p): p is string => p !== null),
    firstOrderAt: summary.firstOrderAt,
    locale: latest?.locale ?? null,
    guestOrder: orderNumber,
    orders: summary.orders,
    spent: summary.spent,
    lastOrderAt: summary.lastOrderAt,
    ...orders,
  };
}

export interface CustomerOrder {
  id: number;
  number: string;
  createdAt: string;
  channel: OrderChannel;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  total: number;
}

export interface CustomerDetail extends Omit<CustomerRow, "id"> {
  id: number;
  firstName: string;
  lastName: string;
  /** the language the account last used, null until known */
  locale: string | null;
  /** the account's mobile number (E.164), null until given or for a role without `customers.contact` */
  phone: string | null;
  addresses: { id: number; street: string; city: string; state: string; country: string }[];
  wishlistCount: number;
  /** one page of the account's orders, newest first */
  recentOrders: CustomerOrder[];
  ordersPage: number;
  ordersPages: number;
}

/** One account as the owner sees it, or undefined. The columns are listed: never a hash or a token. */
export async function getCustomer(db: Db, id: number, options: { ordersPage?: number } = {}): Promise<CustomerDetail | undefined> {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "first_name", "last_name", "role", "created_at", "locale", "phone"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!user) return undefined;
  const stats = (await statsFor(db, [id])).get(id) ?? NO_ORDERS;
  const [orders, addresses, wishlist] = await Promise.all([
    pageOfOrders(db.selectFrom("orders").where("user_id", "=", id), stats.orders, options.ordersPage),
    db.selectFrom("addresses").select(["id", "street", "city", "state", "country"]).where("user_id", "=", id).orderBy("id").execute(),
    db
      .selectFrom("wishlist")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    name: fullName(user.first_name, user.last_name),
    role: user.role,
    createdAt: user.created_at,
    locale: user.locale,
    phone: user.phone,
    guest: false,
    guestOrder: null,
    ...stats,
    addresses,
    wishlistCount: Number(wishlist.n),
    ...orders,
  };
}

export const ROLES: Role[] = ["customer", "owner", "manager", "fulfilment", "support"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as string[]).includes(value);
}

export type RoleChangeResult =
  | { ok: true; changed: boolean; email: string }
  /**
   * self: nobody changes their own role; lastOwner: the shop would be left without an owner;
   * notOwner: the one asking is no longer an owner; notFound: no such account
   */
  | { ok: false; error: "self" | "lastOwner" | "notOwner" | "notFound" };

/**
 * Gives an account a role: customer or one of the staff roles (docs/decisions/115, 218). Only an owner
 * changes roles, nobody their own, and the shop always keeps one owner. The rules are decided inside
 * the transaction that writes the change: on PostgreSQL every owner's row, the asker's and the
 * account's are locked first (in id order, so two owners demoting each other at once queue instead of
 * both seeing two owners), then read again as they now stand; SQLite runs one writer at a time. The
 * audit log entry is written in the same transaction. The account's next request reads its role afresh
 * (sessions hold no role), so a change applies at once.
 */
export async function changeRole(db: Db, input: { actorId: number; userId: number; role: Role }): Promise<RoleChangeResult> {
  const result = input.actorId === input.userId ? ({ ok: false, error: "self" } as const) : await db.transaction().execute((trx) => decideRoleChange(trx, input));
  if (result.ok && result.changed) {
    logSecurityEvent("role_changed", { actorId: input.actorId, userId: input.userId, from: result.from, to: input.role });
  }
  if (!result.ok && result.error !== "notFound") {
    logSecurityEvent("role_change_refused", { actorId: input.actorId, userId: input.userId, to: input.role, reason: result.error });
  }
  return result.ok ? { ok: true, changed: result.changed, email: result.email } : result;
}

/**
 * Every owner, the acting staff member and the account acted on, locked (on PostgreSQL) in id order:
 * what a role change or a suspension decides on, so that the shop always keeps one active owner even
 * when two owners act on each other at once.
 */
export async function lockOwnersActorAndTarget(trx: Transaction<Database>, actorId: number, userId: number) {
  let query = trx
    .selectFrom("users")
    .select(["id", "email", "role", "suspended_at"])
    .where((eb) => eb.or([eb("role", "=", "owner"), eb("id", "in", [actorId, userId])]))
    .orderBy("id");
  if (isPostgres(trx)) query = query.forUpdate();
  return query.execute();
}

async function decideRoleChange(trx: Transaction<Database>, input: { actorId: number; userId: number; role: Role }): Promise<RoleChangeResult & { from?: Role }> {
  const rows = await lockOwnersActorAndTarget(trx, input.actorId, input.userId);
  const actor = rows.find((r) => r.id === input.actorId);
  // A suspended owner acts on nothing (docs/decisions/222).
  if (!can(actor?.role, "staff") || actor?.suspended_at) return { ok: false, error: "notOwner" };
  const target = rows.find((r) => r.id === input.userId);
  if (!target) return { ok: false, error: "notFound" };
  if (target.role === input.role) return { ok: true, changed: false, email: target.email };
  // Never true while the asker is an owner other than the account; kept so the rule does not rest on that alone.
  // A suspended owner does not count: the shop keeps one owner who can act (docs/decisions/222).
  if (input.role !== "owner" && !rows.some((r) => r.role === "owner" && r.id !== target.id && !r.suspended_at)) return { ok: false, error: "lastOwner" };
  // Joining the staff starts the second factor's grace; leaving it ends every session at once.
  const joins = target.role === "customer" ? { staff_since: new Date().toISOString() } : {};
  const updated = await trx.updateTable("users").set({ role: input.role, ...joins }).where("id", "=", target.id).where("role", "=", target.role).executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new Error(`the role of account ${target.id} changed under a lock`);
  if (input.role === "customer") await trx.deleteFrom("sessions").where("user_id", "=", target.id).execute();
  await recordAudit(trx, {
    actorId: input.actorId,
    action: "update",
    entity: "user",
    entityId: target.id,
    summary: target.email,
    changes: { role: [target.role, input.role] },
  });
  return { ok: true, changed: true, email: target.email, from: target.role };
}
