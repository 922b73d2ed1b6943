import { applyDeliveryReport } from "~/domain/messages/outbox.server";
import { isTermiiSignature, termiiDeliveryReport } from "~/domain/messages/termii.server";
import type { Route } from "./+types/webhooks.termii";

/**
 * Termii's delivery reports (docs/decisions/220): only a body signed with the account's secret key
 * (X-Termii-Signature, HMAC-SHA512) is read; an unknown message or an unknown status is answered 200.
 */
const MAX_BODY = 64 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const secret = context.config.messaging.sms?.secretKey;
  if (!secret) return new Response("Not found", { status: 404 });
  const raw = Buffer.from(await request.arrayBuffer());
  if (raw.length > MAX_BODY) return new Response("Too large", { status: 413 });
  if (!isTermiiSignature(secret, raw, request.headers.get("x-termii-signature"))) return new Response("Invalid signature", { status: 401 });
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return new Response("Malformed JSON", { status: 400 });
  }
  const report = termiiDeliveryReport(body);
  const applied = report ? await applyDeliveryReport(context.db, "sms", report) : false;
  return new Response(applied ? "applied" : "ignored", { status: 200 });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
