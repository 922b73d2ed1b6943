import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { translatorFor } from "~/platform/translations.server";
import { onCatalogChange } from "./catalog.server";
import { createOrderFromLines, OrderError } from "../orders/orders.server";
import { adjustStock, parseStockAdjustment, STOCK_HISTORY_PAGE_SIZE, stockHistory, type StockAdjustmentInput } from "./stock-adjustments.server";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

describe("reading a stock adjustment", () => {
  it("takes a signed change or a new count, with a reason and an optional note", () => {
    expect(parseStockAdjustment(form({ reason: "received", mode: "change", amount: "+12", note: "  Delivery from Dubai " })).input).toEqual({
      reason: "received",
      change: 12,
      note: "Delivery from Dubai",
      expected: null,
    });
    expect(parseStockAdjustment(form({ reason: "damaged", amount: "-1" })).input).toEqual({ reason: "damaged", change: -1, note: null, expected: null });
    expect(parseStockAdjustment(form({ reason: "correction", mode: "count", amount: "7", seen: "10" })).input).toEqual({ reason: "correction", change: -3, note: null, expected: 10 });
  });

  it.each([
    [{ reason: "stolen", amount: "-1" }, { reason: "reason" }],
    [{ reason: "", amount: "-1" }, { reason: "reason" }],
    [{ reason: "received", amount: "0" }, { amount: "change" }],
    [{ reason: "received", amount: "1.5" }, { amount: "change" }],
    [{ reason: "received", amount: "twelve" }, { amount: "change" }],
    [{ reason: "received", amount: "" }, { amount: "change" }],
    [{ reason: "received", amount: "100001" }, { amount: "change" }],
    [{ reason: "received", amount: "1e3" }, { amount: "change" }],
    [{ reason: "received", amount: "-3" }, { amount: "receivedAdds" }],
    [{ reason: "damaged", amount: "+2" }, { amount: "damagedTakes" }],
    [{ reason: "correction", mode: "count", amount: "-4", seen: "3" }, { amount: "count" }],
    [{ reason: "correction", mode: "count", amount: "3", seen: "3" }, { amount: "sameCount" }],
    [{ reason: "correction", mode: "count", amount: "3" }, { amount: "stale" }],
    [{ reason: "damaged", mode: "count", amount: "9", seen: "3" }, { amount: "damagedTakes" }],
    [{ reason: "correction", amount: "+1", note: "x".repeat(301) }, { note: "note" }],
  ])("refuses %j with a translated message", (fields, expected) => {
    const parsed = parseStockAdjustment(form(fields as Record<string, string>));
    expect(parsed.input).toBeNull();
    const keys = Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, `admin.stock.errors.${v}`]));
    expect(parsed.errors).toEqual(keys);
    for (const key of Object.values(keys)) {
      expect(translatorFor("en")(key)).not.toContain("admin.");
      expect(translatorFor("es")(key)).not.toContain("admin.");
    }
  });
});

describe.each(ENGINES)("stock adjustments on %s", (engine) => {
  let t: TestDatabase;
  let admin: { id: number };
  let brandId: number;
  let categoryId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    admin = await addUser(t.db, "owner", "stock-owner@unboxed.example", "Bisi");
    brandId = (await addBrand(t.db)).id;
    categoryId = (await addCategory(t.db)).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const product = (stock: number, name?: string) => addProduct(t.db, { brandId, categoryId, stock, name });
  const stockOf = async (id: number) => (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
  const change = (c: number, reason: StockAdjustmentInput["reason"] = c > 0 ? "received" : "damaged", extra: Partial<StockAdjustmentInput> = {}): StockAdjustmentInput => ({
    reason,
    change: c,
    note: null,
    expected: null,
    ...extra,
  });

  it("adds received goods and takes damaged ones, keeping who, when, why, before and after, with an audit entry", async () => {
    const { id } = await product(5, "Baccarat Rouge 540");
    expect(await adjustStock(t.db, id, change(12, "received", { note: "Delivery from Dubai" }), admin.id)).toEqual({ ok: true, name: "Baccarat Rouge 540", before: 5, after: 17 });
    expect(await adjustStock(t.db, id, change(-1), admin.id)).toEqual({ ok: true, name: "Baccarat Rouge 540", before: 17, after: 16 });
    expect(await stockOf(id)).toBe(16);
    const history = await stockHistory(t.db, id);
    expect(history).toMatchObject({ total: 2, page: 1, pages: 1 });
    expect(history.entries).toEqual([
      { id: expect.any(Number), sizeLabel: null, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), actor: "Bisi Test", reason: "damaged", note: null, change: -1, before: 17, after: 16 },
      { id: expect.any(Number), sizeLabel: null, at: expect.any(String), actor: "Bisi Test", reason: "received", note: "Delivery from Dubai", change: 12, before: 5, after: 17 },
    ]);
    const audit = await t.db.selectFrom("audit_log").select(["actor_user_id", "action", "entity", "summary", "changes"]).where("entity_id", "=", id).where("entity", "=", "product").orderBy("id").execute();
    expect(audit.map((a) => ({ ...a, changes: JSON.parse(a.changes!) }))).toEqual([
      { actor_user_id: admin.id, action: "update", entity: "product", summary: "Baccarat Rouge 540", changes: { stock: [5, 17], stockReason: [null, "received"], stockNote: [null, "Delivery from Dubai"] } },
      { actor_user_id: admin.id, action: "update", entity: "product", summary: "Baccarat Rouge 540", changes: { stock: [17, 16], stockReason: [null, "damaged"] } },
    ]);
  });

  it("refuses to leave the stock below zero or above the maximum, writing nothing", async () => {
    const { id } = await product(2);
    expect(await adjustStock(t.db, id, change(-3), admin.id)).toEqual({ ok: false, error: "notEnough", stock: 2 });
    expect(await adjustStock(t.db, id, change(100_000), admin.id)).toEqual({ ok: false, error: "tooMuch", stock: 2 });
    expect(await adjustStock(t.db, 999_999, change(1), admin.id)).toEqual({ ok: false, error: "notFound" });
    expect(await stockOf(id)).toBe(2);
    expect((await stockHistory(t.db, id)).total).toBe(0);
    expect(await t.db.selectFrom("audit_log").select("id").where("entity_id", "=", id).where("entity", "=", "product").execute()).toEqual([]);
    expect(await adjustStock(t.db, id, change(-2), admin.id)).toMatchObject({ ok: true, after: 0 });
  });

  it("tells the page caches only the product's pages, unless it sold out or came back into stock (docs/decisions/205)", async () => {
    const heard: unknown[] = [];
    const stop = onCatalogChange((_where, scope) => heard.push(scope));
    try {
      const { id } = await product(3);
      await adjustStock(t.db, id, change(2), admin.id);
      await adjustStock(t.db, id, change(-4), admin.id);
      await adjustStock(t.db, id, change(-1), admin.id);
      await adjustStock(t.db, id, change(6), admin.id);
      // Refused: nothing changed, nothing told.
      await adjustStock(t.db, id, change(-7), admin.id);
      expect(heard).toEqual([{ ordered: [id] }, { ordered: [id] }, "anything", "anything"]);
    } finally {
      stop();
    }
  });

  it("applies a new count only against the stock it was counted from, so a sale meanwhile is not undone", async () => {
    const { id } = await product(10);
    // The owner opens the page at 10 and counts 7; a shopper buys 2 before the count is saved.
    await createOrderFromLines(t.db, { channel: "checkout", userId: null, lines: [{ productId: id, quantity: 2 }], takeFromStock: true });
    expect(await adjustStock(t.db, id, change(-3, "correction", { expected: 10 }), admin.id)).toEqual({ ok: false, error: "stale", stock: 8 });
    expect(await stockOf(id)).toBe(8);
    // Counted again against 8.
    expect(await adjustStock(t.db, id, change(-1, "correction", { expected: 8 }), admin.id)).toMatchObject({ ok: true, before: 8, after: 7 });
    expect(await stockOf(id)).toBe(7);
  });

  it("pages the history, newest first", async () => {
    const { id } = await product(0);
    for (let i = 1; i <= STOCK_HISTORY_PAGE_SIZE + 3; i++) await adjustStock(t.db, id, change(1, "received", { note: `box ${i}` }), admin.id);
    const first = await stockHistory(t.db, id, 1);
    expect(first).toMatchObject({ total: STOCK_HISTORY_PAGE_SIZE + 3, page: 1, pages: 2 });
    expect(first.entries).toHaveLength(STOCK_HISTORY_PAGE_SIZE);
    expect(first.entries[0]).toMatchObject({ note: `box ${STOCK_HISTORY_PAGE_SIZE + 3}`, before: STOCK_HISTORY_PAGE_SIZE + 2, after: STOCK_HISTORY_PAGE_SIZE + 3 });
    const second = await stockHistory(t.db, id, 2);
    expect(second.entries.map((e) => e.note)).toEqual(["box 3", "box 2", "box 1"]);
    // A page past the end shows the last one.
    expect((await stockHistory(t.db, id, 99)).page).toBe(2);
    // Another product's history is its own.
    const other = await product(4);
    expect((await stockHistory(t.db, other.id)).entries).toEqual([]);
  });

  it("keeps the stock exact when adjustments and checkouts happen at the same moment", async () => {
    const start = 20;
    const { id } = await product(start);
    const adjustments = Array.from({ length: 24 }, (_, i) => (i % 3 === 2 ? change(-2) : change(+3)));
    const orders = Array.from({ length: 30 }, (_, i) => 1 + (i % 3));
    const work: Promise<{ kind: "adjust"; change: number; ok: boolean } | { kind: "order"; quantity: number; ok: boolean }>[] = [];
    for (let i = 0; i < Math.max(adjustments.length, orders.length); i++) {
      if (i < orders.length) {
        const quantity = orders[i];
        work.push(
          createOrderFromLines(t.db, { channel: "checkout", userId: null, lines: [{ productId: id, quantity }], takeFromStock: true }).then(
            () => ({ kind: "order" as const, quantity, ok: true }),
            (error) => {
              if (!(error instanceof OrderError)) throw error;
              return { kind: "order" as const, quantity, ok: false };
            },
          ),
        );
      }
      if (i < adjustments.length) {
        const input = adjustments[i];
        work.push(adjustStock(t.db, id, input, admin.id).then((r) => ({ kind: "adjust" as const, change: input.change, ok: r.ok })));
      }
    }
    const results = await Promise.all(work);
    const adjusted = results.reduce((sum, r) => sum + (r.kind === "adjust" && r.ok ? r.change : 0), 0);
    const sold = results.reduce((sum, r) => sum + (r.kind === "order" && r.ok ? r.quantity : 0), 0);
    expect(results.filter((r) => r.kind === "order" && r.ok).length).toBeGreaterThan(0);
    expect(results.filter((r) => r.kind === "adjust" && r.ok).length).toBeGreaterThan(0);
    const final = await stockOf(id);
    expect(final).toBe(start + adjusted - sold);
    expect(final).toBeGreaterThanOrEqual(0);
    // What was sold is what the orders hold.
    const items = await t.db.selectFrom("order_items").select("quantity").where("product_id", "=", id).execute();
    expect(items.reduce((sum, i) => sum + i.quantity, 0)).toBe(sold);
    // Every history row is one adjustment as applied: after = before + change, never below zero.
    const history = (await stockHistory(t.db, id, 1)).entries.concat((await stockHistory(t.db, id, 2)).entries);
    expect(history.length).toBe(results.filter((r) => r.kind === "adjust" && r.ok).length);
    for (const e of history) {
      expect(e.after).toBe(e.before + e.change);
      expect(e.after).toBeGreaterThanOrEqual(0);
    }
    expect(history.reduce((sum, e) => sum + e.change, 0)).toBe(adjusted);
  });
});
