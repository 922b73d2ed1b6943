import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * Paystack's API, as its documentation describes it: POST /transaction/initialize, GET
 * /transaction/verify/:reference and POST /refund, each with the secret key as a Bearer token and
 * answering { status, message, data }. Every answer is checked against the shape we rely on; a
 * timeout, an HTTP error, a refusal or anything malformed is a PaystackError, never a guess.
 */

export interface PaystackConfig {
  secretKey: string;
  /** https://api.paystack.co, or a stand-in in tests */
  apiUrl: string;
}

export const PAYSTACK_TIMEOUT_MS = 10_000;

export type PaystackFailure = "timeout" | "network" | "http" | "malformed" | "refused";

export class PaystackError extends Error {
  constructor(
    readonly kind: PaystackFailure,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(`Paystack ${kind}: ${message}`);
    this.name = "PaystackError";
  }
}

const envelope = z.object({ status: z.boolean(), message: z.string().optional().default(""), data: z.unknown().optional() });

async function call(config: PaystackConfig, method: "GET" | "POST", path: string, body?: unknown, timeoutMs = PAYSTACK_TIMEOUT_MS): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${config.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${config.secretKey}`, Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") throw new PaystackError("timeout", `no answer within ${timeoutMs} ms`);
    throw new PaystackError("network", (error as Error).message);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    throw new PaystackError(name === "TimeoutError" || name === "AbortError" ? "timeout" : "network", (error as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PaystackError(response.ok ? "malformed" : "http", `HTTP ${response.status}, not JSON`, response.status);
  }
  const parsed = envelope.safeParse(json);
  if (!parsed.success) throw new PaystackError(response.ok ? "malformed" : "http", `HTTP ${response.status}, unexpected answer`, response.status);
  if (!response.ok) throw new PaystackError(response.status >= 500 ? "http" : "refused", `HTTP ${response.status}: ${parsed.data.message}`, response.status);
  if (!parsed.data.status) throw new PaystackError("refused", parsed.data.message, response.status);
  return parsed.data.data;
}

const initialized = z.object({
  authorization_url: z.url().refine((u) => /^https?:\/\//.test(u)),
  access_code: z.string(),
  reference: z.string(),
});

/** Starts a payment: the shopper is sent to `authorizationUrl`, then back to `callbackUrl`. */
export async function initializeTransaction(
  config: PaystackConfig,
  input: { email: string; amount: number; reference: string; callbackUrl: string; orderNumber: string },
): Promise<{ authorizationUrl: string; reference: string }> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new PaystackError("refused", "the amount must be a positive whole number of kobo");
  const data = await call(config, "POST", "/transaction/initialize", {
    email: input.email,
    amount: String(input.amount),
    currency: "NGN",
    reference: input.reference,
    callback_url: input.callbackUrl,
    metadata: JSON.stringify({ order: input.orderNumber }),
  });
  const parsed = initialized.safeParse(data);
  if (!parsed.success) throw new PaystackError("malformed", "initialize answered without an authorization_url");
  if (parsed.data.reference !== input.reference) throw new PaystackError("malformed", "initialize answered for another reference");
  return { authorizationUrl: parsed.data.authorization_url, reference: parsed.data.reference };
}

const verified = z.object({
  status: z.string(),
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  channel: z.string().nullable().optional(),
  paid_at: z.string().nullable().optional(),
  gateway_response: z.string().nullable().optional(),
});

export interface VerifiedTransaction {
  /** success, failed, abandoned, ongoing, pending, reversed, ... */
  status: string;
  reference: string;
  /** kobo */
  amount: number;
  currency: string;
  channel: string | null;
  paidAt: string | null;
}

/** What Paystack says about a reference: the only source the shop believes about a payment. */
export async function verifyTransaction(config: PaystackConfig, reference: string): Promise<VerifiedTransaction> {
  const data = await call(config, "GET", `/transaction/verify/${encodeURIComponent(reference)}`);
  const parsed = verified.safeParse(data);
  if (!parsed.success) throw new PaystackError("malformed", "verify answered without status, reference, amount and currency");
  const d = parsed.data;
  return { status: d.status, reference: d.reference, amount: d.amount, currency: d.currency, channel: d.channel ?? null, paidAt: d.paid_at ?? null };
}

const refunded = z.object({ status: z.string().optional(), transaction: z.unknown().optional() });

/** Asks Paystack to refund the whole transaction; Paystack queues it ('pending', then 'processed'). */
export async function refundTransaction(config: PaystackConfig, reference: string): Promise<{ status: string }> {
  const data = await call(config, "POST", "/refund", { transaction: reference });
  const parsed = refunded.safeParse(data ?? {});
  if (!parsed.success) throw new PaystackError("malformed", "refund answered in an unexpected shape");
  return { status: parsed.data.status ?? "pending" };
}

/** x-paystack-signature: the HMAC-SHA512 of the raw body with the secret key, hex; compared in constant time. */
export function isPaystackSignature(secretKey: string, rawBody: Buffer, header: string | null): boolean {
  if (!header || !/^[0-9a-f]{128}$/i.test(header.trim())) return false;
  const expected = createHmac("sha512", secretKey).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(header.trim(), "hex"));
}

export function paystackSignature(secretKey: string, rawBody: Buffer | string): string {
  return createHmac("sha512", secretKey).update(rawBody).digest("hex");
}
