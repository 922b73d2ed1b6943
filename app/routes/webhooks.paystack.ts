import { settlePaystackReference } from "~/domain/payments/online-payments.server";
import { isPaystackSignature } from "~/domain/payments/paystack.server";
import type { Route } from "./+types/webhooks.paystack";

/**
 * Paystack's webhook. Only a body signed with our secret key is read (x-paystack-signature, compared
 * in constant time); a charge.success is never trusted as it stands: the transaction is verified with
 * Paystack again before the order is marked paid. A replayed or repeated event changes nothing and is
 * answered 200, as are unknown references and other amounts (logged).
 */
const MAX_BODY = 64 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const secret = context.config.paystack?.secretKey;
  if (!secret) return new Response("Not found", { status: 404 });
  const raw = Buffer.from(await request.arrayBuffer());
  if (raw.length > MAX_BODY) return new Response("Too large", { status: 413 });
  if (!isPaystackSignature(secret, raw, request.headers.get("x-paystack-signature"))) {
    console.warn("Paystack webhook refused: missing or wrong signature");
    return new Response("Invalid signature", { status: 401 });
  }
  let event: { event?: unknown; data?: { reference?: unknown } };
  try {
    event = JSON.parse(raw.toString("utf8"));
  } catch {
    return new Response("Malformed JSON", { status: 400 });
  }
  if (event?.event !== "charge.success") return new Response("Ignored", { status: 200 });
  const reference = typeof event.data?.reference === "string" ? event.data.reference.slice(0, 60) : "";
  const outcome = await settlePaystackReference(context, reference, "webhook");
  // Paystack retries what is not answered 200: worth it only when we could not ask Paystack ourselves.
  if (outcome === "unavailable") return new Response("Verification unavailable, retry later", { status: 503 });
  return new Response(outcome, { status: 200 });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
