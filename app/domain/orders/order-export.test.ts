import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { translatorFor } from "~/platform/translations.server";
import { exportOrdersCsv, ORDER_EXPORT_COLUMNS, orderExportFileName, parseOrderExportFilters } from "./order-export.server";

const filters = (query: string) => {
  const parsed = parseOrderExportFilters(new URLSearchParams(query));
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.filters;
};

describe.each(ENGINES)("orders export on %s", (engine) => {
  let t: TestDatabase;
  const rowsOf = async (query: string) => parse(await exportOrdersCsv(t.db, filters(query)), { bom: true, columns: true }) as Record<string, string>[];

  beforeAll(async () => {
    t = await freshDatabase(engine);
    const customer = await addUser(t.db, "customer", "=cmd@example.com", "@Ngozi");
    const [oud, rose] = await makeProducts(t.db, [
      { name: "Oud, Wood 50ml", price: 2_900_050, stock: 20 },
      { name: "Rose \"Noir\"", price: 1_000_000, stock: 20 },
    ]);
    // 31 October 23:30 UTC is already 1 November in Lagos (UTC+1).
    await insertOrder(t.db, { number: "UB-1", userId: customer.id, phone: "+2348031234567", items: [{ productId: oud, quantity: 2 }, { productId: rose, quantity: 1 }], createdAt: "2026-10-31T23:30:00.000Z" });
    await insertOrder(t.db, { number: "UB-2", items: [{ productId: rose, quantity: 1 }], channel: "whatsapp", status: "cancelled", createdAt: "2026-10-31T22:59:00.000Z", address: null });
    await insertOrder(t.db, { number: "UB-3", userId: customer.id, items: [{ productId: rose, quantity: 3 }], status: "delivered", createdAt: "2026-11-30T22:59:59.000Z" });
    await insertOrder(t.db, { number: "UB-4", userId: customer.id, items: [{ productId: rose, quantity: 1 }], createdAt: "2026-11-30T23:00:00.000Z" });
    // A code the owner wrote as a formula is written as text.
    await insertOrder(t.db, { number: "UB-5", items: [{ productId: rose, quantity: 3 }], discount: 450_000, promotionCode: "=SAVE15", createdAt: "2026-12-02T10:00:00.000Z" });
    // Part paid by a gift card and the account's store credit (docs/decisions/224).
    await insertOrder(t.db, { number: "UB-6", userId: customer.id, items: [{ productId: rose, quantity: 2 }], storeCredit: 250_000, giftCard: 1_000_000, giftCardCode: "GIFTABCDEFGH2345", createdAt: "2026-12-03T10:00:00.000Z" });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("writes one row per order with naira amounts, Lagos dates and formulas neutralised", async () => {
    const csv = await exportOrdersCsv(t.db, filters(""));
    expect(csv.startsWith("\uFEFF" + ORDER_EXPORT_COLUMNS.join(",") + "\r\n")).toBe(true);
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.order)).toEqual(["UB-1", "UB-2", "UB-3", "UB-4", "UB-5", "UB-6"]);
    expect(rows[0]).toMatchObject({
      date: "2026-11-01 00:30",
      channel: "checkout",
      status: "pending",
      payment: "unpaid",
      customer: "'@Ngozi Test",
      email: "'=cmd@example.com",
      phone: "'+2348031234567",
      items: '2 x Oud, Wood 50ml; 1 x Rose "Noir"',
      quantity: "3",
      subtotal_ngn: "68001.00",
      shipping_ngn: "0.00",
      total_ngn: "68001.00",
      city: "Lekki",
    });
    expect(rows[1]).toMatchObject({ date: "2026-10-31 23:59", customer: "", email: "", phone: "", street: "", status: "cancelled", total_ngn: "10000.00" });
  });

  it("writes the discount and its code, and the VAT column only when the shop's prices include VAT", async () => {
    const discounted = await exportOrdersCsv(t.db, filters("from=2026-12-02&to=2026-12-02"));
    const [row] = parse(discounted, { bom: true, columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({ order: "UB-5", subtotal_ngn: "30000.00", discount_ngn: "4500.00", promotion_code: "'=SAVE15", total_ngn: "25500.00" });
    expect(row).not.toHaveProperty("vat_ngn");
    const withVat = parse(await exportOrdersCsv(t.db, filters("from=2026-12-02&to=2026-12-02"), undefined, true), { bom: true, columns: true }) as Record<string, string>[];
    // 2,550,000 kobo × 7.5 / 107.5 = 177,906.98 → ₦1,779.07
    expect(withVat[0]).toMatchObject({ order: "UB-5", total_ngn: "25500.00", vat_ngn: "1779.07" });
    const hidden = parse(await exportOrdersCsv(t.db, filters("from=2026-12-02&to=2026-12-02"), { revenue: false, prices: false, contact: false }, true), { bom: true, columns: true }) as Record<string, string>[];
    expect(hidden[0]).toMatchObject({ discount_ngn: "", vat_ngn: "", total_ngn: "" });
    // An order without a code: nothing off.
    expect((await rowsOf("from=2026-11-01&to=2026-11-01"))[0]).toMatchObject({ discount_ngn: "0.00", promotion_code: "" });
  });

  it("writes what store credit and a gift card paid of each order, never the card's code, and nothing of it to a role without prices", async () => {
    const csv = await exportOrdersCsv(t.db, filters("from=2026-12-03&to=2026-12-03"));
    const [row] = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({ order: "UB-6", subtotal_ngn: "20000.00", total_ngn: "20000.00", store_credit_ngn: "2500.00", gift_card_ngn: "10000.00" });
    // The code spends: whoever reads the accountant's file must not be able to.
    expect(csv).not.toContain("GIFTABCDEFGH2345");
    expect((await rowsOf("from=2026-12-02&to=2026-12-02"))[0]).toMatchObject({ store_credit_ngn: "0.00", gift_card_ngn: "0.00" });
    const hidden = parse(await exportOrdersCsv(t.db, filters("from=2026-12-03&to=2026-12-03"), { revenue: false, prices: false, contact: false }), { bom: true, columns: true }) as Record<string, string>[];
    expect(hidden[0]).toMatchObject({ store_credit_ngn: "", gift_card_ngn: "" });
  });

  it("leaves the e-mail and phone columns empty for a role without customers' contact details, and the amounts for one without prices", async () => {
    const csv = await exportOrdersCsv(t.db, filters(""), { revenue: false, prices: false, contact: false });
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({ order: "UB-1", customer: "'@Ngozi Test", email: "", phone: "", subtotal_ngn: "", total_ngn: "", city: "Lekki" });
    expect(csv).not.toContain("8031234567");
    expect(csv).not.toContain("cmd@example.com");
  });

  it("keeps the days of a range in Lagos time, both ends included, and filters by status", async () => {
    expect((await rowsOf("from=2026-11-01&to=2026-11-30")).map((r) => r.order)).toEqual(["UB-1", "UB-3"]);
    expect((await rowsOf("from=2026-10-31&to=2026-10-31")).map((r) => r.order)).toEqual(["UB-2"]);
    expect((await rowsOf("from=2026-12-01&to=2026-12-01")).map((r) => r.order)).toEqual(["UB-4"]);
    expect((await rowsOf("status=delivered")).map((r) => r.order)).toEqual(["UB-3"]);
    // Dates the wrong way round mean the days between them.
    expect((await rowsOf("from=2026-11-30&to=2026-11-01")).map((r) => r.order)).toEqual(["UB-1", "UB-3"]);
    expect(await rowsOf("from=2027-01-01")).toEqual([]);
    expect(orderExportFileName(filters("from=2026-11-01&to=2026-11-30&status=delivered"))).toBe("unboxed-orders-from-2026-11-01-to-2026-11-30-delivered.csv");
  });

  it.each([
    ["from=yesterday", "from"],
    ["from=2026-02-30", "from"],
    ["to=2026-13-01", "to"],
    ["to=20261101", "to"],
    ["status=lost", "status"],
    ["payment=owed", "payment"],
    ["channel=phone", "channel"],
  ])("refuses %s with a translated message", (query, key) => {
    const parsed = parseOrderExportFilters(new URLSearchParams(query));
    expect(parsed).toEqual({ error: `admin.orders.export.errors.${key}` });
    if (!("error" in parsed)) return;
    expect(translatorFor("en")(parsed.error)).not.toContain("admin.");
    expect(translatorFor("es")(parsed.error)).not.toContain("admin.");
  });
});
