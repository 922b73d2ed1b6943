import type { Db } from "~/db/client.server";
import type { OrderChannel, OrderStatus, PaymentMethod, PaymentStatus } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { qrPath } from "~/platform/qr.server";
import { ORDER_COLUMNS, ordersWithCustomer } from "./order-columns.server";
import { vatContained } from "./vat.server";

/**
 * What an invoice or a packing slip shows: the shop's details, the order with its items and totals
 * as recorded when it was placed, the delivery address, and a QR code of the order number. The
 * customer gets only their own orders; the admin any.
 */

export interface InvoiceView {
  number: string;
  createdAt: string;
  status: OrderStatus;
  channel: OrderChannel;
  customer: { name: string; email: string } | null;
  address: { street: string; city: string; state: string; country: string } | null;
  /** the number the rider calls (E.164), null on orders from before it was asked */
  phone: string | null;
  items: { name: string; unitPrice: number; quantity: number; lineTotal: number }[];
  subtotal: number;
  /** kobo a discount code took off the goods, and the code (docs/decisions/219) */
  discount: number;
  promotionCode: string | null;
  shipping: number;
  total: number;
  /** kobo of the total paid by store credit and by a gift card, and its code (docs/decisions/224); the rest is due */
  storeCredit: number;
  giftCard: number;
  giftCardCode: string | null;
  /** the VAT contained in the total when the shop's prices include VAT (VAT_INCLUDED), else null */
  vat: number | null;
  payment: { status: PaymentStatus; method: PaymentMethod | null; paidAt: string | null };
  shop: { name: string; email: string; phone: string; whatsapp: string; address: string; bank: Config["shop"]["bank"] };
  qr: { size: number; d: string };
}

export type InvoiceShop = Pick<Config, "shop" | "publicUrl">;

async function loadInvoice(db: Db, config: InvoiceShop, number: string, userId: number | null): Promise<InvoiceView | null> {
  let query = ordersWithCustomer(db)
    .select([...ORDER_COLUMNS, "o.payment_method", "o.paid_at"])
    .where("o.number", "=", number.slice(0, 40));
  if (userId !== null) query = query.where("o.user_id", "=", userId);
  const order = await query.executeTakeFirst();
  if (!order) return null;
  const items = await db.selectFrom("order_items").select(["name", "unit_price", "quantity"]).where("order_id", "=", order.id).orderBy("id").execute();
  const hasAddress = order.ship_street || order.ship_city || order.ship_state || order.ship_country;
  return {
    number: order.number,
    createdAt: order.created_at,
    status: order.status,
    channel: order.channel,
    customer: order.email
      ? { name: [order.first_name, order.last_name].filter(Boolean).join(" "), email: order.email }
      : order.guest_email
        ? { name: order.customer_name ?? "", email: order.guest_email }
        : null,
    address: hasAddress
      ? { street: order.ship_street ?? "", city: order.ship_city ?? "", state: order.ship_state ?? "", country: order.ship_country ?? "" }
      : null,
    phone: order.phone,
    items: items.map((i) => ({ name: i.name, unitPrice: i.unit_price, quantity: i.quantity, lineTotal: i.unit_price * i.quantity })),
    subtotal: order.subtotal,
    discount: Number(order.discount ?? 0),
    promotionCode: order.promotion_code,
    shipping: order.shipping,
    total: order.total,
    storeCredit: Number(order.store_credit ?? 0),
    giftCard: Number(order.gift_card ?? 0),
    giftCardCode: order.gift_card_code,
    vat: config.shop.vatIncluded ? vatContained(order.total) : null,
    payment: { status: order.payment_status, method: order.payment_method, paidAt: order.paid_at },
    shop: {
      name: "Unboxed",
      email: config.shop.email,
      phone: config.shop.phone,
      whatsapp: config.shop.whatsapp,
      address: config.publicUrl.replace(/^https?:\/\//, ""),
      bank: config.shop.bank,
    },
    qr: qrPath(order.number),
  };
}

export function invoiceForAdmin(db: Db, config: InvoiceShop, number: string): Promise<InvoiceView | null> {
  return loadInvoice(db, config, number, null);
}

/** The order a private link opened (docs/decisions/217); the caller found its number by the link. */
export function invoiceForLink(db: Db, config: InvoiceShop, number: string): Promise<InvoiceView | null> {
  return loadInvoice(db, config, number, null);
}

/** The customer's own order only: another customer's number is not found, like a number that does not exist. */
export function invoiceForCustomer(db: Db, config: InvoiceShop, userId: number, number: string): Promise<InvoiceView | null> {
  return loadInvoice(db, config, number, userId);
}

export type InvoiceKind = "invoice" | "slip";
export type InvoicePaper = "a4" | "receipt";

export function invoiceOptions(url: URL): { kind: InvoiceKind; paper: InvoicePaper } {
  return {
    kind: url.searchParams.get("doc") === "slip" ? "slip" : "invoice",
    paper: url.searchParams.get("paper") === "receipt" ? "receipt" : "a4",
  };
}
