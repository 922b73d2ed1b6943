import type { AppLoadContext } from "react-router";
import { sql, type Transaction } from "kysely";
import { type Db } from "~/db/client.server";
import { containsText } from "~/db/like";
import type { Database, DeliveryMethod, OrderChannel, OrderStatus, PaymentMethod, PaymentStatus } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { DEFAULT_LOCALE, isLocale } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { holdsStock, MAX_STATUS_NOTE, ORDER_CHANNELS, ORDER_STATUSES, PAYMENT_STATUSES } from "~/lib/admin";
import { searchParam } from "~/lib/admin-params";
import { formatNaira } from "~/lib/money";
import { recordAudit } from "../backoffice/audit.server";
import { ORDER_COLUMNS, ordersWithCustomer } from "./order-columns.server";
import { bothChanges, type CatalogScope, catalogChanged, stockMovedScope, stockMoves } from "../catalogue/catalog.server";
import { returnSizeStock, sizeStock, takeSizeStock } from "../catalogue/product-sizes.server";
import { queueMail } from "../operations/mail-outbox.server";
import { queueOrderMessage } from "../messages/notify.server";
import { giveBackUse } from "../promotions/codes.server";
import { giveBackSpent } from "../credit/ledger.server";

/**
 * Orders as the shop owner handles them: a list with filters, one order with its items, address and
 * status history, and the status changes pending -> confirmed -> shipped -> delivered, or cancelled
 * while not yet shipped. A checkout order takes its stock when it is placed; a WhatsApp order takes
 * nothing until the owner confirms it (nothing is paid until then). Cancelling an order that holds
 * stock puts it back.
 */

export { holdsStock, MAX_STATUS_NOTE, ORDER_CHANNELS, ORDER_STATUSES };
export const ADMIN_ORDERS_PAGE_SIZE = 20;

export const ORDER_TRANSITIONS: Record<OrderStatus, OrderStatus[]> = {
  pending: ["confirmed", "cancelled"],
  confirmed: ["shipped", "cancelled"],
  shipped: ["delivered"],
  delivered: [],
  cancelled: [],
};

export function canMoveOrder(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as string[]).includes(value);
}

export function isOrderChannel(value: unknown): value is OrderChannel {
  return typeof value === "string" && (ORDER_CHANNELS as string[]).includes(value);
}

export interface AdminOrderRow {
  id: number;
  number: string;
  createdAt: string;
  channel: OrderChannel;
  status: OrderStatus;
  total: number;
  customerEmail: string | null;
  customerName: string | null;
  /** placed without an account (docs/decisions/217): the e-mail and name are the order's own */
  guest: boolean;
  paymentStatus: PaymentStatus;
}

export interface OrderFilters {
  status?: OrderStatus | null;
  channel?: OrderChannel | null;
  payment?: PaymentStatus | null;
  /** order number or customer e-mail, or part of one */
  q?: string;
  /** YYYY-MM-DD, Lagos time, included */
  from?: string | null;
  /** YYYY-MM-DD, Lagos time, included */
  to?: string | null;
  page?: number;
}

export type OrderFilterField = "status" | "channel" | "payment" | "from" | "to";

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const date = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text && Number(m[1]) >= 2000 && Number(m[1]) <= 2999;
}

/**
 * The order filters of a URL (the orders list's and the export's): status, channel, payment status,
 * search and a range of Lagos days. A value that is not one of ours is left out of `filters` and named
 * in `invalid`; the list simply ignores it, the export refuses it.
 */
export function parseOrderFilters(params: URLSearchParams): { filters: Omit<OrderFilters, "page">; invalid: OrderFilterField[] } {
  const invalid: OrderFilterField[] = [];
  const pick = <T extends string>(name: OrderFilterField, allowed: readonly T[]): T | null => {
    const value = params.get(name)?.trim() || null;
    if (value === null) return null;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    invalid.push(name);
    return null;
  };
  const day = (name: "from" | "to"): string | null => {
    const value = params.get(name)?.trim() || null;
    if (value === null || validDay(value)) return value;
    invalid.push(name);
    return null;
  };
  const status = pick("status", ORDER_STATUSES);
  const channel = pick("channel", ORDER_CHANNELS);
  const payment = pick("payment", PAYMENT_STATUSES);
  const from = day("from");
  const to = day("to");
  // Dates given the wrong way round mean the days between them.
  const [first, last] = from && to && from > to ? [to, from] : [from, to];
  return { filters: { status, channel, payment, q: searchParam(params.get("q")), from: first, to: last }, invalid };
}

// Lagos is UTC+1 all year (no daylight saving time).
const lagosStart = (day: string) => new Date(`${day}T00:00:00+01:00`).toISOString();
const lagosNextDay = (day: string) => new Date(new Date(`${day}T00:00:00+01:00`).getTime() + 24 * 60 * 60 * 1000).toISOString();

/**
 * The orders the owner asked for, with their customer (`o` and `u`): the one place the filters of the
 * orders list and of the accountant's export are turned into a query.
 */
export function filteredOrders(db: Db, filters: Omit<OrderFilters, "page">) {
  let base = ordersWithCustomer(db);
  if (filters.status) base = base.where("o.status", "=", filters.status);
  if (filters.channel) base = base.where("o.channel", "=", filters.channel);
  if (filters.payment) base = base.where("o.payment_status", "=", filters.payment);
  if (filters.from) base = base.where("o.created_at", ">=", lagosStart(filters.from));
  if (filters.to) base = base.where("o.created_at", "<", lagosNextDay(filters.to));
  const q = filters.q?.trim();
  if (q) {
    base = base.where((eb) =>
      eb.or([containsText(sql.ref<string>("o.number"), q), containsText(sql.ref<string>("u.email"), q), containsText(sql.ref<string>("o.email"), q), containsText(sql.ref<string>("o.phone"), q)]),
    );
  }
  return base;
}

/** Newest first, filtered by status, channel and payment, searched by order number or customer e-mail. */
export async function listAdminOrders(
  db: Db,
  filters: OrderFilters = {},
): Promise<{ orders: AdminOrderRow[]; total: number; page: number; pages: number }> {
  const base = filteredOrders(db, filters);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / ADMIN_ORDERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, filters.page ?? 1), pages);
  const rows = await base
    .select(["o.id", "o.number", "o.created_at", "o.channel", "o.status", "o.total", "o.payment_status", "u.email", "u.first_name", "u.last_name", "o.email as guest_email", "o.customer_name", "o.user_id"])
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(ADMIN_ORDERS_PAGE_SIZE)
    .offset((page - 1) * ADMIN_ORDERS_PAGE_SIZE)
    .execute();
  return {
    total,
    page,
    pages,
    orders: rows.map((r) => ({
      id: r.id,
      number: r.number,
      createdAt: r.created_at,
      channel: r.channel,
      status: r.status,
      total: r.total,
      ...customerOf(r),
      paymentStatus: r.payment_status,
    })),
  };
}

/** Who placed an order: its account, or a guest's own name and e-mail (docs/decisions/217). */
function customerOf(r: { email: string | null; first_name: string | null; last_name: string | null; guest_email: string | null; customer_name: string | null; user_id: number | null }) {
  if (r.email) return { customerEmail: r.email, customerName: `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim(), guest: false };
  return { customerEmail: r.guest_email, customerName: r.guest_email ? (r.customer_name ?? "") : null, guest: r.user_id === null && r.guest_email !== null };
}

export interface AdminOrderDetail extends AdminOrderRow {
  /** the order has a private link that works (the owner may revoke it) */
  privateLink: boolean;
  subtotal: number;
  /** kobo a discount code took off the goods, and the code (docs/decisions/219) */
  discount: number;
  promotionCode: string | null;
  shipping: number;
  /** kobo of the total paid by store credit and a gift card, and its code (docs/decisions/224); the rest is due */
  storeCredit: number;
  giftCard: number;
  giftCardCode: string | null;
  address: { street: string; city: string; state: string; country: string } | null;
  items: { id: number; productId: number | null; name: string; unitPrice: number; quantity: number; lineTotal: number }[];
  history: { id: number; status: OrderStatus; at: string; actor: string | null; note: string | null }[];
  next: OrderStatus[];
  deliveryMethod: DeliveryMethod | null;
  /** the zone's name, or for pick-up the shop's address */
  deliveryZone: string | null;
  deliveryEstimate: string | null;
  paymentMethod: PaymentMethod | null;
  paymentReference: string | null;
  paymentChannel: string | null;
  paidAt: string | null;
  refundedAt: string | null;
  /** the number the rider calls (E.164); null on orders from before it was asked and WhatsApp orders */
  phone: string | null;
}

export async function getAdminOrder(db: Db, number: string): Promise<AdminOrderDetail | undefined> {
  const order = await ordersWithCustomer(db)
    .leftJoin("addresses as a", "a.id", "o.address_id")
    .select([
      ...ORDER_COLUMNS,
      "o.payment_method",
      "o.payment_reference",
      "o.payment_channel",
      "o.paid_at",
      "o.refunded_at",
      "o.delivery_method",
      "o.delivery_zone",
      "o.delivery_estimate",
      "a.street",
      "a.city",
      "a.state",
      "a.country",
      "o.user_id",
      "o.access_token_hash",
      "o.store_credit",
      "o.gift_card",
      "o.gift_card_code",
    ])
    .where("o.number", "=", number)
    .executeTakeFirst();
  if (!order) return undefined;
  const [items, events] = await Promise.all([
    db
      .selectFrom("order_items")
      .select(["id", "product_id", "name", "unit_price", "quantity"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("order_events as e")
      .leftJoin("users as u", "u.id", "e.actor_user_id")
      .select(["e.id", "e.status", "e.created_at", "e.note", "u.first_name", "u.last_name", "u.email"])
      .where("e.order_id", "=", order.id)
      .orderBy("e.created_at")
      .orderBy("e.id")
      .execute(),
  ]);
  // The address as it was when the order was placed; older orders may only link a saved address.
  const snapshot = order.ship_street
    ? { street: order.ship_street, city: order.ship_city ?? "", state: order.ship_state ?? "", country: order.ship_country ?? "" }
    : order.street
      ? { street: order.street, city: order.city ?? "", state: order.state ?? "", country: order.country ?? "" }
      : null;
  return {
    id: order.id,
    number: order.number,
    createdAt: order.created_at,
    channel: order.channel,
    status: order.status,
    subtotal: order.subtotal,
    discount: Number(order.discount ?? 0),
    promotionCode: order.promotion_code,
    shipping: order.shipping,
    total: order.total,
    storeCredit: Number(order.store_credit ?? 0),
    giftCard: Number(order.gift_card ?? 0),
    giftCardCode: order.gift_card_code,
    ...customerOf(order),
    privateLink: order.access_token_hash !== null,
    address: snapshot,
    phone: order.phone,
    items: items.map((i) => ({
      id: i.id,
      productId: i.product_id,
      name: i.name,
      unitPrice: i.unit_price,
      quantity: i.quantity,
      lineTotal: i.unit_price * i.quantity,
    })),
    history: events.map((e) => ({
      id: e.id,
      status: e.status,
      at: e.created_at,
      note: e.note,
      actor: e.email ? `${e.first_name ?? ""} ${e.last_name ?? ""}`.trim() || e.email : null,
    })),
    next: ORDER_TRANSITIONS[order.status],
    paymentStatus: order.payment_status,
    paymentMethod: order.payment_method,
    paymentReference: order.payment_reference,
    paymentChannel: order.payment_channel,
    paidAt: order.paid_at,
    refundedAt: order.refunded_at,
    deliveryMethod: order.delivery_method,
    deliveryZone: order.delivery_zone,
    deliveryEstimate: order.delivery_estimate,
  };
}

export type ChangeStatusResult =
  /** mail: "queued" when the customer's e-mail was written to the outbox with the change */
  | { ok: true; restocked: number; taken: number; mail: "queued" | "none" }
  | { ok: false; error: "notFound" | "notAllowed" | "stale" }
  | { ok: false; error: "notEnoughStock"; product: string; available: number };

class NotEnoughStock extends Error {
  constructor(
    readonly product: string,
    readonly available: number,
  ) {
    super(`not enough stock of ${product}`);
  }
}

/**
 * Moves an order to its next status, in one transaction with its history entry, its audit entry and
 * its stock: confirming a WhatsApp order takes the stock (refused, with nothing changed, when there is
 * not enough), and cancelling an order that holds stock puts it back. `from` is the status the admin
 * saw: if someone else changed the order meanwhile, nothing happens ("stale"). The customer, when the
 * order has one, is told by e-mail: the message is queued in the same transaction, so it goes out
 * exactly when the change holds.
 */
export async function changeOrderStatus(
  context: Pick<AppLoadContext, "db" | "config">,
  input: { number: string; from: OrderStatus; to: OrderStatus; note?: string | null; actorId: number },
): Promise<ChangeStatusResult> {
  const { db } = context;
  const note = input.note?.trim().slice(0, MAX_STATUS_NOTE) || null;
  let result;
  try {
    result = await db.transaction().execute(async (trx) => {
      const order = await trx
        .selectFrom("orders")
        .select(["id", "number", "status", "channel", "user_id", "total", "email", "customer_name", "locale"])
        .where("number", "=", input.number)
        .executeTakeFirst();
      if (!order) return { ok: false as const, error: "notFound" as const };
      if (order.status !== input.from) return { ok: false as const, error: "stale" as const };
      if (!canMoveOrder(order.status, input.to)) return { ok: false as const, error: "notAllowed" as const };
      const at = new Date().toISOString();
      const moved = await trx
        .updateTable("orders")
        .set({ status: input.to, updated_at: at })
        .where("id", "=", order.id)
        .where("status", "=", input.from)
        .executeTakeFirst();
      // Someone else moved it between our read and our write.
      if (Number(moved.numUpdatedRows) !== 1) return { ok: false as const, error: "stale" as const };
      await trx
        .insertInto("order_events")
        .values({ order_id: order.id, status: input.to, actor_user_id: input.actorId, note, created_at: at })
        .execute();

      const heldBefore = holdsStock(order.channel, input.from);
      const heldAfter = holdsStock(order.channel, input.to);
      const movesStock = heldBefore !== heldAfter;
      let restocked = 0;
      let taken = 0;
      // What this alters, for the page caches (docs/decisions/205): stock moved changes its products'
      // pages, and a cancelled order no longer counts as sold (best sellers, 'often bought together').
      let changed: CatalogScope | null = null;
      if (movesStock || input.to === "cancelled") {
        const items = await trx
          .selectFrom("order_items")
          .select(["product_id", "size_id", "name", "quantity"])
          .where("order_id", "=", order.id)
          .where("product_id", "is not", null)
          .orderBy("product_id")
          .orderBy("size_id")
          .execute();
        for (const item of movesStock ? items : []) {
          // Stock is per size (docs/decisions/121): a size removed since can neither give nor take.
          if (heldAfter) {
            // Conditional, so the stock never goes below zero, whatever else happens at the same time.
            if (item.size_id === null || !(await takeSizeStock(trx, item.size_id, item.quantity, at))) {
              const left = item.size_id === null ? 0 : await sizeStock(trx, item.size_id);
              // Rolls the whole change back.
              throw new NotEnoughStock(item.name, left);
            }
            taken += item.quantity;
          } else if (item.size_id !== null) {
            await returnSizeStock(trx, item.size_id, item.quantity, at);
            restocked += item.quantity;
          }
          await trx.updateTable("products").set({ updated_at: at }).where("id", "=", item.product_id!).execute();
        }
        // A size removed since gave back nothing.
        const moved = heldAfter ? items : items.filter((item) => item.size_id !== null);
        if (movesStock && moved.length) changed = await stockMovedScope(trx, stockMoves(moved, heldAfter ? -1 : 1));
        if (input.to === "cancelled") changed = bothChanges(changed, { ordered: [...new Set(items.map((item) => item.product_id!))] });
      }
      // A cancelled order gives its use of a discount code back (docs/decisions/219).
      if (input.to === "cancelled") await giveBackUse(trx, order.id, at);
      // And what store credit and a gift card paid of it (docs/decisions/224).
      if (input.to === "cancelled") await giveBackSpent(trx, order.id, at);
      await recordAudit(trx, {
        actorId: input.actorId,
        action: "update",
        entity: "order",
        entityId: order.id,
        summary: order.number,
        changes: {
          status: [input.from, input.to],
          ...(restocked ? { restocked: [null, restocked] } : {}),
          ...(taken ? { stockTaken: [null, taken] } : {}),
        },
      });
      // A guest is told at the order's e-mail (docs/decisions/217), in the language the order was placed in.
      const mailed = order.user_id
        ? await tellCustomer(trx, context.config, order.user_id, order.number, input.to, order.total, note)
        : order.email
          ? await tellCustomer(trx, context.config, { email: order.email, first_name: order.customer_name ?? "", locale: order.locale }, order.number, input.to, order.total, note)
          : false;
      // Dispatch, delivery and cancellation go by WhatsApp and SMS too, as the owner chose (docs/decisions/220).
      const messageKind = ({ shipped: "order-shipped", delivered: "order-delivered", cancelled: "order-cancelled" } as const)[input.to as "shipped" | "delivered" | "cancelled"];
      if (messageKind && context.config.messaging) await queueOrderMessage(trx, context.config, messageKind, order.number);
      return { ok: true as const, order, restocked, taken, mailed, changed };
    });
  } catch (error) {
    if (error instanceof NotEnoughStock) return { ok: false, error: "notEnoughStock", product: error.product, available: error.available };
    throw error;
  }
  if (!result.ok) return result;
  if (result.changed) catalogChanged("here", result.changed);
  return { ok: true, restocked: result.restocked, taken: result.taken, mail: result.mailed ? "queued" : "none" };
}

/** Queues the customer's e-mail about the order's new status; false when the account is gone. */
export async function tellCustomer(
  trx: Transaction<Database>,
  config: Pick<Config, "publicUrl">,
  to: number | { email: string; first_name: string; locale: string | null },
  number: string,
  status: OrderStatus,
  total: number,
  note: string | null,
): Promise<boolean> {
  const user = typeof to === "number" ? await trx.selectFrom("users").select(["email", "first_name", "locale"]).where("id", "=", to).executeTakeFirst() : to;
  if (!user) return false;
  // In the language the customer last used in the shop (English until known).
  const t = translatorFor(isLocale(user.locale) ? user.locale : DEFAULT_LOCALE);
  const statusText = t(`admin.orders.status.${status}`);
  const lines = [
    t("admin.mail.greeting", { name: user.first_name }),
    "",
    t(`admin.mail.body.${status}`, { number, status: statusText }),
    t("admin.mail.total", { total: formatNaira(total) }),
    ...(note ? ["", t("admin.mail.note", { note })] : []),
    "",
    t("admin.mail.link", { url: `${config.publicUrl}${typeof to === "number" ? "/profile" : "/track"}` }),
    "",
    t("admin.mail.signature"),
  ];
  await queueMail(trx, {
    to: user.email,
    subject: t("admin.mail.subject", { number, status: statusText }),
    text: lines.join("\n"),
    kind: "order-status",
  });
  return true;
}
