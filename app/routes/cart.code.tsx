import { data, Link } from "react-router";
import { findCartId } from "~/http/cart.server";
import { enterCode, removeCode } from "~/domain/promotions/codes.server";
import { consumeAttempt, TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { BODY_PROBLEM_KEY, BODY_PROBLEM_STATUS, readFormBody, textFields } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/cart.code";

// The discount code on the shopper's cart (docs/decisions/219): entered or removed here from the cart
// and the checkout, with or without JavaScript. Its rules are judged wherever the cart is shown.

const PRIVATE = { "Cache-Control": "private, no-store" };

export function meta() {
  return [{ title: "Unboxed" }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const t = requestTranslator(request);
  let back = "/cart";
  const refuse = (status: number, key: string, values?: Record<string, string | number>, headers: Record<string, string> = {}) =>
    data({ message: t(key, values), back, backText: t(back === "/checkout" ? "promotions.shopper.backToCheckout" : "promotions.shopper.back") }, { status, headers: { ...PRIVATE, ...headers } });
  const read = await readFormBody(request);
  if (read.problem) return refuse(BODY_PROBLEM_STATUS[read.problem], BODY_PROBLEM_KEY[read.problem]);
  const form = textFields(read.form, ["intent", "code", "back"]);
  back = form.back === "/checkout" ? "/checkout" : "/cart";
  const cartId = await findCartId(request, context);
  if (form.intent === "remove") {
    if (cartId) await removeCode(context.db, cartId);
    return redirectWithToast(context, back, { type: "success", key: "promotions.toast.removed" }, { headers: PRIVATE });
  }
  if (form.intent !== "apply") return refuse(400, "common.error.badForm");
  if (!cartId) return refuse(400, "promotions.shopper.errors.noCart");
  const code = form.code.slice(0, 100);
  const entered = await enterCode(context.db, cartId, code);
  if (!entered.ok) {
    if (entered.reason === "invalid") return refuse(400, "promotions.shopper.errors.invalid");
    try {
      await consumeAttempt(context, "unknownCodeIp", context.clientIp);
    } catch (error) {
      if (!(error instanceof TooManyAttempts)) throw error;
      return refuse(429, "promotions.shopper.errors.tooMany", { minutes: Math.ceil(error.retryAfterSeconds / 60) }, { "Retry-After": String(error.retryAfterSeconds) });
    }
    return refuse(400, "promotions.shopper.errors.unknown", { code: code.trim().slice(0, 40) });
  }
  return redirectWithToast(context, back, { type: "success", key: "promotions.toast.applied", values: { code: entered.code } }, { headers: PRIVATE });
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get("Retry-After");
  return { ...PRIVATE, ...(retryAfter ? { "Retry-After": retryAfter } : {}) };
}

/** Without JavaScript, a refused code lands here: the reason, and the way back to the cart or the checkout. */
export default function DiscountCodeRefused({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <p role="alert" className="text-rose-700">
        {actionData?.message}
      </p>
      <Link to={actionData?.back ?? "/cart"} className="mt-6 inline-block rounded-full bg-ink px-5 py-2.5 text-white">
        {actionData?.backText ?? "←"}
      </Link>
    </div>
  );
}
