import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { listAdminOrders, parseOrderFilters } from "./admin-orders.server";
import { exportOrdersCsv, orderExportFileName, parseOrderExportFilters } from "./order-export.server";

describe("reading the order filters of a URL", () => {
  it("keeps our values, names the others, and puts a reversed range the right way round", () => {
    expect(parseOrderFilters(new URLSearchParams("status=shipped&channel=whatsapp&payment=refunded&q=%20UB-1%20&from=2026-11-30&to=2026-11-01"))).toEqual({
      filters: { status: "shipped", channel: "whatsapp", payment: "refunded", q: "UB-1", from: "2026-11-01", to: "2026-11-30" },
      invalid: [],
    });
    expect(parseOrderFilters(new URLSearchParams("status=lost&channel=fax&payment=maybe&from=2026-02-30&to=x"))).toEqual({
      filters: { status: null, channel: null, payment: null, q: "", from: null, to: null },
      invalid: ["status", "channel", "payment", "from", "to"],
    });
    // Empty fields (a form sent with "any") are no filter at all.
    expect(parseOrderFilters(new URLSearchParams("status=&channel=&payment="))).toEqual({
      filters: { status: null, channel: null, payment: null, q: "", from: null, to: null },
      invalid: [],
    });
    expect(parseOrderExportFilters(new URLSearchParams("payment=PAID"))).toEqual({ error: "admin.orders.export.errors.payment" });
    expect(parseOrderExportFilters(new URLSearchParams("channel=fax"))).toEqual({ error: "admin.orders.export.errors.channel" });
  });
});

describe.each(ENGINES)("one order filter for the list and the export on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const ada = await addUser(t.db, "customer", "ada@example.com", "Ada");
    const bola = await addUser(t.db, "customer", "bola@example.com", "Bola");
    const [p] = await makeProducts(t.db, [{ name: "Oud 50ml", price: 1_000_000, stock: 100 }]);
    const item = [{ productId: p, quantity: 1 }];
    await insertOrder(t.db, { number: "UB-81001", userId: ada.id, items: item, paymentStatus: "unpaid", createdAt: "2026-11-01T09:00:00.000Z" });
    await insertOrder(t.db, { number: "UB-81002", userId: ada.id, items: item, status: "delivered", paidAt: "2026-11-02T10:00:00.000Z", createdAt: "2026-11-02T09:00:00.000Z" });
    await insertOrder(t.db, { number: "UB-81003", userId: bola.id, items: item, status: "confirmed", paymentStatus: "refunded", createdAt: "2026-11-03T09:00:00.000Z" });
    await insertOrder(t.db, { number: "UB-81004", userId: null, items: item, channel: "whatsapp", paidAt: "2026-11-04T10:00:00.000Z", createdAt: "2026-11-04T09:00:00.000Z", address: null });
    await insertOrder(t.db, { number: "UB-81005", userId: bola.id, items: item, channel: "whatsapp", createdAt: "2026-11-05T09:00:00.000Z" });
  });
  afterAll(async () => {
    await t?.drop();
  });

  const listed = async (query: string) => {
    const { filters } = parseOrderFilters(new URLSearchParams(query));
    return (await listAdminOrders(t.db, filters)).orders.map((o) => o.number).sort();
  };
  const exported = async (query: string) => {
    const parsed = parseOrderExportFilters(new URLSearchParams(query));
    if ("error" in parsed) throw new Error(parsed.error);
    const rows = parse(await exportOrdersCsv(t.db, parsed.filters), { bom: true, columns: true }) as Record<string, string>[];
    return rows;
  };

  it.each([
    ["payment=unpaid", ["UB-81001", "UB-81005"]],
    ["payment=paid", ["UB-81002", "UB-81004"]],
    ["payment=refunded", ["UB-81003"]],
    ["payment=paid&channel=whatsapp", ["UB-81004"]],
    ["payment=paid&status=delivered", ["UB-81002"]],
    ["payment=unpaid&channel=checkout&status=pending", ["UB-81001"]],
    ["payment=paid&from=2026-11-03", ["UB-81004"]],
    ["payment=refunded&status=pending", []],
    ["", ["UB-81001", "UB-81002", "UB-81003", "UB-81004", "UB-81005"]],
  ])("%s picks the same orders in the list and in the export", async (query, expected) => {
    expect(await listed(query)).toEqual(expected);
    expect((await exported(query)).map((r) => r.order).sort()).toEqual(expected);
  });

  it("combines the payment filter with the search, and writes each order's payment status in the export", async () => {
    expect(await listed("payment=unpaid&q=bola@")).toEqual(["UB-81005"]);
    expect(await listed("payment=paid&q=ada@")).toEqual(["UB-81002"]);
    const rows = await exported("from=2026-11-01&to=2026-11-05");
    expect(Object.fromEntries(rows.map((r) => [r.order, r.payment]))).toEqual({
      "UB-81001": "unpaid",
      "UB-81002": "paid",
      "UB-81003": "refunded",
      "UB-81004": "paid",
      "UB-81005": "unpaid",
    });
    expect(orderExportFileName({ from: "2026-11-01", to: null, status: null, channel: "whatsapp", payment: "paid" })).toBe("unboxed-orders-from-2026-11-01-whatsapp-paid.csv");
  });
});
