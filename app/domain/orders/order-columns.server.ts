import type { Db } from "~/db/client.server";

/**
 * An order with its customer, as the order page, the accountant's CSV and the invoice read it: one
 * list of columns for the three, each adding what only it shows.
 */

/** The orders joined to their customer (`o` and `u`); a guest or WhatsApp order has no customer. */
export function ordersWithCustomer(db: Db) {
  return db.selectFrom("orders as o").leftJoin("users as u", "u.id", "o.user_id");
}

/**
 * The order's number, moment, state, money (the discount and its code, what store credit and a gift
 * card paid of it, included), delivery address as placed, phone and customer.
 */
export const ORDER_COLUMNS = [
  "o.id",
  "o.number",
  "o.created_at",
  "o.channel",
  "o.status",
  "o.subtotal",
  "o.shipping",
  "o.total",
  "o.discount",
  "o.promotion_code",
  "o.store_credit",
  "o.gift_card",
  "o.gift_card_code",
  "o.payment_status",
  "o.ship_street",
  "o.ship_city",
  "o.ship_state",
  "o.ship_country",
  "o.phone",
  "u.email",
  "u.first_name",
  "u.last_name",
  "o.email as guest_email",
  "o.customer_name",
] as const;
