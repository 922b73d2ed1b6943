import type { Role } from "~/db/schema";
import type { AdminOrderDetail, AdminOrderRow } from "../orders/admin-orders.server";
import type { CustomerDetail, GuestCustomerDetail } from "./customers.server";
import type { Dashboard } from "./dashboard.server";
import type { InvoiceView } from "../orders/invoice.server";
import { can } from "./permissions.server";

/**
 * What a staff role may see of money and of customers (docs/decisions/218), applied to the data
 * before it leaves the server: a figure the role may not see is not sent at all (zero, or null for a
 * contact detail), and the screen, told by `view`, leaves its place out rather than show the zero.
 */
export interface StaffView {
  /** takings and the revenue chart */
  revenue: boolean;
  /** prices, totals and payments */
  prices: boolean;
  /** customers' e-mail addresses and phone numbers */
  contact: boolean;
}

export function staffView(role: Role): StaffView {
  return { revenue: can(role, "revenue"), prices: can(role, "prices"), contact: can(role, "customers.contact") };
}

/** An order list's rows as the role may see them. */
export function orderRowsFor<T extends Pick<AdminOrderRow, "total" | "customerEmail">>(rows: T[], view: StaffView): T[] {
  return rows.map((row) => ({ ...row, total: view.prices ? row.total : 0, customerEmail: view.contact ? row.customerEmail : null }));
}

/** One order as the role may see it: without contact, no e-mail or phone; without prices, its lines, totals and payment reference go. */
export function orderDetailFor(order: AdminOrderDetail, view: StaffView): AdminOrderDetail {
  const [row] = orderRowsFor([order], view);
  const shown = view.contact ? row : { ...row, phone: null };
  if (view.prices) return shown;
  return {
    ...shown,
    subtotal: 0,
    discount: 0,
    shipping: 0,
    storeCredit: 0,
    giftCard: 0,
    paymentReference: null,
    items: order.items.map((item) => ({ ...item, unitPrice: 0, lineTotal: 0 })),
  };
}

/** The dashboard as the role may see it: without revenue, no takings; without prices, no order totals. */
export function dashboardFor(dashboard: Dashboard, view: StaffView): Dashboard {
  const period = (p: Dashboard["today"]) => (view.revenue ? p : { ...p, revenue: 0 });
  return {
    ...dashboard,
    today: period(dashboard.today),
    week: period(dashboard.week),
    month: period(dashboard.month),
    daily: view.revenue ? dashboard.daily : [],
    latest: dashboard.latest.map((o) => ({ ...o, total: view.prices ? o.total : 0, customer: view.contact ? o.customer : null })),
  };
}

/** The orders waiting on the dashboard, as the role may see them. */
export function waitingFor<T extends { total: number; customer: string | null }>(rows: T[], view: StaffView): T[] {
  return rows.map((o) => ({ ...o, total: view.prices ? o.total : 0, customer: view.contact ? o.customer : null }));
}

/** A customer's page as the role may see it: without contact, no e-mail address or phone number. */
export function customerFor(customer: CustomerDetail, view: StaffView): CustomerDetail {
  return view.contact ? customer : { ...customer, email: "", phone: null };
}

/** A customers list's rows as the role may see them: without contact, no e-mail address or phone number. */
export function customerRowsFor<T extends { email: string; phone?: string | null }>(rows: T[], view: StaffView): T[] {
  return view.contact ? rows : rows.map((row) => ({ ...row, email: "", ...("phone" in row ? { phone: null } : {}) }));
}

/** A guest's page as the role may see it: without contact, no e-mail address or phone number; without prices, no totals. */
export function guestCustomerFor(guest: GuestCustomerDetail, view: StaffView): GuestCustomerDetail {
  const shown = view.contact ? guest : { ...guest, email: "", phones: [] };
  return view.prices ? shown : { ...shown, spent: 0, recentOrders: shown.recentOrders.map((o) => ({ ...o, total: 0 })) };
}

/** A printed document as the role may see it: without prices, no money; without contact, no e-mail. */
export function invoiceFor(invoice: InvoiceView, view: StaffView): InvoiceView {
  const customer = invoice.customer && !view.contact ? { ...invoice.customer, email: "" } : invoice.customer;
  const phone = view.contact ? invoice.phone : null;
  if (view.prices) return { ...invoice, customer, phone };
  return { ...invoice, customer, phone, subtotal: 0, discount: 0, shipping: 0, total: 0, vat: invoice.vat === null ? null : 0, items: invoice.items.map((i) => ({ ...i, unitPrice: 0, lineTotal: 0 })) };
}
