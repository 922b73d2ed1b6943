import type { Role, StaffRole } from "~/db/schema";

/**
 * Who on the staff may do what (docs/decisions/218). This table is the only place that says it: every
 * admin loader and action asks `requirePermission` (app/http/staff-guard.server.ts) on its first line, and the screens are given
 * `permissionsOf(role)` to decide which links, figures and contact details to show.
 */
export const PERMISSIONS = [
  /** the admin area and its dashboard's counts and stock alerts */
  "dashboard",
  /** revenue: the dashboard's takings and chart, order totals in exports */
  "revenue",
  /** the orders list and order pages */
  "orders.view",
  /** status changes (confirm, ship, deliver, cancel) */
  "orders.status",
  /** mark an order paid, set a delivery fee */
  "orders.payments",
  /** refunds, to a card or recorded by hand */
  "orders.refund",
  /** the orders CSV */
  "orders.export",
  /** prices and money amounts on order pages, invoices and products */
  "prices",
  /** customers' e-mail addresses and phone numbers, wherever shown, printed or exported */
  "customers.contact",
  /** the customers list and a customer's page */
  "customers.view",
  /** the products list (to count stock) */
  "catalogue.view",
  /** create, change, archive products, sizes, photos, imports; categories and brands */
  "catalogue.edit",
  /** the catalogue CSV */
  "catalogue.export",
  /** stock counts of a product's sizes */
  "stock",
  /** publish and hide reviews */
  "reviews",
  /** the audit log */
  "audit",
  /** discount codes: create, change, pause, and see what each brought (docs/decisions/219) */
  "promotions",
  /** store credit given to a customer or taken back by hand, and gift cards issued or sold (docs/decisions/224) */
  "credit",
  /** delivery fees and the shop's other settings */
  "settings",
  /** staff roles */
  "staff",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const STAFF_ROLES: StaffRole[] = ["owner", "manager", "fulfilment", "support"];

const TABLE: Record<StaffRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  manager: [
    "dashboard", "revenue", "orders.view", "orders.status", "orders.payments", "orders.export", "prices", "customers.contact",
    "customers.view", "catalogue.view", "catalogue.edit", "catalogue.export", "stock", "reviews", "audit", "promotions",
  ],
  fulfilment: ["dashboard", "orders.view", "orders.status", "catalogue.view", "stock"],
  support: ["dashboard", "orders.view", "prices", "customers.contact", "customers.view"],
};

export function isStaff(role: Role | null | undefined): role is StaffRole {
  return !!role && role !== "customer";
}

/** What an account of this role may do: nothing for a customer. */
export function permissionsOf(role: Role | null | undefined): Permission[] {
  return isStaff(role) ? [...TABLE[role]] : [];
}

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return isStaff(role) && TABLE[role].includes(permission);
}
