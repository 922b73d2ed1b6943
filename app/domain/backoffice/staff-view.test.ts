import { describe, expect, it } from "vitest";
import type { AdminOrderDetail } from "../orders/admin-orders.server";
import type { CustomerDetail } from "./customers.server";
import type { InvoiceView } from "../orders/invoice.server";
import { customerFor, customerRowsFor, invoiceFor, orderDetailFor, staffView, type StaffView } from "./staff-view.server";

// What a role may not see is taken out of the data itself (docs/decisions/218): the customer's e-mail
// and phone number go together, wherever they are shown or printed.

const PHONE = "+2348031234567";
const noContact: StaffView = { revenue: true, prices: true, contact: false };

describe("staff view of customers' contact details", () => {
  it("gives each role the contact details its permission allows", () => {
    expect(staffView("fulfilment").contact).toBe(false);
    expect(staffView("support").contact).toBe(true);
    expect(staffView("manager").contact).toBe(true);
  });

  it("takes the phone number with the e-mail off an order page, a printed slip and a customer's page", () => {
    const order = { total: 100, subtotal: 100, shipping: 0, customerEmail: "a@example.com", phone: PHONE, items: [], paymentReference: "x" } as unknown as AdminOrderDetail;
    expect(orderDetailFor(order, noContact)).toMatchObject({ customerEmail: null, phone: null, total: 100 });
    expect(orderDetailFor(order, { ...noContact, contact: true })).toMatchObject({ customerEmail: "a@example.com", phone: PHONE });

    const invoice = { customer: { name: "Ngozi", email: "a@example.com" }, phone: PHONE, items: [], subtotal: 1, shipping: 0, total: 1 } as unknown as InvoiceView;
    expect(invoiceFor(invoice, noContact)).toMatchObject({ customer: { name: "Ngozi", email: "" }, phone: null });
    expect(invoiceFor(invoice, { ...noContact, prices: false })).toMatchObject({ phone: null, total: 0 });
    expect(invoiceFor(invoice, staffView("owner"))).toMatchObject({ phone: PHONE });

    const customer = { id: 1, email: "a@example.com", phone: PHONE, name: "Ngozi" } as unknown as CustomerDetail;
    expect(customerFor(customer, noContact)).toMatchObject({ email: "", phone: null, name: "Ngozi" });
    expect(customerFor(customer, staffView("support"))).toMatchObject({ email: "a@example.com", phone: PHONE });
    expect(customerRowsFor([{ id: 1, email: "a@example.com" }], noContact)).toEqual([{ id: 1, email: "" }]);
  });
});
