import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the WhatsApp Business Platform's Cloud API, for tests. It answers as the Graph
 * API's reference describes:
 *   POST /{version}/{phone-number-id}/messages  (Authorization: Bearer <token>)
 *     { messaging_product: "whatsapp", to, type: "template", template: { name, language: { code }, components } }
 *     → 200 { messaging_product, contacts: [{ input, wa_id }], messages: [{ id: "wamid...." }] }
 *     → 4xx { error: { message, type, code, error_data: { messaging_product, details }, fbtrace_id } }
 * with the refusals the shop must survive: 190 (bad token, 401), 132001 (template does not exist in
 * that language), 100 (invalid parameter: a malformed number), 130429 (rate limit hit, injected), and
 * 131026 (undeliverable) sent later as a `failed` status webhook, as Meta does. Accepted messages get
 * `sent` and `delivered` status webhooks signed as Meta signs them (X-Hub-Signature-256: sha256=HMAC
 * of the raw body with the app secret).
 * Test hooks: GET /_stand-in/messages, POST /_stand-in/fail { code, times }, POST /_stand-in/reset.
 */

export interface WhatsAppSent {
  id: string;
  to: string;
  template: string;
  language: string;
  params: string[];
  /** biz_opaque_callback_data: the shop's idempotency key, given back in the status webhooks */
  reference: string | null;
  at: string;
}

export interface WhatsAppStandIn {
  url: string;
  port: number;
  sent: WhatsAppSent[];
  /** every request, refused ones too */
  requests: { path: string; authorization: string | null; body: unknown; status: number }[];
  /** the next `times` sends are refused with this Graph error code (130429, 131026 as a refusal, 500, ...) */
  fail(code: number, times?: number): void;
  close(): Promise<void>;
}

/** Templates approved in the stand-in's WhatsApp account, per language. */
export const APPROVED_TEMPLATES: Record<string, string[]> = {
  en: [
    "unboxed_order_placed",
    "unboxed_payment_received",
    "unboxed_order_shipped",
    "unboxed_order_delivered",
    "unboxed_order_cancelled",
    "unboxed_back_in_stock",
    "unboxed_cart_reminder",
    "unboxed_cart_reminder_code",
    "unboxed_new_order",
  ],
  es: [
    "unboxed_order_placed",
    "unboxed_payment_received",
    "unboxed_order_shipped",
    "unboxed_order_delivered",
    "unboxed_order_cancelled",
    "unboxed_back_in_stock",
    "unboxed_cart_reminder",
    "unboxed_cart_reminder_code",
  ],
};

/** Numbers on which no WhatsApp account answers: the send is accepted, then a failed status (131026) comes. */
export const UNDELIVERABLE_NUMBERS = new Set(["2348099999999"]);

const MESSAGES: Record<number, { status: number; message: string; type: string }> = {
  4: { status: 400, message: "(#4) Application request limit reached", type: "OAuthException" },
  190: { status: 401, message: "Invalid OAuth access token - Cannot parse access token", type: "OAuthException" },
  100: { status: 400, message: "(#100) Invalid parameter", type: "OAuthException" },
  130429: { status: 400, message: "(#130429) Rate limit hit", type: "OAuthException" },
  131026: { status: 400, message: "(#131026) Message undeliverable", type: "OAuthException" },
  131047: { status: 400, message: "(#131047) Re-engagement message", type: "OAuthException" },
  132001: { status: 404, message: "(#132001) Template name does not exist in the translation", type: "OAuthException" },
  500: { status: 500, message: "An unknown error has occurred.", type: "OAuthException" },
};

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startWhatsAppStandIn(options: {
  port?: number;
  token: string;
  phoneNumberId: string;
  appSecret: string;
  /** where status webhooks go (the shop's /webhooks/whatsapp); none when null */
  webhookUrl?: string | null;
  /** called with each accepted message before it is answered (a test may stall or kill the sender here) */
  onAccepted?: (message: WhatsAppSent) => void | Promise<void>;
}): Promise<WhatsAppStandIn> {
  const sent: WhatsAppSent[] = [];
  const requests: WhatsAppStandIn["requests"] = [];
  let faults: { code: number; times: number }[] = [];

  const webhook = async (status: Record<string, unknown>) => {
    if (!options.webhookUrl) return;
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "102290129340398", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550001234", phone_number_id: options.phoneNumberId }, statuses: [status] } }] }],
    });
    const signature = `sha256=${createHmac("sha256", options.appSecret).update(body).digest("hex")}`;
    await fetch(options.webhookUrl, { method: "POST", headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature }, body }).catch(() => {});
  };

  const refuse = (res: http.ServerResponse, code: number, details: string) => {
    const known = MESSAGES[code] ?? { status: 400, message: `(#${code}) Error`, type: "OAuthException" };
    const body = { error: { message: known.message, type: known.type, code, error_data: { messaging_product: "whatsapp", details }, fbtrace_id: randomBytes(8).toString("base64url") } };
    res.writeHead(known.status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    return known.status;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const raw = await readBody(req);
    if (url.pathname === "/health") return void res.end("ok");
    if (url.pathname === "/_stand-in/messages") return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(sent));
    if (url.pathname === "/_stand-in/reset" && req.method === "POST") {
      sent.length = 0;
      faults = [];
      return void res.end("ok");
    }
    if (url.pathname === "/_stand-in/fail" && req.method === "POST") {
      const { code, times } = JSON.parse(raw) as { code: number; times?: number };
      faults.push({ code, times: times ?? 1 });
      return void res.end("ok");
    }
    const match = url.pathname.match(/^\/(v\d+\.\d+)\/([^/]+)\/messages$/);
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      body = null;
    }
    const record = (status: number) => requests.push({ path: url.pathname, authorization: req.headers.authorization ?? null, body, status });
    if (!match || req.method !== "POST") return void record(refuse(res, 100, "Unsupported request"));
    if (req.headers.authorization !== `Bearer ${options.token}`) return void record(refuse(res, 190, "bad token"));
    if (match[2] !== options.phoneNumberId) return void record(refuse(res, 100, "Unknown phone number id"));
    const fault = faults[0];
    if (fault) {
      if (--fault.times <= 0) faults.shift();
      return void record(refuse(res, fault.code, "injected"));
    }
    const template = body?.template as { name?: string; language?: { code?: string }; components?: { type: string; parameters: { text: string }[] }[] } | undefined;
    const to = typeof body?.to === "string" ? body.to : "";
    if (body?.messaging_product !== "whatsapp" || body?.type !== "template" || !template?.name || !template.language?.code) {
      return void record(refuse(res, 100, "messaging_product, type and template are required"));
    }
    if (!/^\d{8,15}$/.test(to)) return void record(refuse(res, 100, `Invalid parameter: to (${to})`));
    if (!APPROVED_TEMPLATES[template.language.code]?.includes(template.name)) {
      return void record(refuse(res, 132001, `template name (${template.name}) does not exist in ${template.language.code}`));
    }
    const id = `wamid.${randomBytes(24).toString("base64url")}`;
    const params = (template.components ?? []).filter((c) => c.type === "body").flatMap((c) => c.parameters.map((p) => p.text));
    const reference = typeof body?.biz_opaque_callback_data === "string" ? body.biz_opaque_callback_data : null;
    const accepted: WhatsAppSent = { id, to, template: template.name, language: template.language.code, params, reference, at: new Date().toISOString() };
    sent.push(accepted);
    record(200);
    await options.onAccepted?.(accepted);
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ messaging_product: "whatsapp", contacts: [{ input: to, wa_id: to }], messages: [{ id }] }));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const opaque = reference ? { biz_opaque_callback_data: reference } : {};
    setTimeout(() => {
      if (UNDELIVERABLE_NUMBERS.has(to)) {
        void webhook({ id, status: "failed", timestamp, recipient_id: to, ...opaque, errors: [{ code: 131026, title: "Message undeliverable", message: "Message undeliverable" }] });
      } else {
        void webhook({ id, status: "sent", timestamp, recipient_id: to, ...opaque }).then(() => webhook({ id, status: "delivered", timestamp, recipient_id: to, ...opaque }));
      }
    }, 50).unref();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sent,
    requests,
    fail(code, times = 1) {
      faults.push({ code, times });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
