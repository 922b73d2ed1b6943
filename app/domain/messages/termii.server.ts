import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Config } from "~/platform/config.server";
import { MessageSendError, postJson } from "./provider-error.server";
import type { DeliveryReport } from "./whatsapp.server";

/**
 * Termii's SMS API (docs/decisions/220): POST {api}/api/sms/send with { api_key, to, from, sms,
 * type: "plain", channel: "dnd" | "generic" }, answering { message_id, message, balance, user }.
 * A refusal is an HTTP 4xx with { message } (or { code, message }): an invalid number is final, an
 * empty balance or an unapproved sender id waits for the owner and is tried again.
 */

export type TermiiConfig = NonNullable<Config["messaging"]["sms"]>;

const sentAnswer = z.object({ message_id: z.union([z.string(), z.number()]).transform(String), message: z.string().optional(), balance: z.unknown().optional() });
const refusal = z.object({ message: z.union([z.string(), z.array(z.string())]).transform((m) => (Array.isArray(m) ? m.join("; ") : m)), code: z.string().optional() });

/** What a refusal's text says, as a short code; whether trying again can help. */
export function classifyTermiiRefusal(status: number, text: string): { code: string; permanent: boolean } {
  const lower = text.toLowerCase();
  if (lower.includes("balance") || lower.includes("insufficient") || status === 402) return { code: "insufficient-balance", permanent: false };
  if (lower.includes("invalid") && (lower.includes("number") || lower.includes("phone") || lower.includes("destination") || lower.includes(" to"))) return { code: "invalid-number", permanent: true };
  if (lower.includes("sender")) return { code: "sender-id", permanent: false };
  if (status === 401 || status === 403 || lower.includes("api key") || lower.includes("api_key")) return { code: "auth", permanent: false };
  if (status === 429) return { code: "rate-limited", permanent: false };
  if (status >= 500) return { code: "http", permanent: false };
  return { code: "refused", permanent: false };
}

export async function sendTermiiSms(config: TermiiConfig, message: { to: string; text: string }): Promise<{ messageId: string }> {
  const { status, json } = await postJson(`${config.apiUrl}/api/sms/send`, {
    api_key: config.apiKey,
    to: message.to.replace(/\D/g, ""),
    from: config.senderId,
    sms: message.text,
    type: "plain",
    channel: config.channel,
  });
  if (status >= 200 && status < 300) {
    const sent = sentAnswer.safeParse(json);
    if (sent.success) return { messageId: sent.data.message_id };
    const refused = refusal.safeParse(json);
    if (!refused.success) throw new MessageSendError("malformed", `HTTP ${status}, no message_id in the answer`, false);
    const kind = classifyTermiiRefusal(status, refused.data.message);
    throw new MessageSendError(kind.code, `Termii: ${refused.data.message}`.slice(0, 300), kind.permanent);
  }
  const refused = refusal.safeParse(json);
  const text = refused.success ? refused.data.message : `HTTP ${status}`;
  const kind = classifyTermiiRefusal(status, text);
  throw new MessageSendError(kind.code, `Termii ${status}: ${text}`.slice(0, 300), kind.permanent);
}

/** X-Termii-Signature: the hex HMAC-SHA512 of the raw body with the account's secret key. */
export function isTermiiSignature(secretKey: string, raw: Buffer, header: string | null): boolean {
  if (!header) return false;
  const expected = createHmac("sha512", secretKey).update(raw).digest();
  const given = Buffer.from(header.trim(), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const report = z.object({ message_id: z.union([z.string(), z.number()]).transform(String), status: z.string() });

/** A delivery report's outcome: Delivered, DND Active on Phone Number, Message Failed, Rejected, Expired. */
export function termiiDeliveryReport(body: unknown): DeliveryReport | null {
  const parsed = report.safeParse(body);
  if (!parsed.success) return null;
  const status = parsed.data.status.toLowerCase();
  if (status.startsWith("delivered")) return { providerMessageId: parsed.data.message_id, status: "delivered", errorCode: null, error: null };
  if (status.startsWith("message sent") || status.startsWith("sent")) return { providerMessageId: parsed.data.message_id, status: "sent", errorCode: null, error: null };
  if (status.includes("dnd")) return { providerMessageId: parsed.data.message_id, status: "failed", errorCode: "dnd", error: parsed.data.status.slice(0, 300) };
  if (status.includes("fail") || status.includes("reject") || status.includes("expire"))
    return { providerMessageId: parsed.data.message_id, status: "failed", errorCode: "undelivered", error: parsed.data.status.slice(0, 300) };
  return null;
}
