import { type OwnerAlert, queueNewOrderAlert } from "./new-order-alert.server";
import { creditLines } from "../credit/credit-lines.server";
import { createHash, randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { type Db, isPostgres, now } from "~/db/client.server";
import type { Database } from "~/db/schema";
import type { DeliveryMethod, OrderChannel, OrderStatus, PaymentMethod, PaymentStatus } from "~/db/schema";
import type { DeliveryQuote } from "~/lib/delivery";
import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { type CartLine, cartView, isBuyable } from "../shopper/cart.server";
import { type CatalogScope, catalogChanged, stockTakenScope } from "../catalogue/catalog.server";
import { sizedName, takeSizeStock } from "../catalogue/product-sizes.server";
import { MAX_OPEN_WHATSAPP_ORDERS_PER_CART, openWhatsAppOrders, secondsUntilExpiry } from "./order-expiry.server";
import { type CodeCustomer, evaluateCode, recordUse, takeUse } from "../promotions/codes.server";

/**
 * Orders are written once, in one transaction: the order, its items (names and unit prices copied from
 * the catalogue at that moment) and its first status event. Every amount is computed here from the
 * database, never taken from a form. Money is integer kobo.
 */

const FIRST_ORDER_NUMBER = 10_000;

/** Human-friendly and unique: UB- followed by 10000 + the order's id (UB-10001, UB-10002, ...). */
export function orderNumber(id: number): string {
  return `UB-${FIRST_ORDER_NUMBER + id}`;
}

const ORDER_NUMBER_PATTERN = /^UB-\d{5,12}$/;

export function isOrderNumber(value: unknown): value is string {
  return typeof value === "string" && ORDER_NUMBER_PATTERN.test(value);
}

export interface OrderLineInput {
  productId: number;
  /** the size bought (docs/decisions/121); without it, the product's first size */
  sizeId?: number;
  quantity: number;
}

export interface AddressSnapshot {
  street: string;
  city: string;
  state: string;
  country: string;
}

export interface NewOrder {
  channel: OrderChannel;
  /** null for an anonymous shopper (WhatsApp orders) */
  userId: number | null;
  lines: OrderLineInput[];
  /** copied onto the order, so editing or deleting the address later does not rewrite history */
  address?: AddressSnapshot | null;
  /** the saved address it came from, if any */
  addressId?: number | null;
  /** take the quantities out of stock in the same transaction (checkout); WhatsApp orders reserve nothing */
  takeFromStock?: boolean;
  /** the cart it was made from, and that cart's fingerprint (WhatsApp orders: see placeWhatsAppOrder) */
  cartId?: string | null;
  cartFingerprint?: string | null;
  /** the checkout form's random key (see placeCheckoutOrder) */
  checkoutKey?: string | null;
  /**
   * The delivery for the subtotal computed here (checkout: from the delivery table read in the same
   * transaction). Without it the fee is 0 and left to the chat (WhatsApp orders).
   */
  delivery?: ((subtotal: number) => DeliveryQuote) | null;
  paymentMethod?: PaymentMethod | null;
  /** who to tell of the new order (OWNER_EMAIL), queued with the order itself */
  ownerAlert?: OwnerAlert | null;
  /** the client address it was placed from (units held unpaid per address are capped: docs/decisions/213) */
  placedFrom?: string | null;
  /** the number the rider calls, E.164 (checked by the caller with parseNigerianMobile) */
  phone?: string | null;
  /** a guest order (no account): who placed it, and its private link's token hash (docs/decisions/217) */
  email?: string | null;
  customerName?: string | null;
  accessTokenHash?: string | null;
  /** the shopper's language (en, es): a guest's e-mails and messages speak it */
  locale?: string | null;
  /**
   * The discount code on the cart, and who uses it (docs/decisions/219): judged here, from the
   * database, and one use taken in this transaction. A code that does not apply now gives no discount
   * (the caller compares the total with the one the shopper was shown).
   */
  promotion?: { code: string; customer: CodeCustomer } | null;
}

export interface OrderItem {
  productId: number | null;
  /** the size sold; null once it is gone */
  sizeId?: number | null;
  /** the size's label when the product came in several sizes (the name already carries it) */
  sizeLabel?: string | null;
  /** the product's name, with the size when it came in several: "Sauvage (100 ml)" */
  name: string;
  /** kobo */
  unitPrice: number;
  quantity: number;
}

export interface PlacedOrder {
  id: number;
  number: string;
  channel: OrderChannel;
  status: OrderStatus;
  userId: number | null;
  subtotal: number;
  shipping: number;
  total: number;
  items: OrderItem[];
  createdAt: string;
  deliveryMethod: DeliveryMethod | null;
  deliveryZone: string | null;
  deliveryEstimate: string | null;
  paymentMethod: PaymentMethod | null;
  paymentStatus: PaymentStatus;
  /** the number the rider calls, E.164; null on orders placed before it was asked and on WhatsApp orders */
  phone: string | null;
  /** kobo taken off the goods by a discount code (total = subtotal - discount + shipping) */
  discount: number;
  /** the code it came from */
  promotionCode: string | null;
  /** kobo of the total paid by store credit and by a gift card (docs/decisions/224); the rest is due */
  storeCredit: number;
  giftCard: number;
  giftCardCode: string | null;
}

export type OrderProblem =
  /** no lines, or a quantity that is not a whole number of at least 1 */
  | "empty"
  | "invalidQuantity"
  /** a product that is not (or no longer) in the shop */
  | "unavailable"
  | "outOfStock"
  /** asks for more than the stock */
  | "notEnoughStock"
  /** the cart has MAX_OPEN_WHATSAPP_ORDERS_PER_CART open WhatsApp orders already */
  | "tooManyOpen";

export class OrderError extends Error {
  constructor(
    readonly problem: OrderProblem,
    readonly productName?: string,
    /** the stock, for notEnoughStock */
    readonly available?: number,
    /** for tooManyOpen: seconds until one of the open orders expires */
    readonly retryAfter?: number,
  ) {
    super(`Order refused: ${problem}${productName ? ` (${productName})` : ""}`);
    this.name = "OrderError";
  }
}

/** Same product and size twice adds up; quantities must be whole numbers of at least 1. */
function normaliseLines(lines: OrderLineInput[]): OrderLineInput[] {
  const byLine = new Map<string, OrderLineInput>();
  for (const line of lines) {
    if (!Number.isInteger(line.productId) || line.productId < 1) throw new OrderError("unavailable");
    if (line.sizeId !== undefined && (!Number.isInteger(line.sizeId) || line.sizeId < 1)) throw new OrderError("unavailable");
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new OrderError("invalidQuantity");
    const key = `${line.productId}:${line.sizeId ?? ""}`;
    const had = byLine.get(key);
    byLine.set(key, { ...line, quantity: (had?.quantity ?? 0) + line.quantity });
  }
  if (byLine.size === 0) throw new OrderError("empty");
  return [...byLine.values()];
}

/**
 * Records an order in one transaction: order (status pending) + items + a 'pending' status event.
 * Prices and names are read fresh and copied; subtotal, shipping and total are computed here.
 * Throws OrderError (and writes nothing) when a product is not in the shop or the stock is short.
 */
export async function createOrderFromLines(db: Db, order: NewOrder): Promise<PlacedOrder> {
  let stockTaken: CatalogScope = "anything";
  const placed = await db.transaction().execute(async (trx) => {
    const inserted = await insertOrder(trx, order);
    if (order.takeFromStock) stockTaken = await stockTakenScope(trx, orderedProducts(inserted));
    return inserted;
  });
  // Stock shows on product pages: anything caching them must hear that it changed (docs/decisions/205).
  if (order.takeFromStock) catalogChanged("here", stockTaken);
  return placed;
}

/**
 * The body of createOrderFromLines, for a caller that is already in a transaction (checkout also saves
 * an address and empties the cart in the same one). The caller calls catalogChanged() after commit.
 */
export async function insertOrder(trx: Transaction<Database>, order: NewOrder): Promise<PlacedOrder> {
  const lines = normaliseLines(order.lines);
  const productIds = [...new Set(lines.map((l) => l.productId))];
  const [products, sizes] = await Promise.all([
    trx.selectFrom("products").select(["id", "name", "archived_at"]).where("id", "in", productIds).execute(),
    trx
      .selectFrom("product_sizes")
      .select(["id", "product_id", "label", "price", "stock", "position"])
      .where("product_id", "in", productIds)
      .orderBy("position")
      .orderBy("id")
      .execute(),
  ]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const items: OrderItem[] = lines.map((line) => {
    const product = byId.get(line.productId);
    if (!product || product.archived_at !== null) throw new OrderError("unavailable", product?.name);
    const ofProduct = sizes.filter((s) => s.product_id === product.id);
    const size = line.sizeId === undefined ? ofProduct[0] : ofProduct.find((s) => s.id === line.sizeId);
    if (!size) throw new OrderError("unavailable", product.name);
    const sizeLabel = ofProduct.length > 1 ? size.label : null;
    const name = sizedName(product.name, sizeLabel);
    if (size.stock <= 0) throw new OrderError("outOfStock", name);
    if (line.quantity > size.stock) throw new OrderError("notEnoughStock", name, size.stock);
    return { productId: product.id, sizeId: size.id, sizeLabel, name, unitPrice: Number(size.price), quantity: line.quantity };
  });

  const at = now();
  const subtotal = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  if (order.takeFromStock) {
    // Always in product and size order, so two orders of the same products wait for each other instead
    // of deadlocking on PostgreSQL's row locks (a size's row, then its product's summary).
    for (const item of [...items].sort((a, b) => a.productId! - b.productId! || a.sizeId! - b.sizeId!)) {
      // Conditional, so two orders at once can never take the size's stock below zero.
      if (!(await takeSizeStock(trx, item.sizeId!, item.quantity, at))) {
        const left = await trx.selectFrom("product_sizes").select("stock").where("id", "=", item.sizeId!).executeTakeFirst();
        throw new OrderError("notEnoughStock", item.name, left?.stock ?? 0);
      }
    }
    await trx.updateTable("products").set({ updated_at: at }).where("id", "in", productIds).execute();
  }

  // The code after the sale prices, the fee on what is left (docs/decisions/219).
  let discount = 0;
  let freeDelivery = false;
  let used: { promotionId: number; code: string; customer: CodeCustomer } | null = null;
  if (order.promotion) {
    const { customer } = order.promotion;
    const outcome = await evaluateCode(trx, order.promotion.code, items.map((i) => ({ productId: i.productId!, sizeId: i.sizeId!, unitPrice: i.unitPrice, quantity: i.quantity })), customer, at);
    if (outcome.ok && (await takeUse(trx, outcome.promotion, customer)) === null) {
      discount = outcome.discount;
      freeDelivery = outcome.freeDelivery;
      used = { promotionId: outcome.promotion.id, code: outcome.promotion.code, customer };
    }
  }
  const delivery = order.delivery ? order.delivery(subtotal - discount) : null;
  const shipping = delivery && !(freeDelivery && delivery.method === "delivery") ? delivery.fee : 0;
  const total = subtotal - discount + shipping;
  const address = order.address ?? null;
  const inserted = await trx
    .insertInto("orders")
    .values({
      // Replaced by the real number below, once the id is known; unique in the meantime.
      number: `new-${randomBytes(8).toString("hex")}`,
      user_id: order.userId,
      channel: order.channel,
      status: "pending",
      ship_street: address?.street ?? null,
      ship_city: address?.city ?? null,
      ship_state: address?.state ?? null,
      ship_country: address?.country ?? null,
      address_id: order.addressId ?? null,
      subtotal,
      shipping,
      total,
      cart_id: order.cartId ?? null,
      cart_fingerprint: order.cartFingerprint ?? null,
      checkout_key: order.checkoutKey ?? null,
      delivery_method: delivery?.method ?? null,
      delivery_zone: delivery?.zone ?? null,
      delivery_estimate: delivery?.estimate ?? null,
      payment_method: order.paymentMethod ?? null,
      payment_status: "unpaid",
      placed_from: order.placedFrom ?? null,
      phone: order.phone ?? null,
      email: order.email ?? null,
      customer_name: order.customerName ?? null,
      access_token_hash: order.accessTokenHash ?? null,
      locale: order.locale ?? null,
      discount,
      promotion_code: used?.code ?? null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const number = orderNumber(inserted.id);
  await trx.updateTable("orders").set({ number }).where("id", "=", inserted.id).execute();
  await trx
    .insertInto("order_items")
    .values(
      items.map((item) => ({
        order_id: inserted.id,
        product_id: item.productId,
        size_id: item.sizeId ?? null,
        size_label: item.sizeLabel ?? null,
        name: item.name,
        unit_price: item.unitPrice,
        quantity: item.quantity,
      })),
    )
    .execute();
  await trx
    .insertInto("order_events")
    .values({ order_id: inserted.id, status: "pending", actor_user_id: null, note: null, created_at: at })
    .execute();
  if (used) await recordUse(trx, used.promotionId, inserted.id, used.customer, discount, at);
  const placed = {
    id: inserted.id,
    number,
    channel: order.channel,
    status: "pending" as const,
    userId: order.userId,
    subtotal,
    shipping,
    total,
    items,
    createdAt: at,
    deliveryMethod: delivery?.method ?? null,
    deliveryZone: delivery?.zone ?? null,
    deliveryEstimate: delivery?.estimate ?? null,
    paymentMethod: order.paymentMethod ?? null,
    paymentStatus: "unpaid" as const,
    phone: order.phone ?? null,
    discount,
    promotionCode: used?.code ?? null,
    // Credit and gift cards pay after the order is written (checkout.server.ts, spendOnOrder).
    storeCredit: 0,
    giftCard: 0,
    giftCardCode: null,
  };
  // The owner's alert exists exactly when the order does.
  if (order.ownerAlert) await queueNewOrderAlert(trx, order.ownerAlert, placed, address);
  return placed;
}

/** The products an order just placed is of, each once. */
export function orderedProducts(order: PlacedOrder): number[] {
  return [...new Set(order.items.map((item) => item.productId!))];
}

/** An order with its items, by its number; null when there is none. */
export async function findOrderByNumber(db: Db, number: string): Promise<(PlacedOrder & { cartId: string | null }) | null> {
  if (!isOrderNumber(number)) return null;
  const row = await db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirst();
  if (!row) return null;
  const items = await db
    .selectFrom("order_items")
    .select(["product_id", "size_id", "size_label", "name", "unit_price", "quantity"])
    .where("order_id", "=", row.id)
    .orderBy("id")
    .execute();
  return {
    id: row.id,
    number: row.number,
    channel: row.channel,
    status: row.status,
    userId: row.user_id,
    subtotal: row.subtotal,
    shipping: row.shipping,
    total: row.total,
    cartId: row.cart_id,
    createdAt: row.created_at,
    deliveryMethod: row.delivery_method,
    deliveryZone: row.delivery_zone,
    deliveryEstimate: row.delivery_estimate,
    paymentMethod: row.payment_method,
    paymentStatus: row.payment_status,
    phone: row.phone,
    discount: Number(row.discount ?? 0),
    promotionCode: row.promotion_code,
    storeCredit: Number(row.store_credit ?? 0),
    giftCard: Number(row.gift_card ?? 0),
    giftCardCode: row.gift_card_code,
    items: items.map((i) => ({ productId: i.product_id, sizeId: i.size_id, sizeLabel: i.size_label, name: i.name, unitPrice: i.unit_price, quantity: i.quantity })),
  };
}

// ---------------------------------------------------------------------------------------------
// Ordering by WhatsApp

/**
 * What makes two presses "the same cart": the cart's id and, per line that can be bought, the product,
 * quantity and current price. Any change to the cart (or to a price) gives a new fingerprint.
 */
export function cartFingerprint(cartId: string, lines: (Pick<CartLine, "productId" | "quantity" | "unitPrice"> & { sizeId?: number })[]): string {
  const content = [...lines]
    .sort((a, b) => a.productId - b.productId || (a.sizeId ?? 0) - (b.sizeId ?? 0))
    .map((l) => `${l.productId}${l.sizeId === undefined ? "" : `/${l.sizeId}`}x${l.quantity}@${l.unitPrice}`)
    .join(",");
  return createHash("sha256").update(`${cartId}|${content}`).digest("hex");
}

async function pendingOrderWithFingerprint(db: Db, fingerprint: string) {
  const row = await db
    .selectFrom("orders")
    .select("number")
    .where("cart_fingerprint", "=", fingerprint)
    .where("status", "=", "pending")
    .where("channel", "=", "whatsapp")
    .executeTakeFirst();
  return row ? findOrderByNumber(db, row.number) : null;
}

/**
 * Records the cart as a pending WhatsApp order (anonymous shoppers too), or returns the pending order
 * already recorded for exactly this cart, so pressing the button again does not record another.
 * Only lines that can be bought are ordered, each capped by the stock. Throws OrderError("empty")
 * when nothing in the cart can be bought.
 */
export async function placeWhatsAppOrder(
  db: Db,
  cart: { cartId: string | null; userId: number | null },
  options: WhatsAppOrderOptions = {},
): Promise<PlacedOrder & { reused: boolean }> {
  if (!cart.cartId) throw new OrderError("empty");
  const cartId = cart.cartId;
  const view = await cartView(db, cartId);
  const lines = view.lines.filter(isBuyable);
  if (lines.length === 0) throw new OrderError("empty");
  const fingerprint = cartFingerprint(cartId, lines);

  const existing = await pendingOrderWithFingerprint(db, fingerprint);
  if (existing) return { ...existing, reused: true };
  // Only a new order counts against the shopper's address (throws TooManyAttempts).
  await options.countNewOrder?.();
  try {
    const placed = await db.transaction().execute(async (trx) => {
      // The cart's row is locked first (as at checkout), so the cap below holds for presses at once.
      if (isPostgres(trx)) await trx.selectFrom("carts").select("id").where("id", "=", cartId).forUpdate().execute();
      else await trx.updateTable("carts").set({ updated_at: now() }).where("id", "=", cartId).execute();
      const open = await openWhatsAppOrders(trx, cartId);
      if (open.count >= MAX_OPEN_WHATSAPP_ORDERS_PER_CART) {
        throw new OrderError("tooManyOpen", undefined, undefined, secondsUntilExpiry(open.oldest!, options.holdHours ?? 48));
      }
      return insertOrder(trx, {
        channel: "whatsapp",
        userId: cart.userId,
        lines: lines.map((l) => ({ productId: l.productId, sizeId: l.sizeId, quantity: l.quantity })),
        cartId,
        cartFingerprint: fingerprint,
        ownerAlert: options.ownerAlert ?? null,
      });
    });
    // It takes no stock, but counts as sold (best-selling listings) and as bought together (docs/decisions/205).
    catalogChanged("here", { ordered: orderedProducts(placed) });
    return { ...placed, reused: false };
  } catch (error) {
    // Two presses at once: the unique index lets one order through; the other finds it.
    const raced = await pendingOrderWithFingerprint(db, fingerprint);
    if (raced) return { ...raced, reused: true };
    throw error;
  }
}

export interface WhatsAppOrderOptions {
  /** counts a new order against the shopper's IP address; throws TooManyAttempts over the limit */
  countNewOrder?: () => Promise<void>;
  /** ORDER_HOLD_HOURS, for the Retry-After of a refusal over the per-cart cap */
  holdHours?: number;
  /** who to tell of the new order (OWNER_EMAIL), queued with the order itself */
  ownerAlert?: OwnerAlert | null;
  /** the client address it was placed from (units held unpaid per address are capped: docs/decisions/213) */
  placedFrom?: string | null;
}

/**
 * The chat message: a greeting, one line per item (name, quantity, line price), the discount if any,
 * the delivery note, the total, what store credit and a gift card paid of it if any, and the reference.
 */
export function whatsAppMessage(
  t: Translate,
  order: Pick<PlacedOrder, "number" | "items" | "total"> & Partial<Pick<PlacedOrder, "discount" | "promotionCode" | "storeCredit" | "giftCard" | "giftCardCode">>,
): string {
  return [
    t("cart.whatsapp.greeting"),
    "",
    ...order.items.map((item) =>
      t("cart.whatsapp.line", { name: item.name, quantity: item.quantity, price: formatNaira(item.unitPrice * item.quantity) }),
    ),
    "",
    // A discount the order was given (docs/decisions/219): the shop sees what was taken off.
    ...(order.discount ? [t("promotions.order.mail", { code: order.promotionCode ?? "", amount: formatNaira(order.discount) })] : []),
    t("cart.whatsapp.delivery"),
    t("cart.whatsapp.total", { total: formatNaira(order.total) }),
    // WhatsApp orders take no credit yet; an order that had some says what it paid (docs/decisions/224).
    ...creditLines(t, { total: order.total, storeCredit: order.storeCredit ?? 0, giftCard: order.giftCard ?? 0, giftCardCode: order.giftCardCode ?? null }).map((line) => `${line.label}: ${line.amount}`),
    t("cart.whatsapp.reference", { number: order.number }),
  ].join("\n");
}

/** https://wa.me/<digits>?text=... for the shop's WhatsApp number (digits only, as configured). */
export function whatsAppUrl(phoneDigits: string, text: string): string {
  return `https://wa.me/${phoneDigits.replace(/\D/g, "")}?text=${encodeURIComponent(text)}`;
}
