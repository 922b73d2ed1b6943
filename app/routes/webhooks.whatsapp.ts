import { applyDeliveryReport } from "~/domain/messages/outbox.server";
import { isWhatsAppSignature, whatsAppOrderMessages, whatsAppStatuses } from "~/domain/messages/whatsapp.server";
import { keepWhatsAppNumber } from "~/domain/orders/whatsapp-orders.server";
import type { Route } from "./+types/webhooks.whatsapp";

/**
 * The WhatsApp Cloud API's webhook (docs/decisions/220). GET is Meta's subscription handshake: the
 * challenge is echoed only for our verify token. POST carries message statuses; only a body signed
 * with the app secret (X-Hub-Signature-256) is read, and a status never moves a message backwards.
 * A shopper's text naming a WhatsApp order's reference gives that order the sender's number.
 */
const MAX_BODY = 256 * 1024;

export function loader({ request, context }: Route.LoaderArgs) {
  const verifyToken = context.config.messaging.whatsapp?.verifyToken;
  const url = new URL(request.url);
  if (!verifyToken) return new Response("Not found", { status: 404 });
  if (url.searchParams.get("hub.mode") !== "subscribe" || url.searchParams.get("hub.verify_token") !== verifyToken) {
    return new Response("Forbidden", { status: 403 });
  }
  const challenge = (url.searchParams.get("hub.challenge") ?? "").slice(0, 200);
  return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const secret = context.config.messaging.whatsapp?.appSecret;
  if (!secret) return new Response("Not found", { status: 404 });
  const raw = Buffer.from(await request.arrayBuffer());
  if (raw.length > MAX_BODY) return new Response("Too large", { status: 413 });
  if (!isWhatsAppSignature(secret, raw, request.headers.get("x-hub-signature-256"))) return new Response("Invalid signature", { status: 401 });
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return new Response("Malformed JSON", { status: 400 });
  }
  let applied = 0;
  for (const report of whatsAppStatuses(body)) if (await applyDeliveryReport(context.db, "whatsapp", report)) applied++;
  for (const message of whatsAppOrderMessages(body)) if (await keepWhatsAppNumber(context.db, message)) applied++;
  return new Response(`applied ${applied}`, { status: 200 });
}
