import type { Db } from "~/db/client.server";
import type { OrderStatus } from "~/db/schema";
import { ORDER_STATUSES } from "~/lib/admin";
import { nairaCell, neutraliseFormula, toCsv } from "./catalogue-csv.server";

/**
 * Orders for the accountant: one CSV row per order in a date range (days in Lagos time, both ends
 * included), optionally of one status, amounts in naira with two decimals.
 */

export interface OrderExportFilters {
  /** YYYY-MM-DD, Lagos time, included */
  from: string | null;
  /** YYYY-MM-DD, Lagos time, included */
  to: string | null;
  status: OrderStatus | null;
}

export const ORDER_EXPORT_COLUMNS = [
  "order",
  "date",
  "channel",
  "status",
  "customer",
  "email",
  "items",
  "quantity",
  "subtotal_ngn",
  "shipping_ngn",
  "total_ngn",
  "street",
  "city",
  "state",
  "country",
] as const;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const E = "admin.orders.export.errors.";

function validDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const date = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text && Number(m[1]) >= 2000 && Number(m[1]) <= 2999;
}

/** The filters from the export form's query, or the translation key of what is wrong with them. */
export function parseOrderExportFilters(params: URLSearchParams): { filters: OrderExportFilters } | { error: string } {
  const from = params.get("from")?.trim() || null;
  const to = params.get("to")?.trim() || null;
  const statusText = params.get("status")?.trim() || null;
  if (from && !validDay(from)) return { error: E + "from" };
  if (to && !validDay(to)) return { error: E + "to" };
  if (statusText && !(ORDER_STATUSES as string[]).includes(statusText)) return { error: E + "status" };
  // Dates given the wrong way round mean the days between them.
  const [first, last] = from && to && from > to ? [to, from] : [from, to];
  return { filters: { from: first, to: last, status: statusText as OrderStatus | null } };
}

// Lagos is UTC+1 all year (no daylight saving time).
const lagosStart = (day: string) => new Date(`${day}T00:00:00+01:00`).toISOString();
const lagosNextDay = (day: string) => new Date(new Date(`${day}T00:00:00+01:00`).getTime() + 24 * 60 * 60 * 1000).toISOString();

/** "2026-11-23 14:05" in Lagos time. */
function lagosStamp(iso: string): string {
  return new Date(new Date(iso).getTime() + 60 * 60 * 1000).toISOString().slice(0, 16).replace("T", " ");
}

const BATCH = 1000;

export async function exportOrdersCsv(db: Db, filters: OrderExportFilters): Promise<string> {
  const rows: string[][] = [[...ORDER_EXPORT_COLUMNS]];
  let afterId = 0;
  for (;;) {
    let query = db
      .selectFrom("orders as o")
      .leftJoin("users as u", "u.id", "o.user_id")
      .select([
        "o.id",
        "o.number",
        "o.created_at",
        "o.channel",
        "o.status",
        "o.subtotal",
        "o.shipping",
        "o.total",
        "o.ship_street",
        "o.ship_city",
        "o.ship_state",
        "o.ship_country",
        "u.email",
        "u.first_name",
        "u.last_name",
      ])
      .where("o.id", ">", afterId);
    if (filters.from) query = query.where("o.created_at", ">=", lagosStart(filters.from));
    if (filters.to) query = query.where("o.created_at", "<", lagosNextDay(filters.to));
    if (filters.status) query = query.where("o.status", "=", filters.status);
    const orders = await query.orderBy("o.id").limit(BATCH).execute();
    if (!orders.length) break;
    afterId = orders[orders.length - 1].id;
    const items = await db
      .selectFrom("order_items")
      .select(["order_id", "name", "quantity"])
      .where(
        "order_id",
        "in",
        orders.map((o) => o.id),
      )
      .orderBy("order_id")
      .orderBy("id")
      .execute();
    const byOrder = new Map<number, { name: string; quantity: number }[]>();
    for (const item of items) {
      const list = byOrder.get(item.order_id) ?? [];
      list.push(item);
      byOrder.set(item.order_id, list);
    }
    for (const o of orders) {
      const lines = byOrder.get(o.id) ?? [];
      const customer = [o.first_name, o.last_name].filter(Boolean).join(" ");
      rows.push([
        o.number,
        lagosStamp(o.created_at),
        o.channel,
        o.status,
        neutraliseFormula(customer),
        neutraliseFormula(o.email ?? ""),
        neutraliseFormula(lines.map((l) => `${l.quantity} x ${l.name}`).join("; ")),
        String(lines.reduce((n, l) => n + l.quantity, 0)),
        nairaCell(o.subtotal),
        nairaCell(o.shipping),
        nairaCell(o.total),
        neutraliseFormula(o.ship_street ?? ""),
        neutraliseFormula(o.ship_city ?? ""),
        neutraliseFormula(o.ship_state ?? ""),
        neutraliseFormula(o.ship_country ?? ""),
      ]);
    }
    if (orders.length < BATCH) break;
  }
  return toCsv(rows);
}

/** "unboxed-orders-2026-11-01-to-2026-11-30-delivered.csv" */
export function orderExportFileName(filters: OrderExportFilters): string {
  const parts = ["unboxed-orders"];
  if (filters.from) parts.push(`from-${filters.from}`);
  if (filters.to) parts.push(`to-${filters.to}`);
  if (filters.status) parts.push(filters.status);
  if (parts.length === 1) parts.push(new Date().toISOString().slice(0, 10));
  return `${parts.join("-")}.csv`;
}
