import { data } from "react-router";
import { PayRedirect, payMeta } from "~/components/pay-redirect";
import { pendingPaymentUrl, startOnlinePayment } from "~/domain/payments/online-payments.server";
import { isOrderNumber } from "~/domain/orders/orders.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { requireUser } from "~/http/session.server";
import { readForm } from "~/http/form.server";
import { payNowAnswer, payPage } from "~/http/pay-now.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/account.order.pay";

/** 'Pay now' for one of the shopper's orders (http/pay-now.server.ts): the POST starts Paystack, the GET moves on to it. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  // The button's form carries nothing, but a body that is not a form is refused like everywhere else.
  await readForm(request);
  if (!isOrderNumber(params.number)) throw data(null, { status: 404 });
  const started = await startOnlinePayment(context, { number: params.number, userId: user.id });
  if (!started.ok && started.error === "notFound") {
    await noteRefusedObject(context, request, user.id, { kind: "payment", number: params.number });
    throw data(null, { status: 404 });
  }
  return payNowAnswer(context, `/orders/${params.number}`, started);
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const order = isOrderNumber(params.number) ? await pendingPaymentUrl(context.db, { number: params.number, userId: user.id }) : null;
  if (!order) {
    await noteRefusedObject(context, request, user.id, { kind: "payment", number: params.number });
    throw data(null, { status: 404 });
  }
  return payPage(request, `/orders/${order.number}`, order);
}

/** Reached by in-app navigation (after checkout): the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("account"), ensureMessages("purchase")]);
  return data;
}

export function meta({ data }: Route.MetaArgs) {
  return payMeta(data?.url);
}

export default function PayNow({ loaderData }: Route.ComponentProps) {
  return <PayRedirect url={loaderData.url} texts={loaderData.texts} />;
}
