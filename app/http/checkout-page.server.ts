import { type AppLoadContext, data } from "react-router";
import { type CheckoutResult, checkoutView, guestCheckoutView } from "~/domain/orders/checkout.server";
import { guestPaymentOptions } from "~/domain/orders/guest-orders.server";
import { paymentOptions } from "~/domain/orders/delivery.server";
import { activeConsent, guestConsentOnCart } from "~/domain/messages/consent.server";
import type { SessionUser } from "~/domain/accounts/sessions.server";
import type { PaymentMethod } from "~/db/schema";
import { PAYMENT_METHODS, STATE_SLOT } from "~/lib/delivery";
import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { findCartId } from "./cart.server";
import { codePanel, codePanelHtml, type DiscountCodePanel } from "./code-panel.server";
import { creditPanel, creditPanelHtml } from "./credit-panel.server";
import { consentLabel } from "./consent-form.server";
import { requestTranslator } from "./language.server";

/**
 * The checkout page as the web edge writes it: the domain's view of the cart, the addresses and the
 * fees, with every text only the server needs written here in the shopper's language, so the page's
 * script carries none of them (the JavaScript budget, docs/decisions/140).
 */

function checkoutTexts(t: Translate) {
  return {
    methodHints: Object.fromEntries(PAYMENT_METHODS.map((m) => [m, t(`purchase.checkout.methodHints.${m}`)])) as Record<PaymentMethod, string>,
    noPayment: { any: t("purchase.checkout.noPaymentMethods"), forState: t("purchase.checkout.noPaymentFor", { state: STATE_SLOT }) },
    empty: t("purchase.checkout.empty"),
    continueShopping: t("purchase.checkout.continueShopping"),
    whatsapp: t("purchase.checkout.whatsapp"),
    whatsappHint: t("purchase.checkout.whatsappHint"),
    savedAddresses: t("purchase.checkout.savedAddresses"),
    newAddress: t("purchase.checkout.newAddress"),
    shipping: t("purchase.checkout.shipping"),
    saveAddress: t("purchase.checkout.saveAddress"),
    summary: t("purchase.checkout.summary"),
    process: t("purchase.checkout.process"),
    processing: t("purchase.checkout.processing"),
    lineStatus: Object.fromEntries((["soldOut", "unavailable", "reduced", "available"] as const).map((k) => [k, t(`purchase.checkout.lineStatus.${k}`)])) as Record<string, string>,
  };
}

function guestTexts(t: Translate) {
  return {
    heading: t("purchase.guest.heading"),
    signIn: [t("purchase.guest.haveAccount"), t("purchase.guest.signIn"), `: ${t("purchase.guest.signInHint")}`] as [string, string, string],
    name: t("purchase.guest.name"),
    email: t("purchase.guest.email"),
    emailHint: t("purchase.guest.emailHint"),
  };
}

/** The page's data: a signed-in shopper's checkout, or a guest's (user null) from the browser's cart. */
export async function checkoutPage(request: Request, context: AppLoadContext, user: Pick<SessionUser, "id"> | null) {
  const t = requestTranslator(request);
  const common = { title: t("purchase.checkout.title"), texts: checkoutTexts(t) };
  if (user) {
    // The marketing opt-in, unticked, for a shopper who has not agreed yet; its words written here (docs/decisions/220).
    const marketingLabel = (await activeConsent(context.db, user.id)) ? null : consentLabel(request);
    const view = await checkoutView(context.db, user.id, paymentOptions(context.config));
    const credit = creditPanelHtml(await creditPanel(request, context, t, user.id));
    const code: DiscountCodePanel = codePanel(t, view.code);
    return { ...view, code, codeHtml: codePanelHtml(code), credit, ...common, guest: null, marketingLabel };
  }
  const payment = guestPaymentOptions(context.config, paymentOptions(context.config));
  const cartId = await findCartId(request, context);
  const view = await guestCheckoutView(context.db, cartId, payment);
  const credit = creditPanelHtml(await creditPanel(request, context, t, null));
  // A guest's opt-in is kept on the cart (docs/decisions/220): the box shows what is in force.
  const guest = { ...guestTexts(t), marketing: consentLabel(request), marketingOn: await guestConsentOnCart(context.db, cartId) };
  const code: DiscountCodePanel = codePanel(t, view.code);
  return { ...view, code, codeHtml: codePanelHtml(code), credit, ...common, guest, marketingLabel: null as string | null };
}

export type CheckoutPageData = Awaited<ReturnType<typeof checkoutPage>>;

/** What the form held, shown again when the order is refused. */
export interface CheckoutFormValues {
  values: { street: string; city: string; state: string; country: string; phone: string; name: string; email: string };
  deliveryMethod: string;
  paymentMethod: string;
}

// "confirm" is the normal second step without JavaScript (the page shows the fee and the total first).
const PROBLEM_STATUS = { empty: 409, changed: 409, soldOut: 409, unknownAddress: 404, invalidAddress: 400, delivery: 400, payment: 400, noPayment: 400, confirm: 200, tooManyOpen: 429, tooManyOrders: 429, overLimit: 400, tooManyHeld: 429 } as const;

type Refused = Extract<CheckoutResult, { ok: false }>;

/** The answer to a refused order: its status, and its message already in the shopper's language. */
export function checkoutRefusal(t: Translate, result: Refused, form: CheckoutFormValues) {
  const { problem } = result;
  const productName = problem === "soldOut" || problem === "overLimit" ? (result.productName ?? null) : null;
  const count = problem === "tooManyOpen" ? result.count : problem === "overLimit" || problem === "tooManyHeld" ? result.limit : 0;
  const { name: nameError, email: emailError, ...errors } = problem === "invalidAddress" ? result.errors : {};
  const reason = problem === "delivery" ? result.reason : null;
  return data(
    {
      problem,
      productName,
      count,
      problemText:
        problem === "invalidAddress" || problem === "noPayment" || problem === "confirm"
          ? null
          : t(`purchase.checkout.problems.${problem === "delivery" ? `delivery_${reason}` : problem}`, { name: productName ?? "", count }),
      errors,
      // A guest's name and e-mail refused: written here, like the guest form's texts.
      contactErrors: { name: nameError ? t(nameError) : undefined, email: emailError ? t(emailError) : undefined } as { name?: string; email?: string },
      reason,
      where: problem === "noPayment" ? result.where : "",
      confirm:
        problem === "confirm"
          ? result.quote.method === "pickup"
            ? t("purchase.checkout.confirmPickup", { total: formatNaira(result.total) })
            : t("purchase.checkout.confirmTotal", { where: result.where, fee: result.quote.fee === 0 ? t("order.free") : formatNaira(result.quote.fee), total: formatNaira(result.total) })
          : null,
      title: t(problem === "invalidAddress" ? "purchase.checkout.fixTitle" : "purchase.checkout.problemTitle"),
      ...form,
    },
    { status: PROBLEM_STATUS[problem], headers: problem === "tooManyOpen" || problem === "tooManyOrders" ? { "Retry-After": String(result.retryAfter) } : undefined },
  );
}

/** The answer when placing the order failed on our side: nothing was placed; the form comes back. */
export function checkoutFailure(t: Translate, form: CheckoutFormValues) {
  return data(
    {
      problem: "failed" as const,
      productName: null,
      count: 0,
      problemText: t("purchase.checkout.problems.failed"),
      errors: {},
      contactErrors: {} as { name?: string; email?: string },
      reason: null,
      where: "",
      confirm: null,
      title: t("purchase.checkout.problemTitle"),
      ...form,
    },
    { status: 500 },
  );
}

export type CheckoutRefusal = ReturnType<typeof checkoutRefusal>["data"];
export type CheckoutFailure = ReturnType<typeof checkoutFailure>["data"];
