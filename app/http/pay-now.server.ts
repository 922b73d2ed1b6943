import { type AppLoadContext, redirect } from "react-router";
import type { StartPaymentResult } from "~/domain/payments/online-payments.server";
import { requestTranslator } from "./language.server";
import { redirectWithToast } from "./toast.server";

/**
 * 'Pay now', for an account's order (/orders/:number/pay) and for whoever holds an order's private link
 * (/track/:token/pay, docs/decisions/217). The POST starts a Paystack transaction and comes back to the
 * pay page (GET), which moves on to Paystack's page by <meta refresh>: a redirect straight out of a form
 * post would be stopped by our Content-Security-Policy (form-action 'self' applies to the redirects that
 * follow a post; see 032).
 */

/** After starting the payment: on to the pay page, or back to the order's page with the reason. */
export function payNowAnswer(context: AppLoadContext, page: string, started: StartPaymentResult) {
  if (started.ok) return redirect(`${page}/pay`, 303);
  return redirectWithToast(context, page, { type: "error", key: started.error === "notPayable" ? "purchase.pay.notPayable" : "purchase.pay.unavailable" });
}

/** The pay page's data: Paystack's page for an order still to be paid; otherwise back to the order's page. */
export function payPage(request: Request, page: string, order: { number: string; url: string | null }) {
  if (!order.url) throw redirect(page);
  const t = requestTranslator(request);
  return {
    number: order.number,
    url: order.url,
    texts: { title: t("purchase.pay.goingTitle", { number: order.number }), going: t("purchase.pay.going"), continue: t("purchase.pay.continue") },
  };
}

