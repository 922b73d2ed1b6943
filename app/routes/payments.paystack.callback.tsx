import { data } from "react-router";
import { orderNumberOfReference, settlePaystackReference } from "~/domain/payments/online-payments.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { requireUser } from "~/http/session.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/payments.paystack.callback";

/**
 * Where Paystack sends the shopper back (callback_url?trxref=...&reference=...). The answer Paystack
 * gives to verify, never the query string, decides whether the order is paid.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const reference = (url.searchParams.get("reference") ?? url.searchParams.get("trxref") ?? "").slice(0, 40);
  const number = orderNumberOfReference(reference);
  // Someone else's order, or none: the same 404 either way (someone else's is logged), and Paystack is
  // not asked.
  const mine = number
    ? await context.db.selectFrom("orders").select("id").where("number", "=", number).where("user_id", "=", user.id).executeTakeFirst()
    : undefined;
  if (!number || !mine) {
    if (number) await noteRefusedObject(context, request, user.id, { kind: "payment", number });
    throw data(null, { status: 404 });
  }
  const outcome = await settlePaystackReference(context, reference, "callback");
  const path = `/orders/${number}`;
  if (outcome === "paid" || outcome === "alreadyPaid") return redirectWithToast(context, path, { type: "success", key: "purchase.pay.received" });
  if (outcome === "unavailable") return redirectWithToast(context, path, { type: "info", key: "purchase.pay.checking" });
  return redirectWithToast(context, path, { type: "error", key: "purchase.pay.failed" });
}
