import type { Kysely, Transaction } from "kysely";
import type { Database, MessageChannel } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { promotionState } from "../promotions/admin.server";
import { codeKey, findPromotionByCode } from "../promotions/codes.server";

/**
 * Which messages the shop sends by WhatsApp and SMS, their approved WhatsApp templates (the owner
 * submits them to Meta under these names, in English "en" and Spanish "es", with these body
 * parameters in this order), and the owner's choice of channels per message (docs/decisions/220).
 */

export const MESSAGE_KINDS = [
  "order-placed",
  "payment-received",
  "order-shipped",
  "order-delivered",
  "order-cancelled",
  "back-in-stock",
  "cart-reminder",
  "new-order-alert",
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const CHANNELS: MessageChannel[] = ["whatsapp", "sms"];

/** Marketing needs the shopper's opt-in; service messages do not. */
export const MARKETING_KINDS = new Set<MessageKind>(["back-in-stock", "cart-reminder"]);

export const TEMPLATES: Record<MessageKind, { name: string; params: string[] }> = {
  "order-placed": { name: "unboxed_order_placed", params: ["name", "number", "total", "url"] },
  "payment-received": { name: "unboxed_payment_received", params: ["name", "number", "total", "url"] },
  "order-shipped": { name: "unboxed_order_shipped", params: ["name", "number", "url"] },
  "order-delivered": { name: "unboxed_order_delivered", params: ["name", "number", "url"] },
  "order-cancelled": { name: "unboxed_order_cancelled", params: ["name", "number", "url"] },
  "back-in-stock": { name: "unboxed_back_in_stock", params: ["product", "url", "stop"] },
  "cart-reminder": { name: "unboxed_cart_reminder", params: ["name", "url", "stop"] },
  "new-order-alert": { name: "unboxed_new_order", params: ["number", "total", "url"] },
};

/** A cart reminder that carries the owner's discount code: its own approved template and SMS text. */
export const CART_REMINDER_WITH_CODE = { template: { name: "unboxed_cart_reminder_code", params: ["name", "code", "url", "stop"] }, textKey: "messages.sms.cart-reminder-code" };

export type ChannelChoices = Record<MessageKind, Record<MessageChannel, boolean>>;

/** With no choice made: every message by WhatsApp; by SMS too the order's confirmation and its dispatch. */
export function defaultChoices(): ChannelChoices {
  const sms = new Set<MessageKind>(["order-placed", "order-shipped"]);
  return Object.fromEntries(MESSAGE_KINDS.map((kind) => [kind, { whatsapp: true, sms: sms.has(kind) && kind !== "new-order-alert" }])) as ChannelChoices;
}

export async function channelChoices(db: Kysely<Database> | Transaction<Database>): Promise<ChannelChoices> {
  const choices = defaultChoices();
  const rows = await db.selectFrom("message_settings").select(["kind", "whatsapp", "sms"]).execute();
  for (const row of rows) {
    if ((MESSAGE_KINDS as readonly string[]).includes(row.kind)) choices[row.kind as MessageKind] = { whatsapp: Number(row.whatsapp) === 1, sms: Number(row.sms) === 1 };
  }
  // The owner's alert goes by WhatsApp only.
  choices["new-order-alert"].sms = false;
  return choices;
}

export async function saveChannelChoices(db: Kysely<Database>, choices: ChannelChoices, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const kind of MESSAGE_KINDS) {
      const row = { kind, whatsapp: choices[kind].whatsapp ? 1 : 0, sms: kind !== "new-order-alert" && choices[kind].sms ? 1 : 0, updated_at: now.toISOString() };
      await trx
        .insertInto("message_settings")
        .values(row)
        .onConflict((oc) => oc.column("kind").doUpdateSet({ whatsapp: row.whatsapp, sms: row.sms, updated_at: row.updated_at }))
        .execute();
    }
  });
}

/** The channels a message goes by: those with credentials that the owner chose for it. */
export function channelsFor(messaging: Config["messaging"], choices: ChannelChoices, kind: MessageKind): MessageChannel[] {
  return CHANNELS.filter((channel) => messaging[channel] !== null && choices[kind][channel]);
}

export const DEFAULT_REMINDER_DELAY_MINUTES = 4 * 60;
export const REMINDER_DELAY_LIMITS = { min: 30, max: 7 * 24 * 60 };

export async function reminderDelayMinutes(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom("cart_reminder_settings").select("delay_minutes").where("id", "=", 1).executeTakeFirst();
  return row ? Number(row.delay_minutes) : DEFAULT_REMINDER_DELAY_MINUTES;
}

export async function saveReminderDelay(db: Kysely<Database>, minutes: number, now = new Date()): Promise<void> {
  const value = Math.min(REMINDER_DELAY_LIMITS.max, Math.max(REMINDER_DELAY_LIMITS.min, Math.round(minutes)));
  await db
    .insertInto("cart_reminder_settings")
    .values({ id: 1, delay_minutes: value, updated_at: now.toISOString() })
    .onConflict((oc) => oc.column("id").doUpdateSet({ delay_minutes: value, updated_at: now.toISOString() }))
    .execute();
}

/** The discount code the owner chose for cart reminders, as saved (null: none). */
export async function reminderCodeSetting(db: Kysely<Database> | Transaction<Database>): Promise<string | null> {
  const row = await db.selectFrom("cart_reminder_settings").select("promotion_code").where("id", "=", 1).executeTakeFirst();
  return row?.promotion_code ?? null;
}

/**
 * The code a reminder sent now announces: the owner's, while its promotion is running (not paused,
 * ended, used up or yet to start); else none. Whether it takes anything off is judged at checkout,
 * like any code.
 */
export async function reminderCodeNow(db: Kysely<Database> | Transaction<Database>, now = new Date()): Promise<string | null> {
  const code = await reminderCodeSetting(db);
  if (!code) return null;
  const promotion = await findPromotionByCode(db, code);
  return promotion && promotionState(promotion, now.toISOString()) === "active" ? promotion.code : null;
}

/** Saves the reminders' code: one of the shop's codes (any case) or none; false for a code the shop does not have. */
export async function saveReminderCode(db: Kysely<Database>, raw: string | null, now = new Date()): Promise<boolean> {
  let code: string | null = null;
  if (raw) {
    const promotion = codeKey(raw) ? await findPromotionByCode(db, raw) : null;
    if (!promotion) return false;
    code = promotion.code;
  }
  await db
    .insertInto("cart_reminder_settings")
    .values({ id: 1, delay_minutes: await reminderDelayMinutes(db), promotion_code: code, updated_at: now.toISOString() })
    .onConflict((oc) => oc.column("id").doUpdateSet({ promotion_code: code, updated_at: now.toISOString() }))
    .execute();
  return true;
}

/** The admin screen's form: a box per message and channel, the reminder delay in hours and the reminders' code. */
export function parseMessageSettingsForm(form: FormData): { ok: true; choices: ChannelChoices; delayMinutes: number; reminderCode: string | null } | { ok: false; error: string } {
  const raw = String(form.get("delayHours") ?? "").trim().replace(",", ".");
  const hours = Number(raw);
  if (!raw || !Number.isFinite(hours) || hours * 60 < REMINDER_DELAY_LIMITS.min || hours * 60 > REMINDER_DELAY_LIMITS.max) {
    return { ok: false, error: "admin.messages.delayError" };
  }
  const choices = Object.fromEntries(
    MESSAGE_KINDS.map((kind) => [kind, { whatsapp: form.get(`${kind}.whatsapp`) === "on", sms: kind !== "new-order-alert" && form.get(`${kind}.sms`) === "on" }]),
  ) as ChannelChoices;
  const code = String(form.get("reminderCode") ?? "").trim();
  if (code.length > 40) return { ok: false, error: "admin.messages.codeError" };
  return { ok: true, choices, delayMinutes: Math.round(hours * 60), reminderCode: code || null };
}
