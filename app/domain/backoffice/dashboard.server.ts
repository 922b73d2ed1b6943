import { sql } from "kysely";
import type { Db } from "~/db/client.server";
import type { OrderChannel, OrderStatus, PaymentStatus } from "~/db/schema";
import { ORDER_STATUSES } from "../orders/admin-orders.server";
import { refundedAsCreditOfOrder } from "../credit/ledger.server";
import { mailOutboxCounts, type MailOutboxCounts } from "../operations/mail-outbox.server";

/**
 * The figures on the admin dashboard, read fresh from the database. Days are the shop's days in
 * Lagos (West Africa Time, UTC+1 all year, no daylight saving). Orders count the orders that are
 * sales: checkout orders that were not cancelled, and WhatsApp orders once the owner has confirmed
 * them (a pending WhatsApp order may never have been sent; they are counted apart). Revenue counts
 * the sales paid for: orders paid (and not refunded), on the day they were paid, net of discount codes
 * and of what of them was refunded as store credit; what store credit and gift cards paid of an order
 * counts, as a gift card's sale (not an order) does not (docs/decisions/224).
 */

export const SHOP_UTC_OFFSET_MINUTES = 60;
export const LOW_STOCK_AT_MOST = 3;
export const CHART_DAYS = 30;
const LIST_LIMIT = 8;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface DayFigure {
  /** the shop's calendar date, YYYY-MM-DD */
  date: string;
  orders: number;
  revenue: number;
}

export interface PeriodFigure {
  orders: number;
  revenue: number;
}

export interface StockAlert {
  id: number;
  name: string;
  stock: number;
}

export interface Dashboard {
  today: PeriodFigure;
  week: PeriodFigure;
  month: PeriodFigure;
  byStatus: Record<OrderStatus, number>;
  pendingWhatsapp: number;
  lowStock: { count: number; items: StockAlert[] };
  soldOut: { count: number; items: StockAlert[] };
  latest: { number: string; createdAt: string; channel: OrderChannel; status: OrderStatus; paymentStatus: PaymentStatus; total: number; customer: string | null; guest: boolean }[];
  /** orders placed and not cancelled whose money has not come in */
  unpaid: number;
  daily: DayFigure[];
  /** e-mails waiting in the outbox, and those given up on */
  mail: MailOutboxCounts;
}

/** The shop's calendar date of an instant. */
export function shopDate(instant: number): string {
  return new Date(instant + SHOP_UTC_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
}

/** The instant the shop's day of `instant` began, minus `daysBack` days. */
function startOfShopDay(instant: number, daysBack: number): number {
  const local = Date.parse(`${shopDate(instant)}T00:00:00.000Z`);
  return local - SHOP_UTC_OFFSET_MINUTES * 60_000 - daysBack * DAY_MS;
}

function sum(days: DayFigure[]): PeriodFigure {
  return days.reduce((acc, d) => ({ orders: acc.orders + d.orders, revenue: acc.revenue + d.revenue }), { orders: 0, revenue: 0 });
}

/** lowStockAt: the LOW_STOCK_THRESHOLD setting (a product with 1 to this many left is low on stock) */
export async function loadDashboard(db: Db, now: Date = new Date(), lowStockAt: number = LOW_STOCK_AT_MOST): Promise<Dashboard> {
  const nowMs = now.getTime();
  const from = new Date(startOfShopDay(nowMs, CHART_DAYS - 1)).toISOString();
  // Grouped by UTC hour in SQL (the same text prefix on both engines), then into the shop's days here:
  // at most 720 rows however many orders there are.
  const hour = sql<string>`substr(created_at, 1, 13)`;
  const paidHour = sql<string>`substr(paid_at, 1, 13)`;
  const [hours, paidHours, statuses, pendingWhatsapp, unpaid, lowStock, soldOut, latest, mail] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => [hour.as("hour"), eb.fn.countAll<number>().as("orders")])
      .where("created_at", ">=", from)
      .where("status", "!=", "cancelled")
      .where((eb) => eb.or([eb("channel", "=", "checkout"), eb("status", "!=", "pending")]))
      .groupBy(hour)
      .execute(),
    db
      .selectFrom("orders")
      .select((eb) => [paidHour.as("hour"), eb.fn.sum<number>(sql`total - ${refundedAsCreditOfOrder()}`).as("revenue")])
      .where("payment_status", "=", "paid")
      .where("paid_at", ">=", from)
      .groupBy(paidHour)
      .execute(),
    db
      .selectFrom("orders")
      .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
      .groupBy("status")
      .execute(),
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "pending")
      .where("channel", "=", "whatsapp")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("payment_status", "=", "unpaid")
      .where("status", "!=", "cancelled")
      .where((eb) => eb.or([eb("channel", "=", "checkout"), eb("status", "!=", "pending")]))
      .executeTakeFirstOrThrow(),
    stockAlerts(db, 1, lowStockAt),
    stockAlerts(db, 0, 0),
    db
      .selectFrom("orders as o")
      .leftJoin("users as u", "u.id", "o.user_id")
      .select(["o.number", "o.created_at", "o.channel", "o.status", "o.payment_status", "o.total", "o.user_id", "u.email", "o.email as guest_email"])
      .orderBy("o.created_at", "desc")
      .orderBy("o.id", "desc")
      .limit(5)
      .execute(),
    mailOutboxCounts(db),
  ]);

  const daily: DayFigure[] = [];
  const index = new Map<string, DayFigure>();
  for (let back = CHART_DAYS - 1; back >= 0; back--) {
    const day: DayFigure = { date: shopDate(startOfShopDay(nowMs, back)), orders: 0, revenue: 0 };
    daily.push(day);
    index.set(day.date, day);
  }
  for (const row of hours) {
    const day = index.get(shopDate(Date.parse(`${row.hour}:00:00.000Z`)));
    if (!day) continue;
    day.orders += Number(row.orders);
  }
  for (const row of paidHours) {
    const day = index.get(shopDate(Date.parse(`${row.hour}:00:00.000Z`)));
    if (day) day.revenue += Number(row.revenue ?? 0);
  }

  const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const row of statuses) byStatus[row.status] = Number(row.n);

  return {
    today: sum(daily.slice(-1)),
    week: sum(daily.slice(-7)),
    month: sum(daily),
    byStatus,
    pendingWhatsapp: Number(pendingWhatsapp.n),
    unpaid: Number(unpaid.n),
    lowStock,
    soldOut,
    latest: latest.map((o) => ({
      number: o.number,
      createdAt: o.created_at,
      channel: o.channel,
      status: o.status,
      paymentStatus: o.payment_status,
      total: o.total,
      // A guest's order names the e-mail it was placed with (docs/decisions/217).
      customer: o.email ?? o.guest_email,
      guest: o.user_id === null && o.guest_email !== null,
    })),
    daily,
    mail,
  };
}

async function stockAlerts(db: Db, min: number, max: number): Promise<{ count: number; items: StockAlert[] }> {
  const base = db.selectFrom("products").where("archived_at", "is", null).where("stock", ">=", min).where("stock", "<=", max);
  const [{ n }, items] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    base.select(["id", "name", "stock"]).orderBy("stock").orderBy("name").limit(LIST_LIMIT).execute(),
  ]);
  return { count: Number(n), items };
}
