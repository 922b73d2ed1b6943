import type { AppLoadContext } from "react-router";
import type { Config } from "~/platform/config.server";
import { DEFAULT_LOCALE } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { formatNaira } from "~/lib/money";
import { queueMail } from "../operations/mail-outbox.server";
import { dueOf, movePaymentStatus, partlyRefundedAsCredit, queuePaymentReceived, recordRefund } from "./payments.server";
import { giveBackSpent } from "../credit/ledger.server";
import { initializeTransaction, PaystackError, refundTransaction, verifyTransaction, type PaystackConfig } from "./paystack.server";

/**
 * Paying online with Paystack (docs/decisions/101). The order is placed first (stock taken, pending,
 * unpaid); then a transaction is initialised for the order's total read from the database, with the
 * order number as reference (UB-10042; a later attempt UB-10042-2, as Paystack wants a new reference
 * per transaction). The order is marked paid only after Paystack's verify endpoint says success, in
 * NGN, for exactly the order's total, whichever of the callback, the webhook or the background check
 * asks first; the mark is one conditional update, so the others change nothing and send no second
 * e-mail.
 */

type Context = Pick<AppLoadContext, "db" | "config">;

const REFERENCE = /^(UB-\d{5,12})(?:-(\d{1,3}))?$/;
/** Online orders still unpaid this long after they were placed, or last checked, are asked about again. */
export const RECHECK_AFTER_MS = 15 * 60_000;

export function paystackConfig(config: Pick<Config, "paystack">): PaystackConfig | null {
  return config.paystack ? { secretKey: config.paystack.secretKey, apiUrl: config.paystack.apiUrl } : null;
}

/** The order a Paystack reference belongs to, or null when it is not one of ours. */
export function orderNumberOfReference(reference: unknown): string | null {
  if (typeof reference !== "string") return null;
  return REFERENCE.exec(reference)?.[1] ?? null;
}

function nextReference(number: string, previous: string | null): string {
  if (!previous) return number;
  const attempt = Number(REFERENCE.exec(previous)?.[2] ?? "1");
  return `${number}-${attempt + 1}`;
}

export type StartPaymentResult =
  | { ok: true; url: string }
  | { ok: false; error: "notFound" | "notPayable" | "unavailable" | "notConfigured" };

/**
 * Where the shopper goes on to pay an order online: the Paystack page started for it, while the order is
 * unpaid and not cancelled; null otherwise (then the order's own page is shown). The order is named by
 * its number and its owner (an account's 'Pay now') or by its id (found by its private link).
 */
export async function pendingPaymentUrl(db: Context["db"], order: { number: string; userId: number } | { id: number }): Promise<{ number: string; url: string | null } | null> {
  const row = await db
    .selectFrom("orders")
    .select(["number", "payment_url", "payment_status", "status"])
    .$if("id" in order, (qb) => qb.where("id", "=", (order as { id: number }).id))
    .$if(!("id" in order), (qb) => qb.where("number", "=", (order as { number: string }).number).where("user_id", "=", (order as { userId: number }).userId))
    .executeTakeFirst();
  if (!row) return null;
  const payable = row.payment_status === "unpaid" && row.status !== "cancelled" && row.payment_url !== null && /^https?:\/\//.test(row.payment_url);
  return { number: row.number, url: payable ? row.payment_url : null };
}

/** Initialises a Paystack transaction for one of the shopper's unpaid online orders. */
export async function startOnlinePayment(
  context: Context,
  input: { number: string; userId: number } | { number: string; viaLink: { callbackPath: string } },
): Promise<StartPaymentResult> {
  const paystack = paystackConfig(context.config);
  if (!paystack) return { ok: false, error: "notConfigured" };
  // An account's own order; or, for a private link's holder (docs/decisions/217), the order the link
  // opened (the caller found it by the link), whose e-mail is the guest's or its account's.
  const order = await context.db
    .selectFrom("orders as o")
    .leftJoin("users as u", "u.id", "o.user_id")
    .select((eb) => ["o.id", "o.number", "o.total", "o.store_credit", "o.gift_card", "o.status", "o.payment_status", "o.payment_method", "o.payment_reference", eb.fn.coalesce("u.email", "o.email").as("email")])
    .where("o.number", "=", input.number)
    .$if("userId" in input, (qb) => qb.where("o.user_id", "=", (input as { userId: number }).userId))
    .executeTakeFirst();
  if (!order) return { ok: false, error: "notFound" };
  if (order.payment_method !== "paystack" || order.payment_status !== "unpaid" || order.status === "cancelled" || !order.email) return { ok: false, error: "notPayable" };
  const reference = nextReference(order.number, order.payment_reference);
  try {
    const started = await initializeTransaction(paystack, {
      email: order.email,
      // What store credit and a gift card did not pay (docs/decisions/224).
      amount: dueOf(order),
      reference,
      // A guest comes back to the order's private page, the only page of the order they can open.
      callbackUrl: `${context.config.publicUrl}${"viaLink" in input ? input.viaLink.callbackPath : "/payments/paystack/callback"}`,
      orderNumber: order.number,
    });
    await context.db
      .updateTable("orders")
      .set({ payment_reference: started.reference, payment_url: started.authorizationUrl, updated_at: new Date().toISOString() })
      .where("id", "=", order.id)
      .where("payment_status", "=", "unpaid")
      .execute();
    return { ok: true, url: started.authorizationUrl };
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    console.error(`order ${order.number}: Paystack initialize failed:`, error.message);
    return { ok: false, error: "unavailable" };
  }
}

export type SettleOutcome =
  /** this call marked the order paid */
  | "paid"
  | "alreadyPaid"
  /** Paystack says the transaction has not succeeded (abandoned, failed, ...) */
  | "notPaid"
  /** success, but not NGN or not the order's total: never marked paid */
  | "mismatch"
  /** not one of our orders */
  | "unknown"
  /** Paystack could not be asked (down, timeout, malformed answer) */
  | "unavailable";

/**
 * Asks Paystack about a reference and marks its order paid when, and only when, Paystack says success
 * for the order's total in naira. Safe to call any number of times, at the same moment too.
 */
export async function settlePaystackReference(context: Context, reference: string, source: "callback" | "webhook" | "recheck"): Promise<SettleOutcome> {
  const paystack = paystackConfig(context.config);
  const number = orderNumberOfReference(reference);
  if (!paystack || !number) {
    console.warn(`Paystack ${source}: reference ${JSON.stringify(reference).slice(0, 60)} is not one of ours; ignored`);
    return "unknown";
  }
  const order = await context.db.selectFrom("orders").select(["id", "number", "total", "store_credit", "gift_card", "payment_status", "user_id", "status"]).where("number", "=", number).executeTakeFirst();
  if (!order) {
    console.warn(`Paystack ${source}: no order ${number} for reference ${reference}; ignored`);
    return "unknown";
  }
  if (order.payment_status !== "unpaid") return "alreadyPaid";
  let transaction;
  try {
    transaction = await verifyTransaction(paystack, reference);
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    console.error(`order ${number}: Paystack verify (${source}) failed:`, error.message);
    return error.kind === "refused" && error.httpStatus === 400 ? "unknown" : "unavailable";
  }
  if (transaction.reference !== reference) {
    console.warn(`order ${number}: Paystack verified another reference (${transaction.reference}); ignored`);
    return "mismatch";
  }
  if (transaction.status !== "success") return "notPaid";
  // Paystack was asked for what store credit and a gift card left due (docs/decisions/224).
  const due = dueOf(order);
  if (transaction.currency !== "NGN" || transaction.amount !== due) {
    console.warn(`order ${number}: Paystack says ${transaction.amount} ${transaction.currency}, ${due} NGN is due; not marked paid`);
    return "mismatch";
  }
  // The mark and its e-mail in one transaction: whichever caller wins sends the one message.
  const won = await context.db.transaction().execute(async (trx) => {
    const marked = await movePaymentStatus(trx, { order, from: "unpaid", to: "paid", paystack: { reference, channel: transaction.channel } });
    if (!marked) return false;
    await queuePaymentReceived(trx, context.config, order);
    // Money for an order that was cancelled meanwhile (it expired unpaid, or the owner cancelled it):
    // recorded as paid, and the owner is told at once to refund it or bring it back.
    const now = await trx.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
    if (now.status === "cancelled") {
      console.warn(`order ${number} was paid online after it was cancelled: refund it or restore it`);
      const t = translatorFor(DEFAULT_LOCALE);
      const link = `${context.config.publicUrl}/admin/orders/${encodeURIComponent(number)}`;
      for (const to of context.config.shop.ownerEmails) {
        await queueMail(trx, {
          to,
          subject: t("mail.paidAfterCancel.subject", { number }),
          text: t("mail.paidAfterCancel.body", { number, total: formatNaira(Number(order.total)), link }),
          kind: "paid-after-cancel",
        });
      }
    }
    return true;
  });
  if (!won) return "alreadyPaid";
  return "paid";
}

/**
 * The background check: online orders still unpaid 15 minutes after they were placed (a lost webhook,
 * a closed tab) are verified again, each at most every 15 minutes. Claiming an order is a conditional
 * update, so several servers never ask about the same one at once.
 */
export async function recheckUnpaidOnlinePayments(context: Context, now = new Date(), limit = 20): Promise<Record<SettleOutcome, number>> {
  const counts: Record<SettleOutcome, number> = { paid: 0, alreadyPaid: 0, notPaid: 0, mismatch: 0, unknown: 0, unavailable: 0 };
  if (!paystackConfig(context.config)) return counts;
  const cutoff = new Date(now.getTime() - RECHECK_AFTER_MS).toISOString();
  const due = await context.db
    .selectFrom("orders")
    .select(["id", "payment_reference", "payment_checked_at"])
    .where("payment_method", "=", "paystack")
    .where("payment_status", "=", "unpaid")
    .where("status", "!=", "cancelled")
    .where("payment_reference", "is not", null)
    .where("created_at", "<=", cutoff)
    .where((eb) => eb.or([eb("payment_checked_at", "is", null), eb("payment_checked_at", "<=", cutoff)]))
    .orderBy("created_at")
    .limit(limit)
    .execute();
  for (const order of due) {
    let claim = context.db.updateTable("orders").set({ payment_checked_at: now.toISOString() }).where("id", "=", order.id);
    claim = order.payment_checked_at === null ? claim.where("payment_checked_at", "is", null) : claim.where("payment_checked_at", "=", order.payment_checked_at);
    if (Number((await claim.executeTakeFirst()).numUpdatedRows) !== 1) continue;
    counts[await settlePaystackReference(context, order.payment_reference!, "recheck")]++;
  }
  return counts;
}

export type RefundResult = { ok: true } | { ok: false; error: "notFound" | "stale" | "notAllowed" | "unavailable" | "partlyAsCredit" };

/** Refunds a paid Paystack order through Paystack, then records it; nothing changes if Paystack says no. */
export async function refundOnlineOrder(context: Context, input: { number: string; actorId: number }): Promise<RefundResult> {
  const paystack = paystackConfig(context.config);
  const order = await context.db.selectFrom("orders").select(["id", "number", "payment_status", "payment_method", "payment_reference"]).where("number", "=", input.number).executeTakeFirst();
  if (!order) return { ok: false, error: "notFound" };
  if (order.payment_method !== "paystack" || !order.payment_reference || !paystack) return { ok: false, error: "notAllowed" };
  if (order.payment_status !== "paid") return { ok: false, error: "stale" };
  // Part refunded as store credit already: Paystack would give the whole payment back on top of it.
  if (await partlyRefundedAsCredit(context.db, order.id)) return { ok: false, error: "partlyAsCredit" };
  try {
    await refundTransaction(paystack, order.payment_reference);
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    console.error(`order ${order.number}: Paystack refund failed:`, error.message);
    return { ok: false, error: "unavailable" };
  }
  return context.db.transaction().execute(async (trx) => {
    const moved = await movePaymentStatus(trx, {
      order,
      from: "paid",
      to: "refunded",
      actorId: input.actorId,
      audit: { paystackRefund: [null, order.payment_reference] },
    });
    // Paystack gave back what it took; store credit and a gift card get back what they paid (docs/decisions/224).
    if (moved) await giveBackSpent(trx, order.id, new Date().toISOString());
    return moved ? { ok: true as const } : { ok: false as const, error: "stale" as const };
  });
}

/**
 * The staff's refund of a paid order: one paid through Paystack is refunded through Paystack
 * (`online`); one paid otherwise (transfer, on delivery) has its refund, made by hand, recorded. What
 * store credit and a gift card paid goes back to them either way.
 */
export async function refundOrder(context: Context, input: { number: string; actorId: number }): Promise<{ result: RefundResult; online: boolean }> {
  const order = await context.db.selectFrom("orders").select(["payment_method", "total", "store_credit", "gift_card"]).where("number", "=", input.number).executeTakeFirst();
  // An order store credit and a gift card paid wholly never reached Paystack: its refund is theirs alone.
  const online = order?.payment_method === "paystack" && dueOf(order) > 0;
  return { result: online ? await refundOnlineOrder(context, input) : await recordRefund(context, input), online };
}
