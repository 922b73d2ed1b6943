import type { Kysely, Transaction } from "kysely";
import type { Database, MessageChannel } from "~/db/schema";
import type { Config } from "~/platform/config.server";

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

/** The admin screen's form: a box per message and channel, and the reminder delay in hours. */
export function parseMessageSettingsForm(form: FormData): { ok: true; choices: ChannelChoices; delayMinutes: number } | { ok: false; error: string } {
  const raw = String(form.get("delayHours") ?? "").trim().replace(",", ".");
  const hours = Number(raw);
  if (!raw || !Number.isFinite(hours) || hours * 60 < REMINDER_DELAY_LIMITS.min || hours * 60 > REMINDER_DELAY_LIMITS.max) {
    return { ok: false, error: "admin.messages.delayError" };
  }
  const choices = Object.fromEntries(
    MESSAGE_KINDS.map((kind) => [kind, { whatsapp: form.get(`${kind}.whatsapp`) === "on", sms: kind !== "new-order-alert" && form.get(`${kind}.sms`) === "on" }]),
  ) as ChannelChoices;
  return { ok: true, choices, delayMinutes: Math.round(hours * 60) };
}
