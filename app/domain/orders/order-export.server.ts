import type { Db } from "~/db/client.server";
import { ORDER_COLUMNS } from "./order-columns.server";
import { filteredOrders, parseOrderFilters, type OrderFilters } from "./admin-orders.server";
import { nairaCell, neutraliseFormula, toCsv } from "../catalogue/catalogue-csv.server";
import type { StaffView } from "../backoffice/staff-view.server";
import { vatContained } from "./vat.server";

/**
 * Orders for the accountant: one CSV row per order in a date range (days in Lagos time, both ends
 * included), optionally of one status, channel and payment status (the orders list's filters, through
 * the same query), amounts in naira with two decimals. `total_ngn` is what the order is worth;
 * `store_credit_ngn` and `gift_card_ngn` are what of it credit and a gift card paid, the rest was due.
 */

export type OrderExportFilters = Pick<OrderFilters, "from" | "to" | "status" | "channel" | "payment">;

export const ORDER_EXPORT_COLUMNS = [
  "order",
  "date",
  "channel",
  "status",
  "payment",
  "customer",
  "email",
  "phone",
  "items",
  "quantity",
  "subtotal_ngn",
  "discount_ngn",
  "promotion_code",
  "shipping_ngn",
  "total_ngn",
  "store_credit_ngn",
  "gift_card_ngn",
  "street",
  "city",
  "state",
  "country",
] as const;

const E = "admin.orders.export.errors.";

/** The filters from the export form's query, or the translation key of the first thing wrong with them. */
export function parseOrderExportFilters(params: URLSearchParams): { filters: OrderExportFilters } | { error: string } {
  const { filters, invalid } = parseOrderFilters(params);
  if (invalid.length) return { error: E + invalid[0] };
  return { filters: { from: filters.from ?? null, to: filters.to ?? null, status: filters.status ?? null, channel: filters.channel ?? null, payment: filters.payment ?? null } };
}

/** "2026-11-23 14:05" in Lagos time. */
function lagosStamp(iso: string): string {
  return new Date(new Date(iso).getTime() + 60 * 60 * 1000).toISOString().slice(0, 16).replace("T", " ");
}

const BATCH = 1000;

/** The VAT contained in each order's total, added as the last column when the shop's prices include VAT (docs/decisions/223). */
export const VAT_COLUMN = "vat_ngn";

/**
 * The CSV; `view` (docs/decisions/218): without `contact`, the e-mail and phone columns stay empty, and
 * without `prices`, so do the amounts. `vatIncluded` (VAT_INCLUDED) adds the VAT column.
 */
export async function exportOrdersCsv(
  db: Db,
  filters: OrderExportFilters,
  view: StaffView = { revenue: true, prices: true, contact: true },
  vatIncluded = false,
): Promise<string> {
  const rows: string[][] = [vatIncluded ? [...ORDER_EXPORT_COLUMNS, VAT_COLUMN] : [...ORDER_EXPORT_COLUMNS]];
  let afterId = 0;
  for (;;) {
    const orders = await filteredOrders(db, filters)
      .select(ORDER_COLUMNS)
      .where("o.id", ">", afterId)
      .orderBy("o.id")
      .limit(BATCH)
      .execute();
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
      // A guest order (docs/decisions/217) names its buyer itself.
      const customer = o.email ? [o.first_name, o.last_name].filter(Boolean).join(" ") : (o.customer_name ?? "");
      rows.push([
        o.number,
        lagosStamp(o.created_at),
        o.channel,
        o.status,
        o.payment_status,
        neutraliseFormula(customer),
        view.contact ? neutraliseFormula(o.email ?? o.guest_email ?? "") : "",
        // E.164 begins with "+": written as text ('+234…), so a spreadsheet neither computes nor drops it.
        view.contact ? neutraliseFormula(o.phone ?? "") : "",
        neutraliseFormula(lines.map((l) => `${l.quantity} x ${l.name}`).join("; ")),
        String(lines.reduce((n, l) => n + l.quantity, 0)),
        view.prices ? nairaCell(o.subtotal) : "",
        view.prices ? nairaCell(Number(o.discount ?? 0)) : "",
        neutraliseFormula(o.promotion_code ?? ""),
        view.prices ? nairaCell(o.shipping) : "",
        view.prices ? nairaCell(o.total) : "",
        // What store credit and a gift card paid of the total (docs/decisions/224); the card's code stays out: it spends.
        view.prices ? nairaCell(Number(o.store_credit ?? 0)) : "",
        view.prices ? nairaCell(Number(o.gift_card ?? 0)) : "",
        neutraliseFormula(o.ship_street ?? ""),
        neutraliseFormula(o.ship_city ?? ""),
        neutraliseFormula(o.ship_state ?? ""),
        neutraliseFormula(o.ship_country ?? ""),
        ...(vatIncluded ? [view.prices ? nairaCell(vatContained(o.total)) : ""] : []),
      ]);
    }
    if (orders.length < BATCH) break;
  }
  return toCsv(rows);
}

/** "unboxed-orders-from-2026-11-01-to-2026-11-30-delivered-paid.csv" */
export function orderExportFileName(filters: OrderExportFilters): string {
  const parts = ["unboxed-orders"];
  if (filters.from) parts.push(`from-${filters.from}`);
  if (filters.to) parts.push(`to-${filters.to}`);
  if (filters.status) parts.push(filters.status);
  if (filters.channel) parts.push(filters.channel);
  if (filters.payment) parts.push(filters.payment);
  if (parts.length === 1) parts.push(new Date().toISOString().slice(0, 10));
  return `${parts.join("-")}.csv`;
}
