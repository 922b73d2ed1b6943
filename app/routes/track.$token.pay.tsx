import { useEffect } from "react";
import { data, redirect } from "react-router";
import { startOnlinePayment } from "~/domain/payments/online-payments.server";
import { findOrderByLink } from "~/domain/orders/order-tracking.server";
import { readForm } from "~/http/form.server";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/track.$token.pay";

/**
 * 'Pay now' from an order's private link (docs/decisions/217): as /orders/:number/pay, for whoever holds
 * the link. Paystack sends the shopper back to the private page, which settles the payment.
 */
async function orderOf(context: Route.LoaderArgs["context"], token: string) {
  const order = await findOrderByLink(context.db, token.slice(0, 100));
  if (!order) throw data(null, { status: 404 });
  return order;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  await readForm(request);
  const order = await orderOf(context, params.token);
  const page = `/track/${params.token}`;
  const started = await startOnlinePayment(context, { number: order.number, viaLink: { callbackPath: page } });
  if (started.ok) return redirect(`${page}/pay`, 303);
  return redirectWithToast(context, page, { type: "error", key: started.error === "notPayable" ? "purchase.pay.notPayable" : "purchase.pay.unavailable" });
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const order = await orderOf(context, params.token);
  const url = await context.db.selectFrom("orders").select("payment_url").where("id", "=", order.id).executeTakeFirst();
  if (order.paymentStatus !== "unpaid" || order.status === "cancelled" || !url?.payment_url || !/^https?:\/\//.test(url.payment_url)) {
    throw redirect(`/track/${params.token}`);
  }
  const t = requestTranslator(request);
  return {
    url: url.payment_url,
    texts: { title: t("purchase.pay.goingTitle", { number: order.number }), going: t("purchase.pay.going"), continue: t("purchase.pay.continue") },
  };
}

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), ensureMessages("purchase")]);
  return loaded;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: "Paystack | Unboxed" }, { name: "robots", content: "noindex" }, ...(data ? [{ httpEquiv: "refresh", content: `0;url=${data.url}` }] : [])];
}

export default function GuestPayNow({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    window.location.assign(loaderData.url);
  }, [loaderData.url]);
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <h1 className="font-serif text-2xl font-semibold">{loaderData.texts.title}</h1>
      <p className="mt-3 text-stone-600">{loaderData.texts.going}</p>
      <a href={loaderData.url} className="mt-6 inline-block rounded-full bg-ink px-5 py-2.5 text-white">
        {loaderData.texts.continue}
      </a>
    </div>
  );
}
