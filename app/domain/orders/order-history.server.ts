import type { Db } from "~/db/client.server";
import type { DeliveryMethod, OrderChannel, OrderStatus, PaymentMethod, PaymentStatus } from "~/db/schema";

/** Orders as their customer sees them: always through the owner's id, so another user's number is a 404. */

export interface OrderSummary {
  number: string;
  channel: OrderChannel;
  status: OrderStatus;
  total: number;
  createdAt: string;
  address: string | null;
  paymentStatus: PaymentStatus;
  /** collected at the shop */
  pickup: boolean;
}

function addressLine(row: { ship_street: string | null; ship_city: string | null; ship_state: string | null; ship_country: string | null }): string | null {
  const parts = [row.ship_street, row.ship_city, row.ship_state, row.ship_country].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

export async function listOrdersForUser(db: Db, userId: number): Promise<OrderSummary[]> {
  const rows = await db
    .selectFrom("orders")
    .select(["number", "channel", "status", "total", "created_at", "ship_street", "ship_city", "ship_state", "ship_country", "payment_status", "delivery_method"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  return rows.map((r) => ({
    number: r.number,
    channel: r.channel,
    status: r.status,
    total: r.total,
    createdAt: r.created_at,
    address: addressLine(r),
    paymentStatus: r.payment_status,
    pickup: r.delivery_method === "pickup",
  }));
}

export interface OrderDetail extends OrderSummary {
  subtotal: number;
  shipping: number;
  items: { productId: number | null; name: string; unitPrice: number; quantity: number; lineTotal: number }[];
  history: { status: OrderStatus; at: string }[];
  deliveryMethod: DeliveryMethod | null;
  /** the zone's name, or for pick-up the shop's address */
  deliveryZone: string | null;
  deliveryEstimate: string | null;
  paymentMethod: PaymentMethod | null;
  paidAt: string | null;
  refundedAt: string | null;
  /** an online payment was started (and has not come through while unpaid) */
  paymentAttempted: boolean;
  /** the number the rider calls (E.164); null on orders from before it was asked */
  phone: string | null;
  /** kobo off the goods by a discount code, and the code (docs/decisions/219) */
  discount: number;
  promotionCode: string | null;
  /** kobo of the total paid by store credit and a gift card (docs/decisions/224) */
  storeCredit: number;
  giftCard: number;
  giftCardCode: string | null;
}

export async function findOrderForUser(db: Db, userId: number, number: string): Promise<OrderDetail | null> {
  return findOrderDetail(db, { userId, number });
}

/**
 * An order with its items and history: one of an account's, by number; or the one a private link
 * opens (docs/decisions/217), by the SHA-256 of the link's token (a revoked link has none).
 */
export async function findOrderDetail(
  db: Db,
  by: { userId: number; number: string } | { accessTokenHash: string },
): Promise<(OrderDetail & { id: number; userId: number | null; email: string | null; customerName: string | null }) | null> {
  const order = await db
    .selectFrom("orders")
    .selectAll()
    .$if("number" in by, (qb) => qb.where("number", "=", (by as { number: string }).number).where("user_id", "=", (by as { userId: number }).userId))
    .$if("accessTokenHash" in by, (qb) => qb.where("access_token_hash", "=", (by as { accessTokenHash: string }).accessTokenHash))
    .executeTakeFirst();
  if (!order) return null;
  const [items, events] = await Promise.all([
    db.selectFrom("order_items").select(["product_id", "name", "unit_price", "quantity"]).where("order_id", "=", order.id).orderBy("id").execute(),
    db.selectFrom("order_events").select(["status", "created_at"]).where("order_id", "=", order.id).orderBy("created_at").orderBy("id").execute(),
  ]);
  return {
    id: order.id,
    userId: order.user_id,
    email: order.email,
    customerName: order.customer_name,
    number: order.number,
    channel: order.channel,
    status: order.status,
    total: order.total,
    subtotal: order.subtotal,
    shipping: order.shipping,
    createdAt: order.created_at,
    address: addressLine(order),
    paymentStatus: order.payment_status,
    pickup: order.delivery_method === "pickup",
    deliveryMethod: order.delivery_method,
    deliveryZone: order.delivery_zone,
    deliveryEstimate: order.delivery_estimate,
    paymentMethod: order.payment_method,
    paidAt: order.paid_at,
    refundedAt: order.refunded_at,
    paymentAttempted: order.payment_reference !== null,
    phone: order.phone,
    discount: Number(order.discount ?? 0),
    promotionCode: order.promotion_code,
    storeCredit: Number(order.store_credit ?? 0),
    giftCard: Number(order.gift_card ?? 0),
    giftCardCode: order.gift_card_code,
    items: items.map((i) => ({ productId: i.product_id, name: i.name, unitPrice: i.unit_price, quantity: i.quantity, lineTotal: i.unit_price * i.quantity })),
    history: events.map((e) => ({ status: e.status, at: e.created_at })),
  };
}
