import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AddressFields, type AddressErrors } from "~/components/address-fields";
import { CheckoutTotals, DeliveryChoice, PaymentChoice } from "~/components/checkout-options";
import { ErrorSummary } from "~/components/error-summary";
import { PhoneField } from "~/components/phone-field";
import { GuestContactFields, type GuestTexts } from "~/components/guest-contact-fields";
import { findCartId } from "~/http/cart.server";
import { type CheckoutResult, checkoutView, guestCheckoutView, placeCheckoutOrder } from "~/domain/orders/checkout.server";
import { guestCheckoutOffered, guestPaymentOptions, placeGuestOrder } from "~/domain/orders/guest-orders.server";
import { paymentOptions } from "~/domain/orders/delivery.server";
import { startOnlinePayment } from "~/domain/payments/online-payments.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { codePanel } from "~/http/code-panel.server";
import { creditPanel, creditPanelHtml } from "~/http/credit-panel.server";
import { CreditPanel } from "~/components/credit-panel";
import type { DeliveryMethod, PaymentMethod } from "~/db/schema";
import { nigerianState, PAYMENT_METHODS, paymentMethodsFor, quoteDelivery } from "~/lib/delivery";
import { WhatsAppOrderButton } from "~/components/whatsapp-order-button";
import type { Translate } from "~/lib/i18n";
import { getSessionUser, requireUser } from "~/http/session.server";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { detectLocale, requestTranslator } from "~/http/language.server";
import { consentLabel } from "~/http/consent-form.server";
import { activeConsent } from "~/domain/messages/consent.server";
import { responsiveImage } from "~/lib/images";
import { formatNaira } from "~/lib/money";
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
  const t = requestTranslator(request);
  const title = t("purchase.checkout.title");
  // Written here, so the page's script carries none of these texts.
  const texts = {
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
  if (user) {
    // The marketing opt-in, unticked, for a shopper who has not agreed yet; its words written here (docs/decisions/220).
    const marketingLabel = (await activeConsent(context.db, user.id)) ? null : consentLabel(request);
    const view = await checkoutView(context.db, user.id, paymentOptions(context.config));
    return { ...view, code: codePanel(t, view.code), credit: creditPanelHtml(await creditPanel(request, context, t, user.id)), title, texts, guest: null, marketingLabel };
  }
  const payment = guestPaymentOptions(context.config, paymentOptions(context.config));
  const guest: GuestTexts = {
    heading: t("purchase.guest.heading"),
    signIn: [t("purchase.guest.haveAccount"), t("purchase.guest.signIn"), `: ${t("purchase.guest.signInHint")}`],
    name: t("purchase.guest.name"),
    email: t("purchase.guest.email"),
    emailHint: t("purchase.guest.emailHint"),
  };
  const view = await guestCheckoutView(context.db, await findCartId(request, context), payment);
  return { ...view, code: codePanel(t, view.code), credit: creditPanelHtml(await creditPanel(request, context, t, null)), title, texts, guest, marketingLabel: null };
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

const ADDRESS_FIELDS = ["street", "city", "state", "country", "phone"] as const;

// "confirm" is the normal second step without JavaScript (the page shows the fee and the total first).
const PROBLEM_STATUS = { empty: 409, changed: 409, soldOut: 409, unknownAddress: 404, invalidAddress: 400, delivery: 400, payment: 400, noPayment: 400, confirm: 200, tooManyOpen: 429, tooManyOrders: 429, overLimit: 400, tooManyHeld: 429 } as const;

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
      : await placeGuestOrder(context, await findCartId(request, context), { ...input, ...contact }, { t });
    if (!result.ok) {
      const { problem } = result;
      if (problem === "unknownAddress" && addressId !== null && user) await noteRefusedObject(context, request, user.id, { kind: "address", id: addressId });
      const productName = problem === "soldOut" || problem === "overLimit" ? (result.productName ?? null) : null;
      const count = problem === "tooManyOpen" ? result.count : problem === "overLimit" || problem === "tooManyHeld" ? result.limit : 0;
      const { name: nameError, email: emailError, ...errors } = problem === "invalidAddress" ? result.errors : {};
      const reason = problem === "delivery" ? result.reason : null;
      return data(
        {
          problem,
          productName,
          count,
          // Written here, so the page's script carries none of these texts.
          problemText:
            problem === "invalidAddress" || problem === "noPayment" || problem === "confirm"
              ? null
              : t(`purchase.checkout.problems.${problem === "delivery" ? `delivery_${reason}` : problem}`, { name: productName ?? "", count }),
          errors,
          // A guest's name and e-mail refused: written here, like the guest form's texts.
          contactErrors: { name: nameError ? t(nameError) : undefined, email: emailError ? t(emailError) : undefined },
          reason,
          where: problem === "noPayment" ? result.where : "",
          confirm:
            problem === "confirm"
              ? result.quote.method === "pickup"
                ? t("purchase.checkout.confirmPickup", { total: formatNaira(result.total) })
                : t("purchase.checkout.confirmTotal", { where: result.where, fee: result.quote.fee === 0 ? t("purchase.order.free") : formatNaira(result.quote.fee), total: formatNaira(result.total) })
              : null,
          title: t(problem === "invalidAddress" ? "purchase.checkout.fixTitle" : "purchase.checkout.problemTitle"),
          values: { ...address, phone, ...contact },
          ...choices,
        },
        { status: PROBLEM_STATUS[problem], headers: problem === "tooManyOpen" || problem === "tooManyOrders" ? { "Retry-After": String(result.retryAfter) } : undefined },
      );
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
    const problemText = t("purchase.checkout.problems.failed");
    return data(
      { problem: "failed" as const, productName: null, count: 0, problemText, errors: {}, contactErrors: {}, reason: null, where: "", confirm: null, title: t("purchase.checkout.problemTitle"), values: { ...address, phone, ...contact }, ...choices },
      { status: 500 },
    );
  }
}

/** Why no way to pay is offered, and what to do instead: for a state, or for the shop as a whole. */
function noPaymentText(t: Translate, state: string): string {
  return state ? t("purchase.checkout.noPaymentFor", { state }) : t("purchase.checkout.noPaymentMethods");
}

// The loader writes the "no way to pay in {{state}}" text with this in the state's place, for the page to fill in.
const STATE_SLOT = "\u0000state\u0000";

function noPaymentShown(texts: { any: string; forState: string }, state: string): string {
  return state ? texts.forState.replace(STATE_SLOT, state) : texts.any;
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const { cart, addresses, maxAddresses } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction === "/checkout";
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = addresses.find((a) => a.id === selectedId) ?? null;
  const canSave = !selected && addresses.length < maxAddresses;
  const failedValues = actionData?.values;
  const errors = (actionData?.errors ?? {}) as AddressErrors;
  const contactErrors: { name?: string; email?: string } = actionData?.contactErrors ?? {};
  const [deliveryMethod, setDeliveryMethod] = useState<DeliveryMethod>(actionData?.deliveryMethod === "pickup" ? "pickup" : "delivery");
  const [typed, setTyped] = useState({ state: failedValues?.state ?? "", country: failedValues?.country || "Nigeria" });
  const [paymentMethod, setPaymentMethod] = useState<string>(actionData?.paymentMethod ?? "");
  const where = selected ?? typed;
  // A discount code comes off the goods before the fee is quoted (docs/decisions/219).
  const off = loaderData.code.applies ? loaderData.code.discount : 0;
  const quoted = quoteDelivery(loaderData.delivery, { method: deliveryMethod, state: where.state, country: where.country, subtotal: cart.subtotal - off });
  const quote = quoted.ok && loaderData.code.applies && loaderData.code.freeDelivery && quoted.quote.method === "delivery" ? { ...quoted, quote: { ...quoted.quote, fee: 0 } } : quoted;
  const methods = paymentMethodsFor(loaderData.payment, quote.ok ? quote.quote : null, quote.ok ? cart.subtotal - off + quote.quote.fee : cart.subtotal - off);
  const chosenMethod = (methods as string[]).includes(paymentMethod) ? (paymentMethod as PaymentMethod) : (methods[0] ?? null);
  // What this page shows as the total; the server places the order only when it computes the same.
  const expectedTotal = quote.ok ? String(cart.subtotal - off + quote.quote.fee) : "";
  const confirm = actionData?.confirm;
  const formRef = useRef<HTMLFormElement>(null);
  const readForm = (form: HTMLFormElement) => {
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? "";
    setTyped({ state: value("state"), country: value("country") });
  };
  // Whatever was typed or chosen before the page's script ran counts too.
  useEffect(() => {
    if (formRef.current) readForm(formRef.current);
  }, []);

  if (cart.lines.length === 0) {
    return (
      <div className="mx-auto max-w-xl py-10 text-center">
        <h1 className="font-serif text-2xl font-semibold">{loaderData.title}</h1>
        <p className="mt-3 text-stone-600">{loaderData.texts.empty}</p>
        <Link to="/shop" className="mt-6 inline-block rounded-full bg-ink px-5 py-2.5 text-white">
          {loaderData.texts.continueShopping}
        </Link>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="font-serif text-2xl font-semibold">{loaderData.title}</h1>
      {actionData?.problem && actionData.problem !== "confirm" && (
        <ErrorSummary
          answer={actionData}
          title={actionData.title}
          errors={
            actionData.problem === "invalidAddress"
              ? [
                  ...(["name", "email"] as const).filter((name) => contactErrors[name]).map((name) => ({ field: `checkout-${name}`, text: contactErrors[name]! })),
                  ...ADDRESS_FIELDS.filter((name) => errors[name]).map((name) => ({ field: `checkout-${name}`, text: t(errors[name]!) })),
                ]
              : actionData.problem === "noPayment"
                ? [{ text: noPaymentText(t, actionData.where) }]
                : [{ text: actionData.problemText ?? "" }]
          }
        />
      )}
      {confirm && (
        <p role="status" className="mt-4 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950">
          {confirm}
        </p>
      )}

      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-4">
        <Form
          method="post"
          id="checkout-form"
          ref={formRef}
          className="group/checkout space-y-6"
          onChange={(e) => readForm(e.currentTarget)}
        >
          <input type="hidden" name="checkoutKey" value={loaderData.checkoutKey} />
          <input type="hidden" name="seen" value={loaderData.seen} />
          <input type="hidden" name="expectedTotal" value={expectedTotal} />

          {loaderData.guest && <GuestContactFields texts={loaderData.guest} values={failedValues} errors={contactErrors} />}

          <DeliveryChoice table={loaderData.delivery} method={deliveryMethod} onChange={setDeliveryMethod} />

          {/* Hidden by CSS when pick-up is chosen, so it also works without JavaScript. */}
          <div className="space-y-6 group-has-[#delivery-pickup:checked]/checkout:hidden">
          {addresses.length > 0 && (
            <fieldset>
              <legend className="font-semibold">{loaderData.texts.savedAddresses}</legend>
              <div className="mt-3 grid gap-3 sm:grid-cols-2">
                {addresses.map((address) => (
                  <label
                    key={address.id}
                    className="flex cursor-pointer gap-3 rounded-xl border border-stone-200 bg-white p-4 has-[:checked]:border-ink has-[:checked]:ring-2 has-[:checked]:ring-ink"
                  >
                    <input
                      type="radio"
                      name="addressId"
                      value={address.id}
                      checked={selectedId === address.id}
                      // Clicking the chosen card again lets go of it and clears the form.
                      onClick={() => setSelectedId(selectedId === address.id ? null : address.id)}
                      onChange={() => {}}
                      className="mt-1"
                    />
                    <span>
                      <span className="block font-medium">{address.street}</span>
                      <span className="block text-sm text-stone-600">
                        {address.city}, {address.state}, {address.country}
                      </span>
                    </span>
                  </label>
                ))}
                <label className="flex cursor-pointer gap-3 rounded-xl border border-dashed border-stone-300 p-4 has-[:checked]:border-ink">
                  <input type="radio" name="addressId" value="new" checked={selectedId === null} onChange={() => setSelectedId(null)} className="mt-1" />
                  <span className="font-medium">{loaderData.texts.newAddress}</span>
                </label>
              </div>
            </fieldset>
          )}

          <fieldset>
            <legend className="font-semibold">{loaderData.texts.shipping}</legend>
            <div className="mt-3">
              <AddressFields
                key={selected ? `saved-${selected.id}` : "new"}
                idPrefix="checkout"
                values={selected ?? failedValues}
                errors={selected ? {} : errors}
                disabled={Boolean(selected)}
              />
            </div>
          </fieldset>

          {canSave && (
            <label className="flex items-center gap-3 text-sm">
              <input type="checkbox" name="saveAddress" className="h-5 w-5" />
              {loaderData.texts.saveAddress}
            </label>
          )}
          </div>

          <PhoneField
            // A chosen address's own number replaces what is in the field; one without a number leaves it.
            key={selected?.phone ? `phone-${selected.id}` : "phone"}
            id="checkout-phone"
            className="max-w-sm"
            value={failedValues?.phone || selected?.phone || loaderData.phone}
            error={errors.phone}
          />

          <PaymentChoice
            methods={methods}
            chosen={chosenMethod}
            onChange={setPaymentMethod}
            hints={loaderData.texts.methodHints}
            noneText={noPaymentShown(loaderData.texts.noPayment, quote.ok && quote.quote.method === "delivery" ? (nigerianState(where.state) ?? "") : "")}
          />
          {loaderData.marketingLabel && (
            <label className="flex gap-3 text-sm">
              <input type="checkbox" name="marketing" className="h-5 w-5" />
              {loaderData.marketingLabel}
            </label>
          )}
        </Form>
        {/* No way to pay here: the WhatsApp order needs none (a form of its own, outside the checkout's). */}
        {methods.length === 0 && (
          <WhatsAppOrderButton label={loaderData.texts.whatsapp} hint={loaderData.texts.whatsappHint} hintId="checkout-whatsapp-hint" className="max-w-sm" />
        )}
        </div>

        <aside aria-labelledby="summary-heading" className="h-fit rounded-xl border border-stone-200 bg-white p-4">
          <h2 id="summary-heading" className="font-semibold">
            {loaderData.texts.summary}
          </h2>
          <ul className="mt-3 divide-y divide-stone-100">
            {cart.lines.map((line) => {
              const image = line.image ? responsiveImage(line.image, 56) : null;
              const buyable = line.status === "available" || line.status === "reduced";
              return (
                <li key={line.productId} className="flex items-center gap-3 py-3">
                  {image ? (
                    <img src={image.src} srcSet={image.srcSet} sizes="56px" width={image.width} height={image.height} alt="" className="h-[70px] w-14 rounded object-cover" />
                  ) : (
                    <span className="h-[70px] w-14 rounded bg-brand-50" />
                  )}
                  <div className="min-w-0 flex-1 text-sm">
                    <p className="font-medium">{line.name}</p>
                    <p className="text-stone-600">
                      {buyable ? `${line.quantity} × ${formatNaira(line.unitPrice)}` : loaderData.texts.lineStatus[line.status]}
                    </p>
                  </div>
                  <span className="text-sm font-medium">{buyable ? formatNaira(line.lineTotal) : ""}</span>
                  <Form method="post" action="/cart" preventScrollReset>
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="productId" value={line.productId} />
                    <button type="submit" className="grid h-11 w-11 place-items-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-rose-700" aria-label={t("purchase.checkout.remove", { name: line.name })}>
                      <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2">
                        <path d="M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14" />
                      </svg>
                    </button>
                  </Form>
                </li>
              );
            })}
          </ul>
          <CheckoutTotals subtotal={cart.subtotal} quote={quote} freeFrom={loaderData.delivery.freeFrom} discount={off} discountLabel={loaderData.code.lineLabel} />
          <CreditPanel html={loaderData.credit} />
          <button
            type="submit"
            form="checkout-form"
            disabled={submitting || cart.buyableLines === 0 || methods.length === 0}
            className="mt-4 w-full rounded-full bg-ink px-5 py-3 font-medium text-white disabled:opacity-60"
          >
            {submitting ? loaderData.texts.processing : loaderData.texts.process}
          </button>
        </aside>
      </div>
    </div>
  );
}
