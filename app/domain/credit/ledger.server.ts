import { type RawBuilder, sql } from "kysely";
import { type Db, isPostgres } from "~/db/client.server";
import type { CreditReason } from "~/db/schema";

/**
 * The ledger's writing parts (docs/decisions/224), with nothing but the database below them: the
 * server's timers (unpaid-order expiry) give credit back through here without loading the rest.
 */

/** Locks the holder for the rest of the transaction (PostgreSQL; SQLite's transactions are one at a time). */
export async function lockHolder(trx: Db, holder: { userId: number } | { giftCardId: number }): Promise<boolean> {
  if ("userId" in holder) {
    const q = trx.selectFrom("users").select("id").where("id", "=", holder.userId);
    return !!(await (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst());
  }
  const q = trx.selectFrom("gift_cards").select("id").where("id", "=", holder.giftCardId);
  return !!(await (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst());
}

export interface LedgerRow {
  amount: number;
  reason: CreditReason;
  orderId?: number | null;
  actorId?: number | null;
  note?: string | null;
  at?: string;
}

export async function addRow(trx: Db, holder: { userId: number } | { giftCardId: number }, row: LedgerRow): Promise<void> {
  await trx
    .insertInto("credit_ledger")
    .values({
      user_id: "userId" in holder ? holder.userId : null,
      gift_card_id: "giftCardId" in holder ? holder.giftCardId : null,
      amount: row.amount,
      reason: row.reason,
      order_id: row.orderId ?? null,
      actor_id: row.actorId ?? null,
      note: row.note ?? null,
      created_at: row.at ?? new Date().toISOString(),
    })
    .execute();
}

/** Kobo of the order refunded as store credit so far (docs/decisions/224). */
export async function refundedAsCredit(trx: Db, orderId: number): Promise<number> {
  const row = await trx
    .selectFrom("credit_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("refunded"))
    .where("order_id", "=", orderId)
    .where("reason", "=", "refund")
    .executeTakeFirstOrThrow();
  return Number(row.refunded);
}

/**
 * A cancelled, expired or refunded order gives back what its credit and gift card paid, once (in the
 * transaction that cancels or refunds it), less what the owner already refunded of it as credit.
 */
export async function giveBackSpent(trx: Db, orderId: number, at: string): Promise<void> {
  const rows = await trx.selectFrom("credit_ledger").select(["user_id", "gift_card_id", "amount", "reason"]).where("order_id", "=", orderId).execute();
  if (rows.some((r) => r.reason === "returned")) return;
  let refunded = rows.filter((r) => r.reason === "refund").reduce((sum, r) => sum + Number(r.amount), 0);
  // The account's credit first (a refund as credit went there), then the gift card.
  const spent = rows.filter((r) => r.reason === "spent").sort((a, b) => (a.user_id === null ? 1 : 0) - (b.user_id === null ? 1 : 0));
  for (const row of spent) {
    const back = Math.max(0, -Number(row.amount) - refunded);
    refunded = Math.max(0, refunded + Number(row.amount));
    if (back === 0) continue;
    const holder = row.user_id !== null ? { userId: row.user_id } : { giftCardId: row.gift_card_id! };
    await lockHolder(trx, holder);
    await addRow(trx, holder, { amount: back, reason: "returned", orderId, at });
  }
}

/**
 * What of the order in the query's `orders` row was refunded as store credit (kobo, 0 when nothing):
 * the dashboard's revenue leaves it out (docs/decisions/224).
 */
export function refundedAsCreditOfOrder(): RawBuilder<number> {
  return sql<number>`coalesce((select sum(refunds.amount) from credit_ledger as refunds where refunds.order_id = orders.id and refunds.reason = 'refund'), 0)`;
}
