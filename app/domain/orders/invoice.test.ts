import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../../tests/support/catalogue";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { insertOrder } from "../../../tests/support/orders";
import { qrPath } from "~/platform/qr.server";
import { invoiceForAdmin, invoiceForCustomer, invoiceOptions } from "./invoice.server";

describe("QR code of an order number", () => {
  it("draws one 1x1 square per dark module, inside a 4-module quiet zone", () => {
    const { modules } = QRCode.create("UB-10042", { errorCorrectionLevel: "M" });
    const { size, d } = qrPath("UB-10042");
    expect(size).toBe(modules.size + 8);
    let dark = 0;
    for (let r = 0; r < modules.size; r++) for (let c = 0; c < modules.size; c++) if (modules.get(r, c)) dark++;
    expect(d.match(/h1v1h-1z/g)).toHaveLength(dark);
    // The finder pattern's corner is the first module.
    expect(d.startsWith("M4 4h1v1h-1z")).toBe(true);
    expect(qrPath("UB-10043").d).not.toBe(d);
  });
});

describe.each(ENGINES)("invoices on %s", (engine) => {
  let t: TestDatabase;
  let owner: number;
  let stranger: number;
  let number: string;
  let product: number;
  let rose: number;
  const config = () => testContext(t).config;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    owner = (await addUser(t.db, "customer", `ada-${engine}@example.com`, "Ada")).id;
    stranger = (await addUser(t.db, "customer")).id;
    const [oud, rosePerfume] = await makeProducts(t.db, [
      { name: "Oud Wood 50ml", price: 2_900_050, stock: 10 },
      { name: "Rose Noir", price: 1_000_000, stock: 10 },
    ]);
    product = oud;
    rose = rosePerfume;
    number = (await insertOrder(t.db, { userId: owner, phone: "+2348031234567", items: [{ productId: oud, quantity: 2 }, { productId: rosePerfume, quantity: 1 }] })).number;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("shows the shop, the customer, the address, the items and totals as recorded, and the QR of the number", async () => {
    const invoice = await invoiceForAdmin(t.db, config(), number);
    expect(invoice).toMatchObject({
      number,
      customer: { name: "Ada Test", email: `ada-${engine}@example.com` },
      address: { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" },
      phone: "+2348031234567",
      items: [
        { name: "Oud Wood 50ml", unitPrice: 2_900_050, quantity: 2, lineTotal: 5_800_100 },
        { name: "Rose Noir", unitPrice: 1_000_000, quantity: 1, lineTotal: 1_000_000 },
      ],
      subtotal: 6_800_100,
      total: 6_800_100,
      payment: { status: "unpaid", method: null, paidAt: null },
      shop: { name: "Unboxed", email: "hello@unboxed.example", address: "shop.test" },
    });
    expect(invoice!.qr).toEqual(qrPath(number));
  });

  it("carries how the order was paid, for the line the invoice prints", async () => {
    const paidAt = "2026-03-10T09:00:00.000Z";
    const paid = await insertOrder(t.db, { userId: owner, paymentMethod: "paystack", paidAt, items: [{ productId: product, quantity: 1 }] });
    expect((await invoiceForAdmin(t.db, config(), paid.number))?.payment).toEqual({ status: "paid", method: "paystack", paidAt });
    // An order from before numbers were asked has none.
    expect((await invoiceForAdmin(t.db, config(), paid.number))?.phone).toBeNull();
  });

  it("shows a discount code's line and, only when the shop's prices include VAT, the VAT inside the total", async () => {
    // ₦10,000 of goods less ₦1,500 (SAVE15): ₦8,500; its VAT at 7.5 % inside: 8,500 × 7.5 / 107.5 = ₦593.02 (59,302.3 kobo).
    const coded = await insertOrder(t.db, { userId: owner, items: [{ productId: rose, quantity: 1 }], discount: 150_000, promotionCode: "SAVE15" });
    const plain = await invoiceForAdmin(t.db, config(), coded.number);
    expect(plain).toMatchObject({ subtotal: 1_000_000, discount: 150_000, promotionCode: "SAVE15", total: 850_000, vat: null });
    const registered = { ...config(), shop: { ...config().shop, vatIncluded: true } };
    expect((await invoiceForAdmin(t.db, registered, coded.number))?.vat).toBe(59_302);
    // An order without a code shows no discount.
    expect(await invoiceForAdmin(t.db, config(), number)).toMatchObject({ discount: 0, promotionCode: null });
  });

  it("gives a customer only their own orders", async () => {
    expect(await invoiceForCustomer(t.db, config(), owner, number)).not.toBeNull();
    expect(await invoiceForCustomer(t.db, config(), stranger, number)).toBeNull();
    expect(await invoiceForAdmin(t.db, config(), "UB-0")).toBeNull();
  });

  it("reads the document and paper from the address, anything else meaning the invoice on A4", () => {
    expect(invoiceOptions(new URL("http://x/?doc=slip&paper=receipt"))).toEqual({ kind: "slip", paper: "receipt" });
    expect(invoiceOptions(new URL("http://x/?doc=<script>&paper=letter"))).toEqual({ kind: "invoice", paper: "a4" });
  });
});
