import { data } from "react-router";
import { PayRedirect, payMeta } from "~/components/pay-redirect";
import { pendingPaymentUrl, startOnlinePayment } from "~/domain/payments/online-payments.server";
import { findOrderByLink } from "~/domain/orders/order-tracking.server";
import { readForm } from "~/http/form.server";
import { payNowAnswer, payPage } from "~/http/pay-now.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/track.$token.pay";

/**
 * 'Pay now' from an order's private link (docs/decisions/217): as /orders/:number/pay, for whoever holds
 * the link (http/pay-now.server.ts). Paystack sends the shopper back to the private page, which settles the payment.
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
  return payNowAnswer(context, page, await startOnlinePayment(context, { number: order.number, viaLink: { callbackPath: page } }));
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const order = await orderOf(context, params.token);
  const page = `/track/${params.token}`;
  return payPage(request, page, (await pendingPaymentUrl(context.db, { id: order.id })) ?? { number: order.number, url: null });
}

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), ensureMessages("purchase")]);
  return loaded;
}

export function meta({ data }: Route.MetaArgs) {
  return payMeta(data?.url);
}

export default function GuestPayNow({ loaderData }: Route.ComponentProps) {
  return <PayRedirect url={loaderData.url} texts={loaderData.texts} />;
}
