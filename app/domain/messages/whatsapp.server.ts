import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Config } from "~/platform/config.server";
import { MessageSendError, postJson } from "./provider-error.server";

/**
 * The WhatsApp Business Platform's Cloud API (docs/decisions/220): an approved template sent with
 * POST {api}/{version}/{phone-number-id}/messages and the access token as a Bearer token. Its errors
 * come as { error: { message, type, code, error_data, fbtrace_id } }; the codes that trying again
 * cannot fix make the message failed at once.
 */

export type WhatsAppConfig = NonNullable<Config["messaging"]["whatsapp"]>;

/** Meta's error codes that trying again will not fix. */
const PERMANENT_CODES = new Set([
  100, // invalid parameter (a malformed number, a missing parameter)
  131008, // required parameter missing
  131009, // parameter value not valid
  131021, // recipient cannot be sender
  131026, // message undeliverable (no WhatsApp on the number, old app, terms not accepted)
  131047, // re-engagement message: more than 24 hours since the customer last wrote (free-form only)
  131051, // unsupported message type
  132000, // template parameter count mismatch
  132001, // template does not exist (or not approved in that language)
  132005, // template hydrated text too long
  132007, // template format character policy violated
  132012, // template parameter format mismatch
  132015, // template paused
  132016, // template disabled
]);

const errorAnswer = z.object({
  error: z.object({ message: z.string().default(""), type: z.string().optional(), code: z.number(), error_data: z.unknown().optional(), fbtrace_id: z.string().optional() }),
});
const sentAnswer = z.object({ messaging_product: z.literal("whatsapp").optional(), messages: z.array(z.object({ id: z.string().min(1) })).min(1) });

/** Digits only, as the Cloud API takes the number (+2348031234567 → 2348031234567). */
export const waNumber = (phone: string) => phone.replace(/\D/g, "");

export async function sendWhatsAppTemplate(
  config: WhatsAppConfig,
  message: { to: string; template: string; language: string; params: string[]; reference?: string },
): Promise<{ messageId: string }> {
  const url = `${config.apiUrl}/${config.version}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  const { status, json } = await postJson(
    url,
    {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: waNumber(message.to),
      type: "template",
      template: {
        name: message.template,
        language: { code: message.language },
        components: message.params.length ? [{ type: "body", parameters: message.params.map((text) => ({ type: "text", text })) }] : [],
      },
      // Meta keeps it with the message and returns it in the status webhooks: the outbox's idempotency key.
      ...(message.reference ? { biz_opaque_callback_data: message.reference.slice(0, 512) } : {}),
    },
    { Authorization: `Bearer ${config.token}` },
  );
  if (status >= 200 && status < 300) {
    const sent = sentAnswer.safeParse(json);
    if (!sent.success) throw new MessageSendError("malformed", `HTTP ${status}, no message id in the answer`, false);
    return { messageId: sent.data.messages[0].id };
  }
  const refused = errorAnswer.safeParse(json);
  if (!refused.success) throw new MessageSendError("http", `HTTP ${status}`, false);
  const { code, message: text } = refused.data.error;
  // 5xx, throttling (4, 80007, 130429, 131056), an expired token (190): worth another try later.
  throw new MessageSendError(String(code), `WhatsApp ${code}: ${text}`.slice(0, 300), PERMANENT_CODES.has(code) && status < 500);
}

/** X-Hub-Signature-256: "sha256=" and the hex HMAC-SHA256 of the raw body with the app secret, compared in constant time. */
export function isWhatsAppSignature(appSecret: string, raw: Buffer, header: string | null): boolean {
  if (!header?.startsWith("sha256=")) return false;
  const expected = createHmac("sha256", appSecret).update(raw).digest();
  const given = Buffer.from(header.slice(7), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const statusEvent = z.object({
  id: z.string(),
  status: z.string(),
  timestamp: z.string().optional(),
  recipient_id: z.string().optional(),
  errors: z.array(z.object({ code: z.number().optional(), title: z.string().optional(), message: z.string().optional() })).optional(),
});
const webhookBody = z.object({
  object: z.string().optional(),
  entry: z
    .array(z.object({ changes: z.array(z.object({ value: z.object({ statuses: z.array(z.unknown()).optional(), messages: z.array(z.unknown()).optional() }).passthrough() })).default([]) }))
    .default([]),
});

/** A shopper's text to the shop's number, as the Cloud API's webhook sends it (`value.messages[]`). */
const inboundText = z.object({
  from: z.string().regex(/^\d{6,15}$/),
  id: z.string(),
  type: z.literal("text"),
  text: z.object({ body: z.string().max(4096) }),
});

export interface InboundOrderMessage {
  /** the sender's number as Meta gives it: digits with the country code, no plus */
  from: string;
  /** the first order reference the text names (UB-…), upper case */
  reference: string;
}

/**
 * The shoppers' texts in a webhook's body that name an order reference: the WhatsApp order's message
 * ends with "Order reference: UB-…" (docs/decisions/032), so the chat that sends it gives the order its
 * number. Other events and texts without a reference are skipped.
 */
export function whatsAppOrderMessages(body: unknown): InboundOrderMessage[] {
  const parsed = webhookBody.safeParse(body);
  if (!parsed.success) return [];
  const found: InboundOrderMessage[] = [];
  for (const entry of parsed.data.entry)
    for (const change of entry.changes)
      for (const raw of change.value.messages ?? []) {
        const message = inboundText.safeParse(raw);
        if (!message.success) continue;
        const reference = /\bUB-\d{5,12}\b/i.exec(message.data.text.body)?.[0];
        if (reference) found.push({ from: message.data.from, reference: reference.toUpperCase() });
      }
  return found;
}

export interface DeliveryReport {
  providerMessageId: string;
  status: "sent" | "delivered" | "read" | "failed";
  errorCode: string | null;
  error: string | null;
}

/** The status updates in a webhook's body (sent, delivered, read, failed); other events are skipped. */
export function whatsAppStatuses(body: unknown): DeliveryReport[] {
  const parsed = webhookBody.safeParse(body);
  if (!parsed.success) return [];
  const reports: DeliveryReport[] = [];
  for (const entry of parsed.data.entry)
    for (const change of entry.changes)
      for (const raw of change.value.statuses ?? []) {
        const event = statusEvent.safeParse(raw);
        if (!event.success || !["sent", "delivered", "read", "failed"].includes(event.data.status)) continue;
        const error = event.data.errors?.[0];
        reports.push({
          providerMessageId: event.data.id,
          status: event.data.status as DeliveryReport["status"],
          errorCode: error?.code !== undefined ? String(error.code) : null,
          error: error ? [error.title, error.message].filter(Boolean).join(": ").slice(0, 300) || null : null,
        });
      }
  return reports;
}
