import type { Db } from "~/db/client.server";
import type { StockReason } from "~/db/schema";
import { MAX_STOCK_NOTE, STOCK_REASONS } from "~/lib/admin";
import { recordAudit } from "../backoffice/audit.server";
import { MAX_STOCK } from "./admin-products.server";
import { type CatalogScope, catalogChanged, stockMovedScope } from "./catalog.server";
import { resolveSize, sizedName } from "./product-sizes.server";

/**
 * The owner's stock adjustments: goods received, bottles damaged, a count corrected. Each is applied as
 * a relative update (`stock = stock + change`) in one transaction with its history row and its audit
 * entry, so a sale happening at the same moment is never overwritten, and the stock never goes below
 * zero. A new count ("there are 7 on the shelf") is the change from the stock the owner saw, applied
 * only if the stock is still that: if a sale came in meanwhile, the owner is asked to count again.
 * Orders taking stock and cancellations putting it back are not written here (docs/decisions/118).
 */

export { MAX_STOCK_NOTE, STOCK_REASONS };
export const STOCK_HISTORY_PAGE_SIZE = 20;

export function isStockReason(value: unknown): value is StockReason {
  return typeof value === "string" && (STOCK_REASONS as string[]).includes(value);
}

export type StockField = "reason" | "amount" | "note";
export type StockErrors = Partial<Record<StockField, string>>;

export interface StockAdjustmentInput {
  reason: StockReason;
  /** signed, never 0 */
  change: number;
  note: string | null;
  /** a new count: the stock the change was computed from, which must still hold */
  expected: number | null;
  /** the size adjusted (docs/decisions/121); absent or null: the product's first size */
  sizeId?: number | null;
}

const E = "admin.stock.errors.";
const SIGNED = /^[+-]?\d{1,7}$/;
const COUNT = /^\d{1,7}$/;

/**
 * Reads the adjustment form: a reason, a signed change ("+12", "-1") or a new count ("7", with the
 * stock the page showed), and an optional note. Received goods add, damaged ones take away, a
 * correction may go either way.
 */
export function parseStockAdjustment(form: FormData): { input: StockAdjustmentInput | null; errors: StockErrors; values: Record<StockField | "mode", string> } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const values = { reason: text("reason").trim(), mode: text("mode") === "count" ? "count" : "change", amount: text("amount").trim().replace(/\s/g, "").slice(0, 20), note: text("note").trim().slice(0, MAX_STOCK_NOTE + 50) };
  const errors: StockErrors = {};
  if (!isStockReason(values.reason)) errors.reason = E + "reason";
  let change: number | null = null;
  let expected: number | null = null;
  if (values.mode === "count") {
    const seen = text("seen").trim();
    if (!COUNT.test(values.amount) || Number(values.amount) > MAX_STOCK) errors.amount = E + "count";
    else if (!COUNT.test(seen)) errors.amount = E + "stale";
    else {
      expected = Number(seen);
      change = Number(values.amount) - expected;
      if (change === 0) errors.amount = E + "sameCount";
    }
  } else if (!SIGNED.test(values.amount) || Number(values.amount) === 0 || Math.abs(Number(values.amount)) > MAX_STOCK) {
    errors.amount = E + "change";
  } else {
    change = Number(values.amount);
  }
  if (change !== null && !errors.amount && !errors.reason) {
    if (values.reason === "received" && change < 0) errors.amount = E + "receivedAdds";
    if (values.reason === "damaged" && change > 0) errors.amount = E + "damagedTakes";
  }
  if (values.note.length > MAX_STOCK_NOTE) errors.note = E + "note";
  const size = text("sizeId").trim();
  const sizeId = /^[1-9]\d{0,9}$/.test(size) && Number(size) <= 2_147_483_647 ? Number(size) : null;
  if (size !== "" && sizeId === null) errors.amount = E + "size";
  if (Object.keys(errors).length || change === null) return { input: null, errors, values };
  return { input: { reason: values.reason as StockReason, change, note: values.note || null, expected, ...(sizeId !== null ? { sizeId } : {}) }, errors, values };
}

export type AdjustStockResult =
  | { ok: true; name: string; before: number; after: number }
  | { ok: false; error: "notFound" }
  /** the stock is not what the new count was made against */
  | { ok: false; error: "stale"; stock: number }
  /** taking this many would leave less than nothing */
  | { ok: false; error: "notEnough"; stock: number }
  | { ok: false; error: "tooMuch"; stock: number };

/**
 * Applies one adjustment to one size (docs/decisions/121): the relative update, its history row and its
 * audit entry, or nothing at all. The product's stock (the sum of its sizes) follows by trigger.
 */
export async function adjustStock(db: Db, productId: number, input: StockAdjustmentInput, actorId: number): Promise<AdjustStockResult> {
  let changed: CatalogScope = "anything";
  const result = await db.transaction().execute(async (trx): Promise<AdjustStockResult> => {
    const at = new Date().toISOString();
    // The product's row first, then the size's, as every writer of sizes does (no deadlock on
    // PostgreSQL); on SQLite this takes the write lock before any read, so a busy database cannot fail it.
    await trx.updateTable("products").set({ updated_at: at }).where("id", "=", productId).execute();
    const product = await trx.selectFrom("products").select("name").where("id", "=", productId).executeTakeFirst();
    if (!product) return { ok: false, error: "notFound" };
    const sizes = await trx.selectFrom("product_sizes").select((eb) => eb.fn.countAll<number>().as("n")).where("product_id", "=", productId).executeTakeFirstOrThrow();
    const size = input.sizeId == null ? await resolveFirstSize(trx, productId) : await resolveSize(trx, productId, input.sizeId);
    if (!size) return { ok: false, error: "notFound" };
    let update = trx
      .updateTable("product_sizes")
      .set((eb) => ({ stock: eb("stock", "+", input.change), updated_at: at }))
      .where("id", "=", size.id);
    // Conditions of the update itself, so they hold whatever else changes the row at the same moment.
    if (input.change < 0) update = update.where("stock", ">=", -input.change);
    else update = update.where("stock", "<=", MAX_STOCK - input.change);
    if (input.expected !== null) update = update.where("stock", "=", input.expected);
    const updated = await update.returning(["stock"]).executeTakeFirst();
    if (!updated) {
      const current = await trx.selectFrom("product_sizes").select("stock").where("id", "=", size.id).executeTakeFirst();
      if (!current) return { ok: false, error: "notFound" };
      if (input.expected !== null && current.stock !== input.expected) return { ok: false, error: "stale", stock: current.stock };
      return { ok: false, error: input.change < 0 ? "notEnough" : "tooMuch", stock: current.stock };
    }
    const after = Number(updated.stock);
    const before = after - input.change;
    changed = await stockMovedScope(trx, new Map([[productId, input.change]]));
    const sizeLabel = Number(sizes.n) > 1 ? size.label : null;
    await trx
      .insertInto("stock_adjustments")
      .values({
        product_id: productId,
        size_id: size.id,
        size_label: sizeLabel,
        actor_user_id: actorId,
        reason: input.reason,
        note: input.note,
        change: input.change,
        stock_before: before,
        stock_after: after,
        created_at: at,
      })
      .execute();
    const name = sizedName(product.name, sizeLabel);
    await recordAudit(trx, {
      actorId,
      action: "update",
      entity: "product",
      entityId: productId,
      summary: name,
      changes: { stock: [before, after], stockReason: [null, input.reason], ...(input.note ? { stockNote: [null, input.note] } : {}), ...(sizeLabel ? { size: [null, sizeLabel] } : {}) },
    });
    return { ok: true, name, before, after };
  });
  // The product's own page shows its stock, and every card of it whether it is in stock: a count that
  // leaves it in stock changes the pages an order of it would (docs/decisions/205).
  if (result.ok) catalogChanged("here", changed);
  return result;
}

/** The product's first size, in the owner's order (what a form without a size means). */
async function resolveFirstSize(db: Parameters<typeof resolveSize>[0], productId: number) {
  const first = await db.selectFrom("product_sizes").select("id").where("product_id", "=", productId).orderBy("position").orderBy("id").executeTakeFirst();
  return first ? resolveSize(db, productId, first.id) : null;
}

export interface StockHistoryEntry {
  id: number;
  /** the size adjusted, when the product has several */
  sizeLabel: string | null;
  at: string;
  /** the admin's name (or e-mail); null once their account is gone */
  actor: string | null;
  reason: StockReason;
  note: string | null;
  change: number;
  before: number;
  after: number;
}

/** A product's adjustments, newest first, paged. */
export async function stockHistory(
  db: Db,
  productId: number,
  page = 1,
): Promise<{ entries: StockHistoryEntry[]; total: number; page: number; pages: number }> {
  const { n } = await db
    .selectFrom("stock_adjustments")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("product_id", "=", productId)
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / STOCK_HISTORY_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const rows = await db
    .selectFrom("stock_adjustments as s")
    .leftJoin("users as u", "u.id", "s.actor_user_id")
    .select(["s.id", "s.size_label", "s.created_at", "s.reason", "s.note", "s.change", "s.stock_before", "s.stock_after", "u.first_name", "u.last_name", "u.email"])
    .where("s.product_id", "=", productId)
    .orderBy("s.id", "desc")
    .limit(STOCK_HISTORY_PAGE_SIZE)
    .offset((current - 1) * STOCK_HISTORY_PAGE_SIZE)
    .execute();
  return {
    total,
    page: current,
    pages,
    entries: rows.map((r) => ({
      id: r.id,
      sizeLabel: r.size_label,
      at: r.created_at,
      actor: r.email ? `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() || r.email : null,
      reason: r.reason,
      note: r.note,
      change: Number(r.change),
      before: Number(r.stock_before),
      after: Number(r.stock_after),
    })),
  };
}
