import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Paystack, for tests (Paystack cannot be reached from the test machines). It
 * implements what the shop uses, with the request and response shapes of Paystack's API reference:
 *   POST /transaction/initialize   { email, amount (kobo), reference, callback_url, ... }
 *   GET  /transaction/verify/:ref  { status, message, data: { status, reference, amount, currency, channel, paid_at, ... } }
 *   POST /refund                   { transaction }
 * each behind `Authorization: Bearer <secret key>`, and a hosted checkout page (the authorization_url)
 * where the shopper pays or cancels; paying sends a `charge.success` webhook signed as Paystack signs
 * it (x-paystack-signature: HMAC-SHA512 of the raw body with the secret key) and returns the shopper
 * to callback_url?trxref=...&reference=.... Faults can be injected per endpoint: HTTP 500, no answer
 * (timeout) or malformed JSON.
 */

export type Endpoint = "initialize" | "verify" | "refund";
export type Fault = "500" | "timeout" | "malformed";

export interface StandInTransaction {
  id: number;
  reference: string;
  accessCode: string;
  email: string;
  amount: number;
  currency: string;
  callbackUrl: string | null;
  status: "abandoned" | "success" | "failed" | "reversed";
  channel: string | null;
  paidAt: string | null;
  createdAt: string;
  refunds: number;
}

export interface PaystackStandIn {
  url: string;
  port: number;
  transactions: Map<string, StandInTransaction>;
  /** requests received, newest last: endpoint and parsed body */
  requests: { endpoint: string; method: string; path: string; authorization: string | null; body: unknown }[];
  /** the next `times` calls to the endpoint fail this way */
  fail(endpoint: Endpoint, fault: Fault, times?: number): void;
  /** marks a transaction paid, as the hosted page does, optionally without sending the webhook */
  pay(reference: string, options?: { channel?: string; webhook?: boolean }): Promise<void>;
  /** sends a charge.success webhook for the transaction (as Paystack would, possibly again) */
  sendWebhook(reference: string, override?: Record<string, unknown>): Promise<number>;
  webhookUrl: string | null;
  close(): Promise<void>;
}

let nextId = 4_099_260_000;

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function transactionData(tx: StandInTransaction) {
  return {
    id: tx.id,
    domain: "test",
    status: tx.status,
    reference: tx.reference,
    amount: tx.amount,
    message: null,
    gateway_response: tx.status === "success" ? "Successful" : tx.status === "abandoned" ? "The transaction was not completed" : "Declined",
    paid_at: tx.paidAt,
    created_at: tx.createdAt,
    channel: tx.channel,
    currency: tx.currency,
    ip_address: "127.0.0.1",
    metadata: "",
    fees: tx.status === "success" ? Math.min(200_000, Math.round(tx.amount * 0.015)) : null,
    customer: { id: 92312441, customer_code: "CUS_standin", email: tx.email },
    authorization: tx.channel ? { authorization_code: "AUTH_standin", channel: tx.channel, bank: "TEST BANK", country_code: "NG", reusable: false } : {},
  };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function hostedPage(tx: StandInTransaction): string {
  const amount = new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN" }).format(tx.amount / 100);
  const button = (channel: string, label: string) =>
    `<form method="post" action="/checkout/${tx.accessCode}/pay"><input type="hidden" name="channel" value="${channel}"><button type="submit">${label}</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Paystack Checkout (stand-in)</title></head><body>
<main><h1>Paystack Checkout</h1><p>${escape(tx.email)}</p><p>Pay <strong data-amount="${tx.amount}">${amount}</strong></p>
${tx.status === "success" ? "<p>This transaction is already paid.</p>" : `${button("card", `Pay ${amount} with card`)}${button("bank_transfer", "Pay with bank transfer")}${button("ussd", "Pay with USSD")}
<form method="post" action="/checkout/${tx.accessCode}/cancel"><button type="submit">Cancel payment</button></form>`}
</main></body></html>`;
}

export async function startPaystackStandIn(options: { secretKey: string; port?: number; webhookUrl?: string | null }): Promise<PaystackStandIn> {
  const transactions = new Map<string, StandInTransaction>();
  const byCode = new Map<string, string>();
  const faults = new Map<Endpoint, { fault: Fault; times: number }>();
  const requests: PaystackStandIn["requests"] = [];
  const hanging = new Set<http.ServerResponse>();
  let base = "";

  const takeFault = (endpoint: Endpoint): Fault | null => {
    const f = faults.get(endpoint);
    if (!f) return null;
    if (--f.times <= 0) faults.delete(endpoint);
    return f.fault;
  };

  const standIn: PaystackStandIn = {
    url: "",
    port: 0,
    transactions,
    requests,
    webhookUrl: options.webhookUrl ?? null,
    fail(endpoint, fault, times = 1) {
      faults.set(endpoint, { fault, times });
    },
    async pay(reference, { channel = "card", webhook = true } = {}) {
      const tx = transactions.get(reference);
      if (!tx) throw new Error(`stand-in: no transaction ${reference}`);
      tx.status = "success";
      tx.channel = channel;
      tx.paidAt = new Date().toISOString();
      if (webhook && standIn.webhookUrl) await standIn.sendWebhook(reference).catch(() => 0);
    },
    async sendWebhook(reference, override = {}) {
      const tx = transactions.get(reference);
      if (!standIn.webhookUrl) throw new Error("stand-in: no webhook URL");
      const body = JSON.stringify({ event: "charge.success", data: { ...(tx ? transactionData(tx) : { reference }), ...override } });
      const signature = createHmac("sha512", options.secretKey).update(body).digest("hex");
      const res = await fetch(standIn.webhookUrl, { method: "POST", headers: { "Content-Type": "application/json", "x-paystack-signature": signature }, body });
      await res.arrayBuffer();
      return res.status;
    },
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const raw = req.method === "POST" ? await readBody(req) : "";
    const authorized = req.headers.authorization === `Bearer ${options.secretKey}`;
    const endpoint: Endpoint | null =
      req.method === "POST" && url.pathname === "/transaction/initialize"
        ? "initialize"
        : req.method === "GET" && url.pathname.startsWith("/transaction/verify/")
          ? "verify"
          : req.method === "POST" && url.pathname === "/refund"
            ? "refund"
            : null;

    if (endpoint) {
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      requests.push({ endpoint, method: req.method!, path: url.pathname, authorization: req.headers.authorization ?? null, body });
      const fault = takeFault(endpoint);
      if (fault === "500") return json(res, 500, { status: false, message: "An error occurred" });
      if (fault === "malformed") return void res.writeHead(200, { "Content-Type": "application/json" }).end('{"status": true, "data": {"reference": ');
      if (fault === "timeout") return void hanging.add(res);
      if (!authorized) return json(res, 401, { status: false, message: "Invalid key" });
    }

    if (endpoint === "initialize") {
      const input = (body(raw) ?? {}) as Record<string, unknown>;
      const amount = Number(input.amount);
      if (typeof input.email !== "string" || !input.email.includes("@")) return json(res, 400, { status: false, message: "Invalid Email Address Passed" });
      if (!Number.isInteger(amount) || amount <= 0) return json(res, 400, { status: false, message: "Invalid Amount Sent" });
      const reference = typeof input.reference === "string" && input.reference ? input.reference : randomBytes(6).toString("hex");
      if (transactions.has(reference)) return json(res, 400, { status: false, message: "Duplicate Transaction Reference" });
      const accessCode = randomBytes(8).toString("hex");
      transactions.set(reference, {
        id: nextId++,
        reference,
        accessCode,
        email: input.email,
        amount,
        currency: typeof input.currency === "string" ? input.currency : "NGN",
        callbackUrl: typeof input.callback_url === "string" ? input.callback_url : null,
        status: "abandoned",
        channel: null,
        paidAt: null,
        createdAt: new Date().toISOString(),
        refunds: 0,
      });
      byCode.set(accessCode, reference);
      return json(res, 200, { status: true, message: "Authorization URL created", data: { authorization_url: `${base}/checkout/${accessCode}`, access_code: accessCode, reference } });
    }
    if (endpoint === "verify") {
      const tx = transactions.get(decodeURIComponent(url.pathname.slice("/transaction/verify/".length)));
      if (!tx) return json(res, 400, { status: false, message: "Transaction reference not found" });
      return json(res, 200, { status: true, message: "Verification successful", data: transactionData(tx) });
    }
    if (endpoint === "refund") {
      const input = (body(raw) ?? {}) as Record<string, unknown>;
      const tx = [...transactions.values()].find((t) => t.reference === input.transaction || String(t.id) === String(input.transaction));
      if (!tx) return json(res, 404, { status: false, message: "Transaction not found" });
      if (tx.status !== "success") return json(res, 400, { status: false, message: "Transaction has been fully reversed" });
      tx.status = "reversed";
      tx.refunds++;
      return json(res, 200, {
        status: true,
        message: "Refund has been queued for processing",
        data: { transaction: { id: tx.id, reference: tx.reference, amount: tx.amount, currency: tx.currency, channel: tx.channel }, amount: tx.amount, currency: tx.currency, status: "pending" },
      });
    }

    // The hosted checkout page.
    const page = /^\/checkout\/([0-9a-f]{16})(\/(pay|cancel))?$/.exec(url.pathname);
    const tx = page ? transactions.get(byCode.get(page[1]) ?? "") : undefined;
    if (page && tx && req.method === "GET" && !page[2]) return void res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(hostedPage(tx));
    if (page && tx && req.method === "POST" && page[2]) {
      if (page[3] === "pay" && tx.status !== "success") {
        const channel = new URLSearchParams(raw).get("channel") ?? "card";
        // The webhook and the shopper's return happen at the same moment, as they do with Paystack.
        void standIn.pay(tx.reference, { channel, webhook: true });
      }
      const back = tx.callbackUrl ? `${tx.callbackUrl}${tx.callbackUrl.includes("?") ? "&" : "?"}trxref=${encodeURIComponent(tx.reference)}&reference=${encodeURIComponent(tx.reference)}` : base;
      return void res.writeHead(302, { Location: back }).end();
    }
    if (url.pathname === "/health") return json(res, 200, { status: true });
    json(res, 404, { status: false, message: "Not found" });
  });

  function body(text: string): unknown {
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      return null;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  standIn.url = base;
  standIn.port = port;
  return standIn;
}
