import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import type { Config } from "~/platform/config.server";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { formatNaira } from "~/lib/money";
import { channelChoices, channelsFor, type MessageKind, TEMPLATES } from "./catalogue.server";
import { queueMessage } from "./outbox.server";

/**
 * Queues a message by every channel the owner chose for it and that has credentials, in the
 * shopper's language: the WhatsApp template's parameters and the SMS text (messages.json) from the
 * same values. Call it inside the transaction of what it reports. Returns how many were queued.
 */
export async function queueShopperMessage(
  trx: Kysely<Database> | Transaction<Database>,
  messaging: Config["messaging"],
  input: {
    kind: MessageKind;
    subject: string;
    to: string | null;
    locale: string | null;
    values: Record<string, string>;
    orderId?: number | null;
    userId?: number | null;
    /** another approved template and SMS text for this kind (a cart reminder with a code) */
    variant?: { template: { name: string; params: string[] }; textKey: string };
  },
): Promise<number> {
  if (!input.to) return 0;
  if (!messaging.whatsapp && !messaging.sms) return 0;
  const channels = channelsFor(messaging, await channelChoices(trx), input.kind);
  if (!channels.length) return 0;
  const locale: Locale = isLocale(input.locale) ? input.locale : DEFAULT_LOCALE;
  const t = translatorFor(locale);
  const template = input.variant?.template ?? TEMPLATES[input.kind];
  const params = template.params.map((name) => input.values[name] ?? "");
  const text = t(input.variant?.textKey ?? `messages.sms.${input.kind}`, input.values);
  let queued = 0;
  for (const channel of channels) {
    const written = await queueMessage(trx, {
      channel,
      kind: input.kind,
      idempotencyKey: `${input.kind}:${input.subject}:${channel}`,
      to: input.to,
      locale,
      template: channel === "whatsapp" ? template.name : null,
      params,
      text,
      orderId: input.orderId ?? null,
      userId: input.userId ?? null,
    });
    if (written) queued++;
  }
  return queued;
}

type OrderKind = "order-placed" | "payment-received" | "order-shipped" | "order-delivered" | "order-cancelled";

/** An order's message to its shopper, at the order's number (E.164), in the account's language. */
export async function queueOrderMessage(trx: Kysely<Database> | Transaction<Database>, config: Pick<Config, "messaging" | "publicUrl">, kind: OrderKind, orderNumber: string): Promise<number> {
  if (!config.messaging.whatsapp && !config.messaging.sms) return 0;
  const order = await trx
    .selectFrom("orders")
    .leftJoin("users", "users.id", "orders.user_id")
    .select(["orders.id", "orders.number", "orders.total", "orders.store_credit", "orders.gift_card", "orders.phone", "orders.user_id", "orders.customer_name", "orders.locale as order_locale", "users.first_name", "users.locale", "users.phone as user_phone"])
    .where("orders.number", "=", orderNumber)
    .executeTakeFirst();
  if (!order) return 0;
  return queueShopperMessage(trx, config.messaging, {
    kind,
    subject: order.number,
    to: order.phone ?? order.user_phone,
    // An account's language is the one it last used; a guest's, the one the order was placed in.
    locale: order.user_id !== null ? order.locale : order.order_locale,
    values: {
      name: order.first_name ?? order.customer_name ?? "",
      number: order.number,
      // A payment is for what store credit and a gift card left to pay (docs/decisions/224), not the whole total.
      total: formatNaira(Number(order.total) - (kind === "payment-received" ? Number(order.store_credit ?? 0) + Number(order.gift_card ?? 0) : 0)),
      // A guest has no account's order page: the tracking page finds the order by its number and phone.
      url: order.user_id !== null ? `${config.publicUrl}/orders/${order.number}` : `${config.publicUrl}/track`,
    },
    orderId: order.id,
    userId: order.user_id,
  });
}

/** The owner's WhatsApp alert of a new order (OWNER_WHATSAPP), in the shop's default language. */
export async function queueOwnerWhatsApp(
  trx: Kysely<Database> | Transaction<Database>,
  config: Pick<Config, "messaging" | "publicUrl">,
  /** `amount`: the total as the alert words it (with the discount and what credit paid), else the total alone */
  order: { id: number; number: string; total: number; amount?: string },
): Promise<number> {
  if (!config.messaging.whatsapp || !config.messaging.ownerWhatsapp) return 0;
  return queueShopperMessage(trx, { ...config.messaging, sms: null }, {
    kind: "new-order-alert",
    subject: order.number,
    to: `+${config.messaging.ownerWhatsapp}`,
    locale: DEFAULT_LOCALE,
    values: { number: order.number, total: order.amount ?? formatNaira(order.total), url: `${config.publicUrl}/admin/orders/${encodeURIComponent(order.number)}` },
    orderId: order.id,
  });
}
