import { data, Link } from "react-router";
import { OrderDetails } from "~/components/order-details";
import { paymentInstructions, paymentLabel } from "~/lib/order-text";
import { requestTranslator } from "~/http/language.server";
import { findOrderForUser } from "~/domain/orders/order-history.server";
import { isOrderNumber } from "~/domain/orders/orders.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { requireUser } from "~/http/session.server";
import { useT } from "~/lib/i18n";
import { formatPhone } from "~/lib/phone";
import { ensureMessages } from "~/lib/i18n.client";
import { creditLines } from "~/domain/credit/credit-lines.server";
import type { Route } from "./+types/account.order";

// Someone's orders and addresses: never kept by a shared cache or shown again from the back button.
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const number = params.number.slice(0, 40);
  // A number that cannot be an order's (a NUL in it would be an error on PostgreSQL) is no order.
  const order = isOrderNumber(number) ? await findOrderForUser(context.db, user.id, number) : null;
  // Someone else's order, or none: the same 404 either way (someone else's is logged).
  if (!order) {
    await noteRefusedObject(context, request, user.id, { kind: "order", number });
    throw data(null, { status: 404 });
  }
  // Written here, so the page's script carries none of the payment labels' texts.
  const t = requestTranslator(request);
  const { bank } = context.config.shop;
  const payOnline = { heading: t("purchase.pay.heading"), state: t(order.paymentAttempted ? "purchase.pay.failed" : "purchase.pay.notYet"), payNow: t("purchase.pay.payNow") };
  const discountLabel = order.discount > 0 ? t("promotions.order.line", { code: order.promotionCode ?? "" }) : null;
  return { order, bank, discountLabel, creditLines: creditLines(t, order), paymentLabel: paymentLabel(t, order), howToPay: paymentInstructions(t, order, bank), phone: order.phone ? formatPhone(order.phone) : null, payOnline };
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("account"), ensureMessages("purchase"), ensureMessages("order")]);
  return data;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.order.number} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <OrderDetails
      data={loaderData}
      base={`/orders/${encodeURIComponent(loaderData.order.number)}`}
      back={
        <Link to="/profile?tab=orders" className="text-sm text-stone-600 underline">
          {t("order.back")}
        </Link>
      }
    />
  );
}
