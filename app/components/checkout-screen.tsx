import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { AddressFields, type AddressErrors } from "~/components/address-fields";
import { DeliveryChoice, PaymentChoice } from "~/components/checkout-options";
import { CheckoutSummary } from "~/components/checkout-summary";
import { ErrorSummary } from "~/components/error-summary";
import { PhoneField } from "~/components/phone-field";
import { GuestContactFields } from "~/components/guest-contact-fields";
import { WhatsAppOrderButton } from "~/components/whatsapp-order-button";
import type { CheckoutFailure, CheckoutPageData, CheckoutRefusal } from "~/http/checkout-page.server";
import type { DeliveryMethod, PaymentMethod } from "~/db/schema";
import { nigerianState, paymentMethodsFor, quoteDelivery, STATE_SLOT } from "~/lib/delivery";
import { useT } from "~/lib/i18n";

/** What the checkout's action answered when it placed nothing (http/checkout-page.server.ts). */
export type CheckoutAnswer = CheckoutRefusal | CheckoutFailure;

const ADDRESS_FIELDS = ["street", "city", "state", "country", "phone"] as const;

/** Why no way to pay is offered, and what to do instead: for a state, or for the shop as a whole (texts written by the loader). */
function noPaymentShown(texts: { any: string; forState: string }, state: string): string {
  return state ? texts.forState.replace(STATE_SLOT, state) : texts.any;
}

/**
 * The checkout (docs/decisions/217 for a guest's): contact, delivery or pick-up, the address, the
 * mobile number and the way to pay, with the summary beside it. Works as a plain form without
 * JavaScript: the server then shows the fee and the total to confirm.
 */
export function CheckoutScreen({ loaderData, actionData }: { loaderData: CheckoutPageData; actionData?: CheckoutAnswer }) {
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
                ? [{ text: noPaymentShown(loaderData.texts.noPayment, actionData.where) }]
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

        <CheckoutSummary page={loaderData} quote={quote} discount={off} disabled={submitting || cart.buyableLines === 0 || methods.length === 0} submitting={submitting} />
      </div>
    </div>
  );
}
