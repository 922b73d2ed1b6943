import { redirect } from "react-router";
import { CheckoutScreen } from "~/components/checkout-screen";
import { findCartId } from "~/http/cart.server";
import { checkoutFailure, checkoutPage, checkoutRefusal } from "~/http/checkout-page.server";
import { type CheckoutResult, placeCheckoutOrder } from "~/domain/orders/checkout.server";
import { guestCheckoutOffered, placeGuestOrder } from "~/domain/orders/guest-orders.server";
import { paymentOptions } from "~/domain/orders/delivery.server";
import { startOnlinePayment } from "~/domain/payments/online-payments.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { getSessionUser, requireUser } from "~/http/session.server";
import { readForm } from "~/http/form.server";
import { detectLocale, requestTranslator } from "~/http/language.server";
import { consentLabel } from "~/http/consent-form.server";
import { redirectWithToast } from "~/http/toast.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/account.checkout";

/** A signed-in shopper's checkout, or a guest's when the shop allows it (else: sign in first). */
async function shopper(request: Request, context: Route.LoaderArgs["context"]) {
  const user = await getSessionUser(request, context.db, context.readsOfRequest);
  if (user || !guestCheckoutOffered(context.config)) return { user: user ?? (await requireUser(request, context)) };
  return { user: null };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await shopper(request, context);
  return checkoutPage(request, context, user);
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("address"), ensureMessages("purchase")]);
  return data;
}

/** Someone's orders and addresses: never kept by a shared cache or shown again from the back button. A refusal over the open-order cap says when to try again. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.title} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await shopper(request, context);
  const form = await readForm(request);
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 1000);
  const chosen = text("addressId");
  const addressId = chosen === "" || chosen === "new" ? null : /^\d{1,9}$/.test(chosen) ? Number(chosen) : -1;
  const address = { street: text("street"), city: text("city"), state: text("state"), country: text("country") };
  const phone = text("phone");
  const choices = { deliveryMethod: text("deliveryMethod"), paymentMethod: text("paymentMethod") };
  const contact = { name: text("name"), email: text("email") };
  const shown = { values: { ...address, phone, ...contact }, ...choices };
  const t = requestTranslator(request);
  try {
    const input = {
      checkoutKey: text("checkoutKey"),
      seen: text("seen"),
      addressId,
      address,
      phone,
      saveAddress: form.get("saveAddress") === "on",
      ...choices,
      expectedTotal: text("expectedTotal"),
      payment: paymentOptions(context.config),
    };
    const result: CheckoutResult & { link?: string } = user
      ? await placeCheckoutOrder(context.db, user, input, {
          mail: { t, config: context.config, user },
          holdHours: context.config.orderHoldHours,
          holds: context.config.holds,
          clientIp: context.clientIp,
          marketingOptIn: form.get("marketing") === "on" ? { locale: detectLocale(request).locale, wording: consentLabel(request) } : null,
        })
      : await placeGuestOrder(context, await findCartId(request, context), { ...input, ...contact }, {
          t,
          locale: detectLocale(request).locale,
          marketing: { on: form.get("marketing") === "on", wording: consentLabel(request) },
        });
    if (!result.ok) {
      if (result.problem === "unknownAddress" && addressId !== null && user) await noteRefusedObject(context, request, user.id, { kind: "address", id: addressId });
      return checkoutRefusal(t, result, shown);
    }
    // A guest goes on to the order's private page: the only page of the order a guest can open.
    const page = result.link ?? `/orders/${result.order.number}`;
    if (result.order.paymentMethod === "paystack" && result.order.paymentStatus === "unpaid") {
      const started = await startOnlinePayment(
        context,
        user ? { number: result.order.number, userId: user.id } : { number: result.order.number, viaLink: { callbackPath: page } },
      );
      // Placed either way: when Paystack cannot be reached, the order page offers 'Pay now'.
      if (started.ok) return redirect(`${page}/pay`, 303);
      return redirectWithToast(context, page, { type: "error", key: "purchase.pay.unavailable" });
    }
    return redirectWithToast(context, page, {
      type: "success",
      key: "purchase.checkout.placed",
      values: { number: result.order.number },
    });
  } catch (error) {
    console.error("checkout failed:", error);
    return checkoutFailure(t, shown);
  }
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  return <CheckoutScreen loaderData={loaderData} actionData={actionData} />;
}
