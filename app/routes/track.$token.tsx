import { createSession } from "~/http/session.server";
import { data, Form, Link } from "react-router";
import { OrderDetails } from "~/components/order-details";
import { createAccountFromLink } from "~/domain/orders/guest-orders.server";
import { findOrderByLink } from "~/domain/orders/order-tracking.server";
import { orderNumberOfReference, settlePaystackReference } from "~/domain/payments/online-payments.server";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import { paymentInstructions, paymentLabel } from "~/lib/order-text";
import { creditLines } from "~/domain/credit/credit-lines.server";
import { formatPhone } from "~/lib/phone";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/track.$token";

/**
 * An order's private link (docs/decisions/217): the whole order without an account, with 'Pay now',
 * the invoice, and "Create an account" for a guest. Anything but a live link is the same 404.
 */
export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

async function orderOf(context: Route.LoaderArgs["context"], token: string) {
  const order = await findOrderByLink(context.db, token.slice(0, 100));
  if (!order) throw data(null, { status: 404 });
  return order;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const order = await orderOf(context, params.token);
  const path = `/track/${params.token}`;
  // Back from Paystack (?reference=…): Paystack's own answer, never the query string, settles it.
  const reference = new URL(request.url).searchParams.get("reference")?.slice(0, 40) ?? null;
  if (reference !== null && orderNumberOfReference(reference) === order.number) {
    const outcome = await settlePaystackReference(context, reference, "callback");
    if (outcome === "paid" || outcome === "alreadyPaid") throw await redirectWithToast(context, path, { type: "success", key: "purchase.pay.received" });
    if (outcome === "unavailable") throw await redirectWithToast(context, path, { type: "info", key: "purchase.pay.checking" });
    throw await redirectWithToast(context, path, { type: "error", key: "purchase.pay.failed" });
  }
  const t = requestTranslator(request);
  const { bank } = context.config.shop;
  const { id: _id, userId, email, customerName: _name, ...shown } = order;
  // A guest order may become an account's, once (its e-mail is confirmed: the link went to it).
  const canJoin = userId === null && email !== null && !(await context.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst());
  return {
    order: shown,
    paymentLabel: paymentLabel(t, order),
    howToPay: paymentInstructions(t, order, bank),
    phone: order.phone ? formatPhone(order.phone) : null,
    discountLabel: order.discount > 0 ? t("promotions.order.line", { code: order.promotionCode ?? "" }) : null,
    // What a gift card paid, and what is left to pay (docs/decisions/224).
    creditLines: creditLines(t, order),
    payOnline: { heading: t("purchase.pay.heading"), state: t(order.paymentAttempted ? "purchase.pay.failed" : "purchase.pay.notYet"), payNow: t("purchase.pay.payNow") },
    texts: {
      linkHeading: t("purchase.guest.linkHeading"),
      linkText: email ? t("purchase.guest.linkText", { email }) : "",
      trackLink: t("purchase.guest.trackLink"),
    },
    account: canJoin
      ? {
          heading: t("purchase.guest.accountHeading"),
          text: t("purchase.guest.accountText", { email: email ?? "" }),
          password: t("purchase.guest.password"),
          submit: t("purchase.guest.createAccount"),
        }
      : null,
  };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), ensureMessages("account"), ensureMessages("purchase"), ensureMessages("order")]);
  return loaded;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data && "order" in data ? `${data.order.number} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

/** "Create an account": the order's e-mail and a password; the e-mail's guest orders join it. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await readForm(request);
  const order = await orderOf(context, params.token);
  const t = requestTranslator(request);
  const result = await createAccountFromLink(context, params.token.slice(0, 100), String(form.get("password") ?? ""));
  if (result.ok) {
    // Signed in at once, as after confirming a registration.
    const setCookie = await createSession(context, result.userId);
    return redirectWithToast(context, "/profile?tab=orders", { type: "success", key: "purchase.guest.accountCreated" }, { headers: { "Set-Cookie": setCookie } });
  }
  if (result.problem === "password") return data({ error: t(result.error) }, { status: 400 });
  if (result.problem === "notFound") throw data(null, { status: 404 });
  return data({ error: t("purchase.guest.emailTaken", { email: order.email ?? "" }) }, { status: 409 });
}

export default function PrivateOrderPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { texts, account } = loaderData;
  const base = `/track/${params.token}`;
  return (
    <OrderDetails data={loaderData} base={base}>
      <section aria-labelledby="link-heading" className="mt-6 rounded-xl border border-stone-200 bg-white p-4 text-sm">
        <h2 id="link-heading" className="font-semibold">{texts.linkHeading}</h2>
        {texts.linkText && <p className="mt-1 text-stone-700">{texts.linkText}</p>}
        <Link to="/track" className="mt-2 inline-block underline">{texts.trackLink}</Link>
      </section>
      {account && (
        <section aria-labelledby="account-heading" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
          <h2 id="account-heading" className="font-semibold">{account.heading}</h2>
          <p className="mt-1 text-sm text-stone-700">{account.text}</p>
          <Form method="post" className="mt-3 max-w-sm space-y-3">
            <div>
              <label htmlFor="account-password" className="text-sm font-medium">{account.password}</label>
              <input
                id="account-password"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={8}
                maxLength={256}
                aria-invalid={actionData?.error ? true : undefined}
                aria-describedby={actionData?.error ? "account-error" : undefined}
                className="mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base"
              />
              {actionData?.error && <p id="account-error" role="alert" className="mt-1 text-sm text-rose-700">{actionData.error}</p>}
            </div>
            <button type="submit" className="rounded-full bg-ink px-5 py-2.5 font-medium text-white">{account.submit}</button>
          </Form>
        </section>
      )}
    </OrderDetails>
  );
}
