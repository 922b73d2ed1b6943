import type { Db } from "~/db/client.server";
import type { OrderChannel, OrderStatus, PaymentMethod, PaymentStatus } from "~/db/schema";
import { holdsStock } from "~/lib/admin";
import { orderNumber } from "~/domain/orders/orders.server";
import { firstSizeOf } from "./catalogue";

export interface TestOrderItem {
  productId: number;
  quantity: number;
}

/**
 * An order as the shop records it (see createOrderFromLines), with a chosen time, status and channel
 * for tests that need them: the order with its item snapshots, its first history entry, and the stock
 * an order in that channel and status holds (checkout orders from the start, WhatsApp orders once
 * confirmed).
 */
export async function insertOrder(
  db: Db,
  input: {
    userId?: number | null;
    channel?: OrderChannel;
    status?: OrderStatus;
    items: TestOrderItem[];
    number?: string;
    createdAt?: string;
    address?: { street: string; city: string; state: string; country: string } | null;
    /** paid at this time (payment status 'paid'), or the payment status to record */
    paidAt?: string | null;
    paymentStatus?: PaymentStatus;
    paymentMethod?: PaymentMethod | null;
    /** the mobile number on the order (E.164) */
    phone?: string | null;
    /** kobo a discount code took off the goods, and the code (total = subtotal - discount) */
    discount?: number;
    promotionCode?: string | null;
    /** kobo of the total paid by store credit and by a gift card, and its code (docs/decisions/224); no ledger rows */
    storeCredit?: number;
    giftCard?: number;
    giftCardCode?: string | null;
  },
): Promise<{ id: number; number: string; total: number }> {
  // Read before the transaction, which then starts with a write: on SQLite a transaction that read
  // first fails at once ("database is locked"), without waiting, when the shop wrote meanwhile.
  const products = await db
    .selectFrom("products")
    .select(["id", "name", "price"])
    .where(
      "id",
      "in",
      input.items.map((i) => i.productId),
    )
    .execute();
  const lines = input.items.map((item) => {
    const product = products.find((p) => p.id === item.productId);
    if (!product) throw new Error(`no product ${item.productId}`);
    return { ...item, name: product.name, unitPrice: product.price };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const at = input.createdAt ?? new Date().toISOString();
  const channel = input.channel ?? "checkout";
  const status = input.status ?? "pending";
  const address = input.address === undefined ? { street: "12 Admiralty Way", city: "Lekki", state: "Lagos", country: "Nigeria" } : input.address;
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .insertInto("orders")
      .values({
        number: input.number ?? `new-${Math.random().toString(36).slice(2)}`,
        user_id: input.userId ?? null,
        channel,
        status,
        ship_street: address?.street ?? null,
        ship_city: address?.city ?? null,
        ship_state: address?.state ?? null,
        ship_country: address?.country ?? null,
        address_id: null,
        subtotal,
        shipping: 0,
        discount: input.discount ?? 0,
        promotion_code: input.promotionCode ?? null,
        total: subtotal - (input.discount ?? 0),
        store_credit: input.storeCredit ?? 0,
        gift_card: input.giftCard ?? 0,
        gift_card_code: input.giftCardCode ?? null,
        payment_status: input.paymentStatus ?? (input.paidAt ? "paid" : "unpaid"),
        paid_at: input.paidAt ?? null,
        payment_method: input.paymentMethod ?? null,
        phone: input.phone ?? null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const number = input.number ?? orderNumber(order.id);
    if (!input.number) await trx.updateTable("orders").set({ number }).where("id", "=", order.id).execute();
    await trx
      .insertInto("order_items")
      .values(lines.map((l) => ({ order_id: order.id, product_id: l.productId, size_id: firstSizeOf(l.productId), name: l.name, unit_price: l.unitPrice, quantity: l.quantity })))
      .execute();
    await trx
      .insertInto("order_events")
      .values({ order_id: order.id, status: "pending", actor_user_id: null, note: null, created_at: at })
      .execute();
    for (const line of holdsStock(channel, status) ? lines : []) {
      await trx
        .updateTable("product_sizes")
        .set((eb) => ({ stock: eb("stock", "-", line.quantity) }))
        .where("id", "=", firstSizeOf(line.productId))
        .execute();
    }
    return { id: order.id, number, total: subtotal };
  });
}
