import { createHmac, randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Termii's SMS API, for tests, with the shapes of Termii's developer reference:
 *   POST /api/sms/send { api_key, to, from, sms, type: "plain", channel: "dnd" | "generic" | "whatsapp" }
 *     → 200 { message_id, message: "Successfully Sent", balance, user }
 *     → 4xx { message } for a wrong api key (401), an invalid number, an unregistered sender id, an
 *       insufficient balance (each a 400, as Termii answers them)
 * and the delivery report it posts to the account's webhook: { type: "outbound", id, message_id,
 * receiver, sender, message, sent_at, cost, status: "Delivered" | "DND Active on Phone Number" |
 * "Message Failed", channel } signed with X-Termii-Signature (HMAC-SHA512 of the body with the
 * secret key). A number starting 234809999 has do-not-disturb on (the report says so).
 * Test hooks: GET /_stand-in/messages, POST /_stand-in/fail { message, status, times },
 * POST /_stand-in/balance { balance }, POST /_stand-in/reset.
 */

export interface TermiiSent {
  messageId: string;
  to: string;
  from: string;
  sms: string;
  channel: string;
  at: string;
}

export interface TermiiStandIn {
  url: string;
  port: number;
  sent: TermiiSent[];
  balance: number;
  fail(message: string, status?: number, times?: number): void;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startTermiiStandIn(options: {
  port?: number;
  apiKey: string;
  secretKey: string;
  senderIds?: string[];
  balance?: number;
  webhookUrl?: string | null;
  /** called with each accepted message before it is answered (a test may stall or kill the sender here) */
  onAccepted?: (message: TermiiSent) => void | Promise<void>;
}): Promise<TermiiStandIn> {
  const sent: TermiiSent[] = [];
  let faults: { message: string; status: number; times: number }[] = [];
  const state = { balance: options.balance ?? 1000 };
  const senders = options.senderIds ?? ["Unboxed"];

  const report = async (message: TermiiSent, status: string) => {
    if (!options.webhookUrl) return;
    const body = JSON.stringify({
      type: "outbound",
      id: String(randomInt(1e9)),
      message_id: message.messageId,
      receiver: message.to,
      sender: message.from,
      message: message.sms,
      sent_at: message.at.replace("T", " ").slice(0, 19),
      cost: "3.9",
      status,
      channel: message.channel,
    });
    const signature = createHmac("sha512", options.secretKey).update(body).digest("hex");
    await fetch(options.webhookUrl, { method: "POST", headers: { "Content-Type": "application/json", "X-Termii-Signature": signature }, body }).catch(() => {});
  };

  const answer = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const raw = await readBody(req);
    if (url.pathname === "/health") return void res.end("ok");
    if (url.pathname === "/_stand-in/messages") return void answer(res, 200, sent);
    if (url.pathname === "/_stand-in/reset" && req.method === "POST") {
      sent.length = 0;
      faults = [];
      state.balance = options.balance ?? 1000;
      return void res.end("ok");
    }
    if (url.pathname === "/_stand-in/fail" && req.method === "POST") {
      const { message, status, times } = JSON.parse(raw) as { message: string; status?: number; times?: number };
      faults.push({ message, status: status ?? 400, times: times ?? 1 });
      return void res.end("ok");
    }
    if (url.pathname === "/_stand-in/balance" && req.method === "POST") {
      state.balance = (JSON.parse(raw) as { balance: number }).balance;
      return void res.end("ok");
    }
    if (url.pathname !== "/api/sms/send" || req.method !== "POST") return void answer(res, 404, { message: "Not found" });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return void answer(res, 400, { message: "Invalid JSON" });
    }
    if (body.api_key !== options.apiKey) return void answer(res, 401, { message: "Invalid api key. Please check your api key and try again" });
    const fault = faults[0];
    if (fault) {
      if (--fault.times <= 0) faults.shift();
      return void answer(res, fault.status, { message: fault.message });
    }
    const to = String(body.to ?? "");
    if (!/^234[789][01]\d{8}$/.test(to)) return void answer(res, 400, { message: "Invalid phone number: the destination must be a Nigerian mobile number in international format" });
    if (!senders.includes(String(body.from))) return void answer(res, 400, { message: "ApplicationSenderId not found for applicationId" });
    if (body.type !== "plain" || !["dnd", "generic", "whatsapp"].includes(String(body.channel)) || typeof body.sms !== "string" || !body.sms) {
      return void answer(res, 400, { message: "The type, channel and sms fields are required" });
    }
    if (state.balance <= 0) return void answer(res, 400, { message: "Insufficient balance" });
    state.balance--;
    const message: TermiiSent = { messageId: String(3_017_544_054_459_000 + randomInt(1e6)), to, from: String(body.from), sms: body.sms, channel: String(body.channel), at: new Date().toISOString() };
    sent.push(message);
    await options.onAccepted?.(message);
    answer(res, 200, { message_id: message.messageId, message: "Successfully Sent", balance: state.balance, user: "Unboxed Perfumes" });
    setTimeout(() => void report(message, to.startsWith("234809999") ? "DND Active on Phone Number" : "Delivered"), 50).unref();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sent,
    get balance() {
      return state.balance;
    },
    set balance(value: number) {
      state.balance = value;
    },
    fail(message, status = 400, times = 1) {
      faults.push({ message, status, times });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
