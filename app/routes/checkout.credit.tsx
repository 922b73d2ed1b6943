import { data, Link } from "react-router";
import { findCartId } from "~/http/cart.server";
import { getSessionUser } from "~/http/session.server";
import { enterGiftCard, removeGiftCard, setUseCredit } from "~/domain/credit/credit.server";
import { consumeAttempt, TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { BODY_PROBLEM_KEY, BODY_PROBLEM_STATUS, readFormBody, textFields } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/checkout.credit";

// The checkout's store credit and gift card choices (docs/decisions/224), kept on the cart: spend the
// account's credit or not, a gift card's code entered or removed. What they pay is decided when the
// order is placed, inside its transaction.

const PRIVATE = { "Cache-Control": "private, no-store" };

export function meta() {
  return [{ title: "Unboxed" }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const t = requestTranslator(request);
  const refuse = (status: number, key: string, values?: Record<string, string | number>, headers: Record<string, string> = {}) =>
    data({ message: t(key, values), backText: t("promotions.shopper.backToCheckout") }, { status, headers: { ...PRIVATE, ...headers } });
  const read = await readFormBody(request);
  if (read.problem) return refuse(BODY_PROBLEM_STATUS[read.problem], BODY_PROBLEM_KEY[read.problem]);
  const form = textFields(read.form, ["intent", "code"]);
  const cartId = await findCartId(request, context);
  if (!cartId) return refuse(400, "promotions.shopper.errors.noCart");
  const done = (key: string) => redirectWithToast(context, "/checkout", { type: "success", key }, { headers: PRIVATE });
  switch (form.intent) {
    case "use-credit":
    case "stop-credit": {
      // Only an account has credit; the cart found is the account's own.
      const user = await getSessionUser(request, context.db, context.readsOfRequest);
      if (!user) return refuse(403, "credit.shopper.signInForCredit");
      await setUseCredit(context.db, cartId, form.intent === "use-credit");
      return done(form.intent === "use-credit" ? "credit.shopper.creditOn" : "credit.shopper.creditOff");
    }
    case "gift-remove":
      await removeGiftCard(context.db, cartId);
      return done("credit.shopper.giftRemoved");
    case "gift-apply": {
      const entered = await enterGiftCard(context.db, cartId, form.code.slice(0, 100));
      if (entered.ok) return done("credit.shopper.giftApplied");
      if (entered.reason === "unknown") {
        // Unknown codes share the discount codes' limit per address: guessing either is slowed alike.
        try {
          await consumeAttempt(context, "unknownCodeIp", context.clientIp);
        } catch (error) {
          if (!(error instanceof TooManyAttempts)) throw error;
          return refuse(429, "credit.shopper.tooMany", {}, { "Retry-After": String(error.retryAfterSeconds) });
        }
      }
      return refuse(400, "credit.shopper.giftRefused", { reason: t(`credit.shopper.reasons.${entered.reason}`) });
    }
    default:
      return refuse(400, "common.error.badForm");
  }
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get("Retry-After");
  return { ...PRIVATE, ...(retryAfter ? { "Retry-After": retryAfter } : {}) };
}

/** Without JavaScript, a refused code lands here: the reason, and the way back to the checkout. */
export default function CreditRefused({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <p role="alert" className="text-rose-700">
        {actionData?.message}
      </p>
      <Link to="/checkout" className="mt-6 inline-block rounded-full bg-ink px-5 py-2.5 text-white">
        {actionData?.backText ?? "←"}
      </Link>
    </div>
  );
}
