import { createHash, createHmac, randomBytes } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { Db } from "~/db/client.server";
import type { DeliveryMethod, OrderStatus, PaymentMethod, PaymentStatus } from "~/db/schema";
import { parseNigerianMobile } from "~/lib/phone";
import { normaliseEmail } from "../accounts/accounts.server";
import { findOrderDetail } from "./order-history.server";
import { isOrderNumber } from "./orders.server";
import { consumeAttempt } from "../operations/rate-limits.server";
import { queueMail } from "../operations/mail-outbox.server";
import { recordAudit } from "../backoffice/audit.server";
import { DEFAULT_LOCALE, isLocale } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import type { Config } from "~/platform/config.server";

/**
 * Reaching an order without an account (docs/decisions/217), two ways:
 *
 * - its **private link**, `/track/<token>`: the token is an HMAC of the checkout form's random key
 *   under the shop's secret (so the same form sent twice leads to the same link, and nobody can make
 *   one without the secret), and only its SHA-256 is stored; the owner revokes it by clearing that;
 * - **"Track your order"**: the order number plus the phone or e-mail used, rate limited per IP
 *   address and per order number against guessing; it shows the status, payment and delivery only.
 */

type Context = Pick<AppLoadContext, "db" | "engine" | "clientIp">;

/** A private link's token: 43 base64url characters (256 bits). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function orderLinkToken(secret: string, checkoutKey: string): string {
  return createHmac("sha256", secret).update(`order-link\u0000${checkoutKey}`).digest("base64url");
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function orderLinkPath(token: string): string {
  return `/track/${token}`;
}

/** The order a private link opens, with its items and history; null for anything else (revoked included). */
export async function findOrderByLink(db: Db, token: string) {
  if (!TOKEN_PATTERN.test(token)) return null;
  return findOrderDetail(db, { accessTokenHash: tokenHash(token) });
}

/**
 * The owner withdraws an order's private link (it was forwarded, or leaked): it opens nothing from now
 * on. With `actorId`, the withdrawal is written to the audit log in the same transaction.
 */
export async function revokeOrderLink(db: Db, orderId: number, actorId?: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.updateTable("orders").set({ access_token_hash: null }).where("id", "=", orderId).where("access_token_hash", "is not", null).returning("number").executeTakeFirst();
    if (!result) return false;
    if (actorId !== undefined) {
      await recordAudit(trx, { actorId, action: "update", entity: "order", entityId: orderId, summary: result.number, changes: { privateLink: ["active", "revoked"] } });
    }
    return true;
  });
}

export type ReissueResult = { ok: true; email: string } | { ok: false; error: "notFound" | "noEmail" | "active" };

/**
 * A new private link for a guest order whose link was revoked (docs/decisions/217): a fresh random
 * token (256 bits; the first was derived from the checkout form, so it cannot be made again), its
 * SHA-256 stored, the link e-mailed to the order's e-mail in the order's language, and the change
 * audited, all in one transaction. Refused while a link still works (revoke it first) and for an
 * order with no e-mail (an account's order, or a WhatsApp chat). Two owners at once: one link wins.
 */
export async function reissueOrderLink(db: Db, config: Pick<Config, "publicUrl">, input: { number: string; actorId: number }): Promise<ReissueResult> {
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom("orders")
      .select(["id", "number", "user_id", "channel", "email", "customer_name", "locale", "access_token_hash"])
      .where("number", "=", input.number)
      .executeTakeFirst();
    if (!order) return { ok: false, error: "notFound" } as const;
    if (order.user_id !== null || order.channel !== "checkout" || !order.email) return { ok: false, error: "noEmail" } as const;
    const token = randomBytes(32).toString("base64url");
    // Only while no link works: the update's condition settles two owners pressing at once.
    const set = await trx.updateTable("orders").set({ access_token_hash: tokenHash(token) }).where("id", "=", order.id).where("access_token_hash", "is", null).executeTakeFirst();
    if (Number(set.numUpdatedRows) !== 1) return { ok: false, error: "active" } as const;
    const t = translatorFor(isLocale(order.locale) ? order.locale : DEFAULT_LOCALE);
    const url = `${config.publicUrl}${orderLinkPath(token)}`;
    await queueMail(trx, {
      to: order.email,
      subject: t("mail.newOrderLink.subject", { number: order.number }),
      text: [t("mail.newOrderLink.greeting", { name: order.customer_name ?? "" }), "", t("mail.newOrderLink.body", { number: order.number }), url, "", t("mail.newOrderLink.signature")].join("\n"),
      kind: "order-link",
    });
    await recordAudit(trx, { actorId: input.actorId, action: "update", entity: "order", entityId: order.id, summary: order.number, changes: { privateLink: [order.access_token_hash ? "active" : "revoked", "reissued"] } });
    return { ok: true, email: order.email } as const;
  });
}

export interface TrackedOrder {
  number: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  paymentMethod: PaymentMethod | null;
  deliveryMethod: DeliveryMethod | null;
  deliveryZone: string | null;
  deliveryEstimate: string | null;
  total: number;
  createdAt: string;
}

export type TrackResult =
  | { ok: true; order: TrackedOrder }
  /** a field is empty or cannot be what it asks for (translation keys by field) */
  | { ok: false; problem: "invalid"; errors: { number?: string; contact?: string } }
  /** no order with that number and that phone or e-mail: the same answer whichever part is wrong */
  | { ok: false; problem: "notFound" };

/**
 * "Track your order": the order with this number placed with this phone (as people type it) or
 * e-mail. Throws TooManyAttempts past the per-IP or the per-number limit (both count every look-up, so
 * guessing one order's phone from many addresses is bounded too).
 */
export async function trackOrder(context: Context, input: { number: string; contact: string }): Promise<TrackResult> {
  const number = input.number.trim().toUpperCase().slice(0, 40);
  const contact = input.contact.trim().slice(0, 254);
  const errors: { number?: string; contact?: string } = {};
  if (!isOrderNumber(number)) errors.number = number === "" ? "purchase.track.errors.numberRequired" : "purchase.track.errors.number";
  const phone = contact.includes("@") ? null : parseNigerianMobile(contact);
  const email = contact.includes("@") ? normaliseEmail(contact) : null;
  if (contact === "") errors.contact = "purchase.track.errors.contactRequired";
  else if (phone && !phone.ok) errors.contact = "purchase.track.errors.contact";
  if (errors.number || errors.contact) return { ok: false, problem: "invalid", errors };
  await consumeAttempt(context, "trackIp", context.clientIp);
  await consumeAttempt(context, "trackOrder", number);
  const row = await context.db
    .selectFrom("orders as o")
    .leftJoin("users as u", "u.id", "o.user_id")
    .select([
      "o.number",
      "o.status",
      "o.payment_status",
      "o.payment_method",
      "o.delivery_method",
      "o.delivery_zone",
      "o.delivery_estimate",
      "o.total",
      "o.created_at",
      "o.phone",
      "o.email",
      "u.email as accountEmail",
    ])
    .where("o.number", "=", number)
    .executeTakeFirst();
  const matches =
    row !== undefined &&
    ((phone?.ok === true && row.phone === phone.phone) || (email !== null && (row.email === email || row.accountEmail === email)));
  if (!row || !matches) return { ok: false, problem: "notFound" };
  return {
    ok: true,
    order: {
      number: row.number,
      status: row.status,
      paymentStatus: row.payment_status,
      paymentMethod: row.payment_method,
      deliveryMethod: row.delivery_method,
      deliveryZone: row.delivery_zone,
      deliveryEstimate: row.delivery_estimate,
      total: row.total,
      createdAt: row.created_at,
    },
  };
}
