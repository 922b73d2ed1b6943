import type { Db } from "~/db/client.server";
import type { PromotionKind, PromotionTargetKind } from "~/db/schema";

/**
 * Discount codes (docs/decisions/219). This module owns every rule about them: whether a code applies
 * to these lines for this customer now, how much it takes off (to the kobo), and the count of uses,
 * which is raised inside the order's transaction by a conditional update that can never pass the
 * code's limit, and given back when the order is cancelled or expires unpaid.
 *
 * The order of application: sale prices are already the sizes' prices; the code is applied to the
 * goods at those prices; the delivery fee is quoted on what is left; a free-delivery code makes the
 * fee of a delivery 0 (pick-up costs nothing anyway).
 */

export type CodeReason =
  /** no such code */
  | "unknown"
  /** the owner paused it */
  | "paused"
  | "notStarted"
  | "expired"
  /** the goods come to less than its minimum */
  | "minimum"
  /** its total limit of uses is reached */
  | "usedUp"
  /** nothing in the cart is something it is for (or everything is on sale and it does not combine) */
  | "notForItems"
  /** this customer has used it as often as one customer may */
  | "alreadyUsed"
  /** limited per customer, and the customer is not known (an anonymous WhatsApp order) */
  | "needsCustomer";

export interface PromotionTarget {
  kind: PromotionTargetKind;
  targetId: number;
}

export interface Promotion {
  id: number;
  code: string;
  kind: PromotionKind;
  /** whole per cent for 'percent', kobo for 'fixed', 0 for 'free_delivery' */
  value: number;
  minSubtotal: number | null;
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  combinesWithSale: boolean;
  uses: number;
  pausedAt: string | null;
  targets: PromotionTarget[];
}

/** A line the shopper is buying, at the price charged now (kobo). */
export interface CodeLine {
  productId: number;
  sizeId: number;
  unitPrice: number;
  quantity: number;
}

/** Who is using a code: an account, and the order's e-mail and phone (how a guest is known). */
export interface CodeCustomer {
  userId: number | null;
  email: string | null;
  phone: string | null;
}

export type CodeOutcome =
  | { ok: true; code: string; promotion: Promotion; discount: number; freeDelivery: boolean }
  | { ok: false; code: string; reason: CodeReason; minimum?: number; promotion?: Promotion };

const CODE_PATTERN = /^[A-Za-z0-9_-]{2,40}$/;

/** The code as matched (lower case), or null when it cannot be a code at all. */
export function codeKey(raw: string): string | null {
  const code = raw.trim();
  return CODE_PATTERN.test(code) ? code.toLowerCase() : null;
}

type PromotionRow = {
  id: number;
  code: string;
  kind: PromotionKind;
  value: number;
  min_subtotal: number | null;
  starts_at: string | null;
  ends_at: string | null;
  usage_limit: number | null;
  per_customer_limit: number | null;
  combines_with_sale: number;
  uses: number;
  paused_at: string | null;
};

export function promotionFromRow(row: PromotionRow, targets: PromotionTarget[]): Promotion {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    value: Number(row.value),
    minSubtotal: row.min_subtotal === null ? null : Number(row.min_subtotal),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    usageLimit: row.usage_limit,
    perCustomerLimit: row.per_customer_limit,
    combinesWithSale: Number(row.combines_with_sale) === 1,
    uses: Number(row.uses),
    pausedAt: row.paused_at,
    targets,
  };
}

const PROMOTION_COLUMNS = [
  "id",
  "code",
  "kind",
  "value",
  "min_subtotal",
  "starts_at",
  "ends_at",
  "usage_limit",
  "per_customer_limit",
  "combines_with_sale",
  "uses",
  "paused_at",
] as const;

/** The promotion with this code (any case), with what it is restricted to; null when there is none. */
export async function findPromotionByCode(db: Db, raw: string): Promise<Promotion | null> {
  const key = codeKey(raw);
  if (!key) return null;
  const row = await db.selectFrom("promotions").select(PROMOTION_COLUMNS).where("code_key", "=", key).executeTakeFirst();
  if (!row) return null;
  const targets = await db.selectFrom("promotion_targets").select(["kind", "target_id"]).where("promotion_id", "=", row.id).execute();
  return promotionFromRow(row, targets.map((t) => ({ kind: t.kind, targetId: t.target_id })));
}

/** What the rules need to know of each size bought: its product's category and brand, and whether it is on sale. */
export interface LineFacts {
  categoryId: number;
  brandId: number;
  onSale: boolean;
}

async function lineFacts(db: Db, lines: CodeLine[]): Promise<Map<number, LineFacts>> {
  const sizeIds = [...new Set(lines.map((l) => l.sizeId))];
  if (sizeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("product_sizes as s")
    .innerJoin("products as p", "p.id", "s.product_id")
    .select(["s.id", "s.discount", "p.category_id", "p.brand_id"])
    .where("s.id", "in", sizeIds)
    .execute();
  return new Map(rows.map((r) => [r.id, { categoryId: r.category_id, brandId: r.brand_id, onSale: Number(r.discount ?? 0) > 0 }]));
}

function isFor(promotion: Promotion, line: CodeLine, facts: LineFacts | undefined): boolean {
  if (!facts) return false;
  if (facts.onSale && !promotion.combinesWithSale) return false;
  if (promotion.targets.length === 0) return true;
  return promotion.targets.some(
    (t) =>
      (t.kind === "product" && t.targetId === line.productId) ||
      (t.kind === "category" && t.targetId === facts.categoryId) ||
      (t.kind === "brand" && t.targetId === facts.brandId),
  );
}

/**
 * The rules, on facts already read: whether the promotion applies to these lines at `at`, and the
 * amount off. A percentage is of the goods it is for, rounded to the nearest kobo (half a kobo up); a
 * fixed amount is never more than those goods. `customerUses` is how often this customer holds a use.
 */
export function applyPromotion(
  promotion: Promotion,
  lines: CodeLine[],
  facts: Map<number, LineFacts>,
  at: string,
  customerUses: number | null,
): CodeOutcome {
  const fail = (reason: CodeReason, extra: { minimum?: number } = {}): CodeOutcome => ({ ok: false, code: promotion.code, reason, promotion, ...extra });
  if (promotion.pausedAt !== null) return fail("paused");
  if (promotion.startsAt !== null && at < promotion.startsAt) return fail("notStarted");
  if (promotion.endsAt !== null && at >= promotion.endsAt) return fail("expired");
  if (promotion.usageLimit !== null && promotion.uses >= promotion.usageLimit) return fail("usedUp");
  if (promotion.perCustomerLimit !== null && customerUses !== null && customerUses >= promotion.perCustomerLimit) return fail("alreadyUsed");
  const subtotal = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  if (promotion.minSubtotal !== null && subtotal < promotion.minSubtotal) return fail("minimum", { minimum: promotion.minSubtotal });
  const eligible = lines.filter((l) => isFor(promotion, l, facts.get(l.sizeId))).reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  if (eligible === 0) return fail("notForItems");
  const discount =
    promotion.kind === "percent"
      ? Math.min(eligible, Math.floor((eligible * Math.min(promotion.value, 100) + 50) / 100))
      : promotion.kind === "fixed"
        ? Math.min(eligible, promotion.value)
        : 0;
  return { ok: true, code: promotion.code, promotion, discount, freeDelivery: promotion.kind === "free_delivery" };
}

function hasIdentity(customer: CodeCustomer): boolean {
  return customer.userId !== null || !!customer.email || !!customer.phone;
}

/** Uses this customer holds now (not given back), by account, e-mail or phone. */
async function usesBy(db: Db, promotionId: number, customer: CodeCustomer): Promise<number> {
  if (!hasIdentity(customer)) return 0;
  const row = await db
    .selectFrom("promotion_uses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("promotion_id", "=", promotionId)
    .where("released_at", "is", null)
    .where((eb) =>
      eb.or([
        ...(customer.userId !== null ? [eb("user_id", "=", customer.userId)] : []),
        ...(customer.email ? [eb("email", "=", customer.email.toLowerCase())] : []),
        ...(customer.phone ? [eb("phone", "=", customer.phone)] : []),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Whether `code` applies to these lines for this customer now, read from the database. A null
 * customer (a visitor looking at the cart) is judged on everything but the limit per customer, which
 * is checked when the order is placed.
 */
export async function evaluateCode(db: Db, code: string, lines: CodeLine[], customer: CodeCustomer | null, at = new Date().toISOString()): Promise<CodeOutcome> {
  const promotion = await findPromotionByCode(db, code);
  if (!promotion) return { ok: false, code, reason: "unknown" };
  const [facts, customerUses] = await Promise.all([
    lineFacts(db, lines),
    customer && promotion.perCustomerLimit !== null ? usesBy(db, promotion.id, customer) : Promise.resolve(null),
  ]);
  return applyPromotion(promotion, lines, facts, at, customerUses);
}

/**
 * Takes one use of the code for an order being placed, inside that order's transaction: the count goes
 * up only while it is under the limit (a conditional update, so shoppers pressing at once can never
 * pass it: on PostgreSQL the row stays locked until the order commits), then the customer's own uses
 * are counted under that lock. Returns the reason when no use could be taken.
 */
export async function takeUse(trx: Db, promotion: Promotion, customer: CodeCustomer): Promise<CodeReason | null> {
  if (promotion.perCustomerLimit !== null && !hasIdentity(customer)) return "needsCustomer";
  const taken = await trx
    .updateTable("promotions")
    .set((eb) => ({ uses: eb("uses", "+", 1) }))
    .where("id", "=", promotion.id)
    .where("paused_at", "is", null)
    .where((eb) => eb.or([eb("usage_limit", "is", null), eb("uses", "<", eb.ref("usage_limit"))]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return "usedUp";
  if (promotion.perCustomerLimit !== null && (await usesBy(trx, promotion.id, customer)) >= promotion.perCustomerLimit) {
    // The caller's transaction is not rolled back for this: the count goes back down here.
    await trx.updateTable("promotions").set((eb) => ({ uses: eb("uses", "-", 1) })).where("id", "=", promotion.id).execute();
    return "alreadyUsed";
  }
  return null;
}

/** Records the use taken by takeUse against the order now written (same transaction). */
export async function recordUse(trx: Db, promotionId: number, orderId: number, customer: CodeCustomer, discount: number, at: string): Promise<void> {
  await trx
    .insertInto("promotion_uses")
    .values({
      promotion_id: promotionId,
      order_id: orderId,
      user_id: customer.userId,
      email: customer.email ? customer.email.toLowerCase() : null,
      phone: customer.phone,
      discount,
      created_at: at,
    })
    .execute();
}

/**
 * The order was cancelled or expired unpaid: its use of a code goes back, once (a conditional update
 * of the use, so a second cancellation gives nothing back twice). Call in the cancelling transaction.
 */
export async function giveBackUse(trx: Db, orderId: number, at: string): Promise<void> {
  const use = await trx.selectFrom("promotion_uses").select(["id", "promotion_id"]).where("order_id", "=", orderId).where("released_at", "is", null).executeTakeFirst();
  if (!use) return;
  const released = await trx.updateTable("promotion_uses").set({ released_at: at }).where("id", "=", use.id).where("released_at", "is", null).executeTakeFirst();
  if (Number(released.numUpdatedRows) !== 1) return;
  await trx
    .updateTable("promotions")
    .set((eb) => ({ uses: eb("uses", "-", 1) }))
    .where("id", "=", use.promotion_id)
    .where("uses", ">", 0)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The code a cart carries

/** The code entered on this cart, if any. */
export async function cartCode(db: Db, cartId: string | null): Promise<string | null> {
  if (!cartId) return null;
  const row = await db.selectFrom("carts").select("promotion_code").where("id", "=", cartId).executeTakeFirst();
  return row?.promotion_code ?? null;
}

export type EnterCodeResult = { ok: true; code: string } | { ok: false; reason: "unknown" | "invalid" };

/** Remembers a code on the cart when the shop has it (any case); its rules are judged each time the cart is read. */
export async function enterCode(db: Db, cartId: string, raw: string): Promise<EnterCodeResult> {
  if (!codeKey(raw)) return { ok: false, reason: raw.trim() === "" ? "invalid" : "unknown" };
  const promotion = await findPromotionByCode(db, raw);
  if (!promotion) return { ok: false, reason: "unknown" };
  await db.updateTable("carts").set({ promotion_code: promotion.code }).where("id", "=", cartId).execute();
  return { ok: true, code: promotion.code };
}

export async function removeCode(db: Db, cartId: string): Promise<void> {
  await db.updateTable("carts").set({ promotion_code: null }).where("id", "=", cartId).execute();
}

/** What the cart's code does to these lines (the discount, or why not); null when the cart has no code. */
export async function cartCodeOutcome(db: Db, cartId: string | null, lines: CodeLine[], customer: CodeCustomer | null): Promise<CodeOutcome | null> {
  const code = await cartCode(db, cartId);
  if (!code) return null;
  return evaluateCode(db, code, lines, customer);
}

/** A cart's code as its pages show it: the amount off, or the reason it does not apply. */
export interface CartCodeView {
  code: string;
  /** kobo off the goods (0 when it does not apply, or for free delivery) */
  discount: number;
  freeDelivery: boolean;
  reason: CodeReason | null;
  /** for reason 'minimum': the goods must come to this (kobo) */
  minimum: number | null;
}

export function codeView(outcome: CodeOutcome | null): CartCodeView | null {
  if (!outcome) return null;
  return outcome.ok
    ? { code: outcome.code, discount: outcome.discount, freeDelivery: outcome.freeDelivery, reason: null, minimum: null }
    : { code: outcome.code, discount: 0, freeDelivery: false, reason: outcome.reason, minimum: outcome.minimum ?? null };
}
