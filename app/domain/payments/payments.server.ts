import type { Kysely } from "kysely";
import type { AppLoadContext } from "react-router";
import { type Db, isPostgres } from "~/db/client.server";
import type { Database } from "~/db/schema";
import type { PaymentStatus } from "~/db/schema";
import { PAYMENT_STATUSES } from "~/lib/admin";
import { translatorFor } from "~/platform/translations.server";
import { formatNaira } from "~/lib/money";
import { recordAudit } from "../backoffice/audit.server";
import { MAX_FEE_NAIRA, nairaText } from "../orders/delivery-admin.server";
import { queueMail } from "../operations/mail-outbox.server";
import { queueOrderMessage } from "../messages/notify.server";
import { giveBackSpent, refundedAsCredit } from "../credit/ledger.server";

/**
 * Whether an order is paid: unpaid -> paid -> refunded, apart from its fulfilment status. The owner
 * marks bank-transfer, pay-on-delivery and WhatsApp orders paid by hand; each change is one
 * conditional update (so two clicks, or two admins, apply it once) written with its audit entry.
 */

export { PAYMENT_STATUSES };

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === "string" && (PAYMENT_STATUSES as string[]).includes(value);
}

export type PaymentChangeResult =
  /** mail: "queued" when the customer's 'payment received' e-mail was written with the change */
  | { ok: true; mail: "queued" | "none" }
  | { ok: false; error: "notFound" | "notAllowed" | "stale" | "partlyAsCredit" };

interface PaymentRow {
  id: number;
  number: string;
  status: string;
  payment_status: PaymentStatus;
  payment_method: string | null;
  user_id: number | null;
  total: number;
  store_credit: number;
  gift_card: number;
}

/** The order's payment facts; `lock`: its row locked for the rest of the transaction (PostgreSQL). */
async function paymentRow(db: Db, number: string, { lock = false } = {}): Promise<PaymentRow | undefined> {
  const q = db
    .selectFrom("orders")
    .select(["id", "number", "status", "payment_status", "payment_method", "user_id", "total", "store_credit", "gift_card"])
    .where("number", "=", number);
  return (lock && isPostgres(db) ? q.forUpdate() : q).executeTakeFirst();
}

/** What store credit and a gift card left to pay by the order's way to pay (docs/decisions/224). */
export function dueOf(order: { total: number; store_credit: number | null; gift_card: number | null }): number {
  return Number(order.total) - Number(order.store_credit ?? 0) - Number(order.gift_card ?? 0);
}

/**
 * Refunding a whole order after part of it was refunded as store credit would pay that part twice:
 * the rest is refunded as store credit too (docs/decisions/224).
 */
export async function partlyRefundedAsCredit(db: Db, orderId: number): Promise<boolean> {
  return (await refundedAsCredit(db, orderId)) > 0;
}

/**
 * The one way an order's payment status moves: a conditional update from `from` to `to` (so of two
 * callers at the same moment exactly one wins), stamping paid_at or refunded_at, with the owner's
 * audit entry when an admin made the change. False, with nothing written, when the order was no
 * longer in `from`. Runs inside the caller's transaction.
 */
export async function movePaymentStatus(
  trx: Kysely<Database>,
  input: {
    order: { id: number; number: string };
    from: PaymentStatus;
    to: Exclude<PaymentStatus, "unpaid">;
    /** Paystack's reference and channel, when Paystack settled it */
    paystack?: { reference: string; channel: string | null };
    /** the admin who made the change; none when Paystack did */
    actorId?: number;
    /** more to say in the audit entry */
    audit?: Record<string, [unknown, unknown]>;
  },
): Promise<boolean> {
  const at = new Date().toISOString();
  const changed = await trx
    .updateTable("orders")
    .set({
      payment_status: input.to,
      ...(input.to === "paid" ? { paid_at: at } : { refunded_at: at }),
      ...(input.paystack ? { payment_reference: input.paystack.reference, payment_channel: input.paystack.channel } : {}),
      updated_at: at,
    })
    .where("id", "=", input.order.id)
    .where("payment_status", "=", input.from)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) return false;
  if (input.actorId !== undefined) {
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "update",
      entity: "order",
      entityId: input.order.id,
      summary: input.order.number,
      changes: { paymentStatus: [input.from, input.to], ...input.audit },
    });
  }
  return true;
}

/** Online payments are settled by Paystack (callback, webhook, re-check), never by hand. */
export function canMarkPaid(order: { status: string; paymentStatus: PaymentStatus; paymentMethod: string | null }): boolean {
  return order.paymentStatus === "unpaid" && order.status !== "cancelled" && order.paymentMethod !== "paystack";
}

/** The owner records a bank transfer or cash/POS payment (or one agreed in a WhatsApp chat). */
export async function markOrderPaid(
  context: Pick<AppLoadContext, "db" | "config">,
  input: { number: string; actorId: number },
): Promise<PaymentChangeResult> {
  const result = await context.db.transaction().execute(async (trx) => {
    const order = await paymentRow(trx, input.number);
    if (!order) return { ok: false as const, error: "notFound" as const };
    if (order.payment_status !== "unpaid") return { ok: false as const, error: "stale" as const };
    if (!canMarkPaid({ status: order.status, paymentStatus: order.payment_status, paymentMethod: order.payment_method })) {
      return { ok: false as const, error: "notAllowed" as const };
    }
    if (!(await movePaymentStatus(trx, { order, from: "unpaid", to: "paid", actorId: input.actorId }))) return { ok: false as const, error: "stale" as const };
    return { ok: true as const, mail: await queuePaymentReceived(trx, context.config, order) };
  });
  return result;
}

/** A refund the owner made outside the shop (cash back, a transfer): recorded, nothing is sent anywhere. */
export async function recordRefund(
  context: Pick<AppLoadContext, "db">,
  input: { number: string; actorId: number },
): Promise<PaymentChangeResult> {
  return context.db.transaction().execute(async (trx) => {
    // Locked: a refund as store credit of this order at the same time waits (it locks the order too).
    const order = await paymentRow(trx, input.number, { lock: true });
    if (!order) return { ok: false as const, error: "notFound" as const };
    if (order.payment_status !== "paid") return { ok: false as const, error: "stale" as const };
    // Paystack's payments are refunded through Paystack; an order store credit and a gift card paid wholly never reached it.
    if (order.payment_method === "paystack" && dueOf(order) > 0) return { ok: false as const, error: "notAllowed" as const };
    if (await partlyRefundedAsCredit(trx, order.id)) return { ok: false as const, error: "partlyAsCredit" as const };
    if (!(await movePaymentStatus(trx, { order, from: "paid", to: "refunded", actorId: input.actorId }))) return { ok: false as const, error: "stale" as const };
    // What store credit and a gift card paid goes back to them, in this transaction (docs/decisions/224).
    await giveBackSpent(trx, order.id, new Date().toISOString());
    return { ok: true as const, mail: "none" as const };
  });
}

/**
 * 'Payment received' to the customer, when the order has an account: queued in the transaction that
 * marks the order paid, so it goes out exactly when the payment is recorded (and once).
 */
export async function queuePaymentReceived(
  trx: Kysely<Database>,
  config: Pick<AppLoadContext["config"], "publicUrl"> & Partial<Pick<AppLoadContext["config"], "messaging">>,
  order: { number: string; user_id: number | null; total: number; store_credit: number | null; gift_card: number | null },
): Promise<"queued" | "none"> {
  // By WhatsApp and SMS too, as the owner chose, to the order's number (docs/decisions/220).
  if (config.messaging) await queueOrderMessage(trx, { messaging: config.messaging, publicUrl: config.publicUrl }, "payment-received", order.number);
  if (!order.user_id) return "none";
  const user = await trx.selectFrom("users").select(["email", "first_name"]).where("id", "=", order.user_id).executeTakeFirst();
  if (!user) return "none";
  // The payment received: what store credit and a gift card left to pay (docs/decisions/224).
  const message = paymentReceivedEmail(user.first_name, order.number, dueOf(order), `${config.publicUrl}/orders/${order.number}`);
  await queueMail(trx, { to: user.email, ...message, kind: "payment-received" });
  return "queued";
}

export function paymentReceivedEmail(firstName: string, number: string, total: number, url: string): { subject: string; text: string } {
  // Accounts keep no language yet, so order e-mails are in English (as the status e-mails are).
  const t = translatorFor("en");
  return {
    subject: t("mail.paymentReceived.subject", { number }),
    text: [
      t("account.email.greeting", { name: firstName }),
      "",
      t("mail.paymentReceived.body", { number, total: formatNaira(total) }),
      "",
      t("account.email.follow", { url }),
      "",
      t("account.email.signature"),
      "",
    ].join("\n"),
  };
}

/** Orders whose delivery was arranged in a chat (WhatsApp) get their fee from the owner while unpaid. */
export function canSetDeliveryFee(order: { deliveryMethod: string | null; paymentStatus: PaymentStatus; status: string }): boolean {
  return order.deliveryMethod === null && order.paymentStatus === "unpaid" && order.status !== "cancelled" && order.status !== "delivered";
}

export type DeliveryFeeResult = { ok: true; fee: number } | { ok: false; error: "notFound" | "notAllowed" | "stale" | "invalid" };

/** Sets the fee agreed in the chat: the total becomes the items plus the fee, with an audit entry. */
export async function setDeliveryFee(
  context: Pick<AppLoadContext, "db">,
  input: { number: string; fee: string; actorId: number },
): Promise<DeliveryFeeResult> {
  const fee = nairaText(input.fee.slice(0, 40), MAX_FEE_NAIRA);
  if (typeof fee !== "number") return { ok: false, error: "invalid" };
  return context.db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom("orders")
      .select(["id", "number", "status", "payment_status", "delivery_method", "subtotal", "shipping", "total"])
      .where("number", "=", input.number)
      .executeTakeFirst();
    if (!order) return { ok: false as const, error: "notFound" as const };
    if (!canSetDeliveryFee({ deliveryMethod: order.delivery_method, paymentStatus: order.payment_status, status: order.status })) {
      return { ok: false as const, error: "notAllowed" as const };
    }
    const total = Number(order.subtotal) + fee;
    const changed = await trx
      .updateTable("orders")
      .set({ shipping: fee, total, updated_at: new Date().toISOString() })
      .where("id", "=", order.id)
      .where("payment_status", "=", "unpaid")
      .where("shipping", "=", order.shipping)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) return { ok: false as const, error: "stale" as const };
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "update",
      entity: "order",
      entityId: order.id,
      summary: order.number,
      changes: { shipping: [Number(order.shipping), fee], total: [Number(order.total), total] },
    });
    return { ok: true as const, fee };
  });
}
