import { sql, type Transaction } from "kysely";
import { isPostgres } from "~/db/client.server";
import type { Database } from "~/db/schema";
import { type Config, DEFAULT_HOLDS } from "~/platform/config.server";

/**
 * What unpaid orders may hold (docs/decisions/213). A checkout order takes its stock when it is placed
 * and gives it back only when it is paid for, confirmed, cancelled or expired; so that nobody can sell
 * out a perfume with orders they never mean to pay for, the units held are bounded three ways, all
 * decided here from the database inside the transaction that places the order:
 *
 * - one order takes at most `perProduct` units of one product (all its sizes together);
 * - the account's unpaid pending checkout orders, with this one, hold at most `perAccount` units;
 * - the unpaid pending checkout orders placed from the same client address, whatever account placed
 *   them, hold at most `perIp` units (many accounts from one address share it).
 *
 * "Held" means status `pending` and payment `unpaid`: once the owner confirms an order (moves it on
 * from pending) or it is paid, it no longer counts. WhatsApp orders hold nothing while pending (the
 * owner takes their stock when confirming them: decision 032) and are not counted.
 */

export type HoldLimits = Config["holds"];

export { DEFAULT_HOLDS };

export type HoldProblem =
  /** more than `limit` units of one product in one order */
  | { problem: "overLimit"; productName: string; limit: number }
  /** the account's (or the address's) unpaid orders would hold more than `limit` units */
  | { problem: "tooManyHeld"; held: number; limit: number; by: "account" | "guest" | "ip" };

interface Line {
  productId: number;
  name: string;
  quantity: number;
}

/** The first product of which the order asks for more than one order may take, or null. */
export function overProductLimit(lines: Line[], limits: HoldLimits): HoldProblem | null {
  const byProduct = new Map<number, { name: string; quantity: number }>();
  for (const line of lines) {
    const had = byProduct.get(line.productId);
    byProduct.set(line.productId, { name: had?.name ?? line.name, quantity: (had?.quantity ?? 0) + line.quantity });
  }
  for (const { name, quantity } of byProduct.values()) {
    if (quantity > limits.perProduct) return { problem: "overLimit", productName: name, limit: limits.perProduct };
  }
  return null;
}

/** Units held by unpaid pending checkout orders of this account, of this guest (e-mail or phone), or placed from this address. */
async function heldUnits(trx: Transaction<Database>, by: { userId: number } | { ip: string } | { email: string; phone: string }): Promise<number> {
  const row = await trx
    .selectFrom("orders")
    .innerJoin("order_items", "order_items.order_id", "orders.id")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("order_items.quantity"), eb.lit(0)).as("units"))
    .where("orders.status", "=", "pending")
    .where("orders.payment_status", "=", "unpaid")
    .where("orders.channel", "=", "checkout")
    .$if("userId" in by, (qb) => qb.where("orders.user_id", "=", (by as { userId: number }).userId))
    .$if("ip" in by, (qb) => qb.where("orders.placed_from", "=", (by as { ip: string }).ip))
    .$if("email" in by, (qb) => {
      const guest = by as { email: string; phone: string };
      return qb.where((eb) => eb.or([eb("orders.email", "=", guest.email), eb("orders.phone", "=", guest.phone)]));
    })
    .executeTakeFirstOrThrow();
  return Number(row.units);
}

/**
 * Whether a new order of `units` units may be placed by this account from this address. Call it inside
 * the order's transaction, after the account's cart is locked (which serialises the account's own
 * checkouts): here the address is locked too, so orders from one address by several accounts at once
 * are counted one after another. On SQLite the transaction already holds the database's write lock.
 */
export async function checkHolds(
  trx: Transaction<Database>,
  who: { userId: number; ip: string | null } | { userId: null; email: string; phone: string; ip: string | null },
  units: number,
  limits: HoldLimits,
): Promise<HoldProblem | null> {
  // A guest (docs/decisions/217) is capped like an account, by the e-mail and the phone the order
  // gives (both locked by openGuestOrders earlier in the transaction).
  if (who.userId === null) {
    const guest = await heldUnits(trx, { email: who.email, phone: who.phone });
    if (guest + units > limits.perAccount) return { problem: "tooManyHeld", held: guest, limit: limits.perAccount, by: "guest" };
  } else {
    const account = await heldUnits(trx, { userId: who.userId });
    if (account + units > limits.perAccount) return { problem: "tooManyHeld", held: account, limit: limits.perAccount, by: "account" };
  }
  if (who.ip) {
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${`order-holds:${who.ip}`}))`.execute(trx);
    const fromIp = await heldUnits(trx, { ip: who.ip });
    if (fromIp + units > limits.perIp) return { problem: "tooManyHeld", held: fromIp, limit: limits.perIp, by: "ip" };
  }
  return null;
}
