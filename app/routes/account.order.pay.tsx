import { requestTranslator } from "~/http/language.server";
import { useEffect } from "react";
import { data, redirect } from "react-router";
import { startOnlinePayment } from "~/domain/payments/online-payments.server";
import { isOrderNumber } from "~/domain/orders/orders.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { requireUser } from "~/http/session.server";
import { readForm } from "~/http/form.server";
import { ensureMessages } from "~/lib/i18n.client";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/account.order.pay";

/**
 * 'Pay now': the POST starts a Paystack transaction and comes back here (GET), which moves on to
 * Paystack's page by <meta refresh>. A redirect straight out of a form post would be stopped by our
 * Content-Security-Policy (form-action 'self' applies to the redirects that follow a post; see 032).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  // The button's form carries nothing, but a body that is not a form is refused like everywhere else.
  await readForm(request);
  if (!isOrderNumber(params.number)) throw data(null, { status: 404 });
  const started = await startOnlinePayment(context, { number: params.number, userId: user.id });
  if (started.ok) return redirect(`/orders/${params.number}/pay`, 303);
  if (started.error === "notFound") {
    await noteRefusedObject(context, request, user.id, { kind: "payment", number: params.number });
    throw data(null, { status: 404 });
  }
  return redirectWithToast(context, `/orders/${params.number}`, { type: "error", key: started.error === "notPayable" ? "purchase.pay.notPayable" : "purchase.pay.unavailable" });
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const order = isOrderNumber(params.number)
    ? await context.db
        .selectFrom("orders")
        .select(["number", "payment_url", "payment_status", "status"])
        .where("number", "=", params.number)
        .where("user_id", "=", user.id)
        .executeTakeFirst()
    : undefined;
  if (!order) {
    await noteRefusedObject(context, request, user.id, { kind: "payment", number: params.number });
    throw data(null, { status: 404 });
  }
  if (order.payment_status !== "unpaid" || order.status === "cancelled" || !order.payment_url || !/^https?:\/\//.test(order.payment_url)) {
    throw redirect(`/orders/${order.number}`);
  }
  const t = requestTranslator(request);
  return {
    number: order.number,
    url: order.payment_url,
    texts: { title: t("purchase.pay.goingTitle", { number: order.number }), going: t("purchase.pay.going"), continue: t("purchase.pay.continue") },
  };
}

/** Reached by in-app navigation (after checkout): the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("account"), ensureMessages("purchase")]);
  return data;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: "Paystack | Unboxed" }, { name: "robots", content: "noindex" }, ...(data ? [{ httpEquiv: "refresh", content: `0;url=${data.url}` }] : [])];
}

export default function PayNow({ loaderData }: Route.ComponentProps) {
  // Arrived by in-app navigation, the refresh tag may not be acted on: go on from here.
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
