import { randomInt } from "node:crypto";
import { type Db, isPostgres } from "~/db/client.server";
import { addRow, lockHolder, refundedAsCredit } from "./ledger.server";
import type { CreditReason } from "~/db/schema";
import { recordAudit } from "../backoffice/audit.server";
import { movePaymentStatus } from "../payments/payments.server";

/**
 * Store credit and gift cards (docs/decisions/224). A balance is the sum of its ledger rows, never a
 * number written over: every movement (issued, refunded as credit, spent on an order, given back, a
 * manual change) is a row with who, when, why and which order. Spending happens inside the order's
 * transaction, under a lock on the holder (the account's row, the gift card's row), so two orders at
 * once never take more than the balance.
 */

/** ₦100,000,000: far above any perfume order, far below where kobo in an integer column would overflow. */
const MAX_NAIRA = 100_000_000;
const NOTE_MAX = 300;
const MESSAGE_MAX = 1000;

/** "₦15,000.50" → kobo; null for empty; NaN for anything else. */
export function nairaAmount(text: string): number | null {
  const cleaned = text.trim().replace(/^₦/, "").replace(/[,\s]/g, "");
  if (cleaned === "") return null;
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return Number.NaN;
  const value = Number(cleaned);
  return value > MAX_NAIRA ? Number.NaN : Math.round(value * 100);
}

// ---------------------------------------------------------------------------------------------------
// Gift card codes

/** No 0/O, 1/I/L: a code is read off an e-mail or a card and typed again. */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** 16 characters of 31: about 79 bits, so codes cannot be guessed (and unknown codes are rate limited). */
export function newGiftCardCode(): string {
  let out = "";
  for (let i = 0; i < 16; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out.match(/.{4}/g)!.join("-");
}

/** What a code is matched on: upper case, without spaces and dashes; null when it cannot be a code. */
export function giftCardKey(raw: string): string | null {
  const key = raw.toUpperCase().replace(/[\s-]/g, "");
  return /^[A-Z0-9]{8,32}$/.test(key) ? key : null;
}

// ---------------------------------------------------------------------------------------------------
// Balances and movements

export interface Movement {
  id: number;
  amount: number;
  reason: CreditReason;
  orderNumber: string | null;
  note: string | null;
  createdAt: string;
}

async function sumOf(db: Db, holder: { userId: number } | { giftCardId: number }): Promise<number> {
  const row = await db
    .selectFrom("credit_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("balance"))
    .$if("userId" in holder, (qb) => qb.where("user_id", "=", (holder as { userId: number }).userId))
    .$if("giftCardId" in holder, (qb) => qb.where("gift_card_id", "=", (holder as { giftCardId: number }).giftCardId))
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

export function creditBalance(db: Db, userId: number): Promise<number> {
  return sumOf(db, { userId });
}

/** The account's credit and its movements, newest first (the profile shows them). */
export async function creditStatement(db: Db, userId: number, limit = 50): Promise<{ balance: number; movements: Movement[] }> {
  const [balance, rows] = await Promise.all([
    creditBalance(db, userId),
    db
      .selectFrom("credit_ledger as l")
      .leftJoin("orders as o", "o.id", "l.order_id")
      .select(["l.id", "l.amount", "l.reason", "l.note", "l.created_at", "o.number"])
      .where("l.user_id", "=", userId)
      .orderBy("l.id", "desc")
      .limit(limit)
      .execute(),
  ]);
  return {
    balance,
    movements: rows.map((r) => ({ id: r.id, amount: Number(r.amount), reason: r.reason, orderNumber: r.number, note: r.note, createdAt: r.created_at })),
  };
}

// ---------------------------------------------------------------------------------------------------
// The owner's side: issuing credit, a manual change, a refund as credit

export type AdjustResult = { ok: true; balance: number } | { ok: false; error: "amount" | "note" | "notFound" | "belowZero" };

/**
 * The owner gives a customer credit (a positive amount) or takes some back (negative), always with a
 * note; never below zero. Audited with the balance before and after.
 */
export async function adjustCredit(db: Db, input: { userId: number; amount: number; note: string; actorId: number }): Promise<AdjustResult> {
  const note = input.note.trim().slice(0, NOTE_MAX);
  if (!Number.isInteger(input.amount) || input.amount === 0 || Math.abs(input.amount) > MAX_NAIRA * 100) return { ok: false, error: "amount" };
  if (!note) return { ok: false, error: "note" };
  return db.transaction().execute(async (trx): Promise<AdjustResult> => {
    const user = await trx.selectFrom("users").select(["id", "email", "role"]).where("id", "=", input.userId).executeTakeFirst();
    if (!user || user.role !== "customer" || !(await lockHolder(trx, { userId: user.id }))) return { ok: false, error: "notFound" };
    const before = await creditBalance(trx, user.id);
    if (before + input.amount < 0) return { ok: false, error: "belowZero" };
    await addRow(trx, { userId: user.id }, { amount: input.amount, reason: input.amount > 0 ? "issued" : "adjusted", actorId: input.actorId, note });
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "update",
      entity: "user",
      entityId: user.id,
      summary: user.email,
      changes: { storeCredit: [before, before + input.amount], note: [null, note] },
    });
    return { ok: true, balance: before + input.amount };
  });
}

export type RefundAsCreditResult =
  | { ok: true; refunded: number; balance: number }
  | { ok: false; error: "amount" | "notFound" | "guest" | "notPaid" | "tooMuch"; left?: number };

/** What of an order may still be refunded as credit: its total, less what was refunded as credit already. */
async function refundableAsCredit(trx: Db, order: { id: number; total: number }): Promise<number> {
  return Math.max(0, Number(order.total) - (await refundedAsCredit(trx, order.id)));
}

/** What of an order may still be refunded as credit, by its number (the order's admin page); 0 for a guest's. */
export async function refundableLeft(db: Db, number: string): Promise<number> {
  const order = await db.selectFrom("orders").select(["id", "total"]).where("number", "=", number).where("user_id", "is not", null).executeTakeFirst();
  return order ? refundableAsCredit(db, order) : 0;
}

/**
 * The owner refunds a paid order, wholly or a part, as store credit to the account that placed it.
 * Never more than the order's total over all its refunds as credit; the whole of it marks the order
 * refunded. Audited on the order.
 */
export async function refundAsCredit(db: Db, input: { number: string; amount: number; note: string; actorId: number }): Promise<RefundAsCreditResult> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) return { ok: false, error: "amount" };
  const note = input.note.trim().slice(0, NOTE_MAX) || null;
  return db.transaction().execute(async (trx): Promise<RefundAsCreditResult> => {
    const q = trx.selectFrom("orders").select(["id", "number", "user_id", "total", "payment_status"]).where("number", "=", input.number);
    const order = await (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
    if (!order) return { ok: false, error: "notFound" };
    if (order.user_id === null) return { ok: false, error: "guest" };
    if (order.payment_status !== "paid") return { ok: false, error: "notPaid" };
    const left = await refundableAsCredit(trx, order);
    if (input.amount > left) return { ok: false, error: "tooMuch", left };
    await lockHolder(trx, { userId: order.user_id });
    await addRow(trx, { userId: order.user_id }, { amount: input.amount, reason: "refund", orderId: order.id, actorId: input.actorId, note });
    if (input.amount === left) await movePaymentStatus(trx, { order, from: "paid", to: "refunded" });
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "update",
      entity: "order",
      entityId: order.id,
      summary: order.number,
      changes: { refundedAsCredit: [null, input.amount], ...(note ? { note: [null, note] } : {}) },
    });
    return { ok: true, refunded: input.amount, balance: await creditBalance(trx, order.user_id) };
  });
}

// ---------------------------------------------------------------------------------------------------
// Gift cards

export interface GiftCardInput {
  amount: number;
  /** ISO instant, or null: never expires */
  expiresAt: string | null;
  recipientName: string;
  recipientEmail: string;
  message: string | null;
  /** the recipient's language for the e-mail */
  locale: "en" | "es";
  /** the owner recorded a sale (money taken) rather than a present */
  sold: boolean;
}

export type GiftCardFields = Record<"amount" | "expiresOn" | "recipientName" | "recipientEmail" | "message" | "locale" | "sold", string>;
export type GiftCardErrors = Partial<Record<keyof GiftCardFields, string>>;

const GE = "credit.giftCards.errors.";

/** The owner's form, checked; an expiry date is the end of that day in Lagos. */
export function parseGiftCard(fields: GiftCardFields, today = new Date()): { ok: true; input: GiftCardInput } | { ok: false; errors: GiftCardErrors } {
  const errors: GiftCardErrors = {};
  const amount = nairaAmount(fields.amount);
  if (amount === null || Number.isNaN(amount) || amount < 100) errors.amount = `${GE}amount`;
  let expiresAt: string | null = null;
  if (fields.expiresOn.trim()) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fields.expiresOn.trim());
    // 23:59:59.999 in Lagos (UTC+1, no summer time) is 22:59:59.999 UTC.
    const end = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 22, 59, 59, 999)) : null;
    if (!end || Number.isNaN(end.getTime()) || end.getUTCDate() !== Number(m![3]) || end <= today) errors.expiresOn = `${GE}expiresOn`;
    else expiresAt = end.toISOString();
  }
  const recipientName = fields.recipientName.trim();
  if (!recipientName || recipientName.length > 100) errors.recipientName = `${GE}recipientName`;
  const recipientEmail = fields.recipientEmail.trim().toLowerCase();
  if (recipientEmail.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(recipientEmail)) errors.recipientEmail = `${GE}recipientEmail`;
  const message = fields.message.trim();
  if (message.length > MESSAGE_MAX) errors.message = `${GE}message`;
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    input: { amount: amount!, expiresAt, recipientName, recipientEmail, message: message || null, locale: fields.locale === "es" ? "es" : "en", sold: fields.sold === "on" || fields.sold === "1" },
  };
}

export interface GiftCardMail {
  to: string;
  code: string;
  amount: number;
  expiresAt: string | null;
  recipientName: string;
  message: string | null;
  locale: "en" | "es";
}

/**
 * Issues a gift card: its row, its first ledger row, the audit entry, and the e-mail to the recipient
 * (queued in the same transaction by `queue`, so the card exists exactly when its e-mail does).
 */
export async function issueGiftCard(
  db: Db,
  input: GiftCardInput,
  actorId: number,
  queue: (trx: Db, mail: GiftCardMail) => Promise<void>,
): Promise<{ id: number; code: string }> {
  return db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const code = newGiftCardCode();
    const card = await trx
      .insertInto("gift_cards")
      .values({
        code,
        code_key: giftCardKey(code)!,
        initial_amount: input.amount,
        expires_at: input.expiresAt,
        recipient_name: input.recipientName,
        recipient_email: input.recipientEmail,
        message: input.message,
        locale: input.locale,
        sold: input.sold ? 1 : 0,
        created_by: actorId,
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await addRow(trx, { giftCardId: card.id }, { amount: input.amount, reason: "issued", actorId, note: input.sold ? "sold" : null, at });
    await recordAudit(trx, {
      actorId,
      action: "create",
      entity: "gift_card",
      entityId: card.id,
      // never the code itself: the audit log is read by more people than may spend it
      summary: `${code.slice(0, 4)}-…`,
      changes: { amount: [null, input.amount], expiresAt: [null, input.expiresAt], recipient: [null, input.recipientEmail], sold: [null, input.sold] },
    });
    await queue(trx, { to: input.recipientEmail, code, amount: input.amount, expiresAt: input.expiresAt, recipientName: input.recipientName, message: input.message, locale: input.locale });
    return { id: card.id, code };
  });
}

export interface GiftCardRow {
  id: number;
  code: string;
  initialAmount: number;
  balance: number;
  expiresAt: string | null;
  recipientEmail: string;
  sold: boolean;
  createdAt: string;
}

/** The owner's list, newest first. */
export async function listGiftCards(db: Db, limit = 100): Promise<GiftCardRow[]> {
  const rows = await db
    .selectFrom("gift_cards as g")
    .leftJoin("credit_ledger as l", "l.gift_card_id", "g.id")
    .select((eb) => ["g.id", "g.code", "g.initial_amount", "g.expires_at", "g.recipient_email", "g.sold", "g.created_at", eb.fn.coalesce(eb.fn.sum<number>("l.amount"), eb.lit(0)).as("balance")])
    .groupBy(["g.id", "g.code", "g.initial_amount", "g.expires_at", "g.recipient_email", "g.sold", "g.created_at"])
    .orderBy("g.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    initialAmount: Number(r.initial_amount),
    balance: Number(r.balance),
    expiresAt: r.expires_at,
    recipientEmail: r.recipient_email,
    sold: Number(r.sold) === 1,
    createdAt: r.created_at,
  }));
}

export type GiftCardState = { ok: true; id: number; code: string; balance: number; expiresAt: string | null } | { ok: false; reason: "unknown" | "expired" | "empty" };

/** A code as a shopper typed it: its balance now, or why it cannot pay. */
export async function giftCardState(db: Db, raw: string, at = new Date().toISOString()): Promise<GiftCardState> {
  const key = giftCardKey(raw);
  if (!key) return { ok: false, reason: "unknown" };
  const card = await db.selectFrom("gift_cards").select(["id", "code", "expires_at"]).where("code_key", "=", key).executeTakeFirst();
  if (!card) return { ok: false, reason: "unknown" };
  if (card.expires_at !== null && card.expires_at <= at) return { ok: false, reason: "expired" };
  const balance = await sumOf(db, { giftCardId: card.id });
  if (balance <= 0) return { ok: false, reason: "empty" };
  return { ok: true, id: card.id, code: card.code, balance, expiresAt: card.expires_at };
}

// ---------------------------------------------------------------------------------------------------
// The cart's choices and the checkout

export interface CartCredit {
  useCredit: boolean;
  giftCardCode: string | null;
}

export async function cartCredit(db: Db, cartId: string | null): Promise<CartCredit> {
  if (!cartId) return { useCredit: false, giftCardCode: null };
  const row = await db.selectFrom("carts").select(["use_credit", "gift_card_code"]).where("id", "=", cartId).executeTakeFirst();
  return { useCredit: Number(row?.use_credit ?? 0) === 1, giftCardCode: row?.gift_card_code ?? null };
}

export async function setUseCredit(db: Db, cartId: string, use: boolean): Promise<void> {
  await db.updateTable("carts").set({ use_credit: use ? 1 : 0 }).where("id", "=", cartId).execute();
}

/** Keeps a code that can pay now; a code that cannot is refused with its reason and not kept. */
export async function enterGiftCard(db: Db, cartId: string, raw: string): Promise<{ ok: true } | { ok: false; reason: "unknown" | "expired" | "empty" }> {
  const state = await giftCardState(db, raw);
  if (!state.ok) return state;
  await db.updateTable("carts").set({ gift_card_code: state.code }).where("id", "=", cartId).execute();
  return { ok: true };
}

export async function removeGiftCard(db: Db, cartId: string): Promise<void> {
  await db.updateTable("carts").set({ gift_card_code: null }).where("id", "=", cartId).execute();
}

export interface CreditView {
  /** the account's credit (null: a guest) and whether the shopper chose to spend it */
  credit: number | null;
  useCredit: boolean;
  /** the cart's gift card and its balance now, or why it cannot pay */
  giftCard: { code: string; state: GiftCardState } | null;
}

/** What the checkout's panel shows: what may pay; what is taken is decided when the order is placed. */
export async function creditView(db: Db, cartId: string | null, userId: number | null): Promise<CreditView> {
  const chosen = await cartCredit(db, cartId);
  const [credit, state] = await Promise.all([
    userId === null ? Promise.resolve(null) : creditBalance(db, userId),
    chosen.giftCardCode ? giftCardState(db, chosen.giftCardCode) : Promise.resolve(null),
  ]);
  return { credit, useCredit: chosen.useCredit && (credit ?? 0) > 0, giftCard: chosen.giftCardCode && state ? { code: chosen.giftCardCode, state } : null };
}

/** What credit and a gift card would pay of `total` (the checkout shows it; the order decides again). */
export function creditSplit(view: CreditView, total: number): { giftCard: number; storeCredit: number; due: number } {
  const giftCard = view.giftCard?.state.ok ? Math.min(view.giftCard.state.balance, total) : 0;
  const storeCredit = view.useCredit && view.credit ? Math.min(view.credit, total - giftCard) : 0;
  return { giftCard, storeCredit, due: total - giftCard - storeCredit };
}

export interface Spent {
  giftCard: number;
  giftCardCode: string | null;
  storeCredit: number;
  /** what is left to pay by the order's way to pay; 0: the order is paid */
  due: number;
}

/**
 * Inside the order's transaction: the cart's gift card, then the account's credit (when chosen), pay
 * what they can of the order's total, each under a lock on its holder and as a ledger row; the order
 * keeps the amounts. An order they pay wholly is paid now. A gift card that expired or ran out
 * meanwhile pays nothing (the order still goes through; the rest is due).
 */
export async function spendOnOrder(
  trx: Db,
  input: { order: { id: number; number: string; total: number }; userId: number | null; cartId: string | null; at: string },
): Promise<Spent> {
  const chosen = await cartCredit(trx, input.cartId);
  let left = Number(input.order.total);
  let giftCard = 0;
  let giftCardCode: string | null = null;
  if (chosen.giftCardCode && left > 0) {
    const key = giftCardKey(chosen.giftCardCode);
    const card = key ? await trx.selectFrom("gift_cards").select(["id", "code", "expires_at"]).where("code_key", "=", key).executeTakeFirst() : undefined;
    if (card && (card.expires_at === null || card.expires_at > input.at) && (await lockHolder(trx, { giftCardId: card.id }))) {
      giftCard = Math.min(await sumOf(trx, { giftCardId: card.id }), left);
      if (giftCard > 0) {
        await addRow(trx, { giftCardId: card.id }, { amount: -giftCard, reason: "spent", orderId: input.order.id, at: input.at });
        giftCardCode = card.code;
        left -= giftCard;
      } else giftCard = 0;
    }
  }
  let storeCredit = 0;
  if (chosen.useCredit && input.userId !== null && left > 0 && (await lockHolder(trx, { userId: input.userId }))) {
    storeCredit = Math.min(await creditBalance(trx, input.userId), left);
    if (storeCredit > 0) {
      await addRow(trx, { userId: input.userId }, { amount: -storeCredit, reason: "spent", orderId: input.order.id, at: input.at });
      left -= storeCredit;
    } else storeCredit = 0;
  }
  if (giftCard || storeCredit) {
    await trx.updateTable("orders").set({ gift_card: giftCard, gift_card_code: giftCardCode, store_credit: storeCredit }).where("id", "=", input.order.id).execute();
  }
  if (left === 0 && (giftCard || storeCredit)) await movePaymentStatus(trx, { order: input.order, from: "unpaid", to: "paid" });
  // Spent: the choices are the cart's no longer.
  if (input.cartId && (chosen.giftCardCode || chosen.useCredit)) await trx.updateTable("carts").set({ gift_card_code: null, use_credit: 0 }).where("id", "=", input.cartId).execute();
  return { giftCard, giftCardCode, storeCredit, due: left };
}

