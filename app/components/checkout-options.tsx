import type { DeliveryMethod, PaymentMethod } from "~/db/schema";
import type { DeliveryQuote, DeliveryTable, QuoteResult } from "~/lib/delivery";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

/**
 * The checkout's delivery choice (to the address, or pick-up at the shop), its ways to pay, and the
 * totals box. Plain radio buttons: everything works without JavaScript; with it, the fee follows the
 * chosen state at once.
 */

const radioCard =
  "flex cursor-pointer gap-3 rounded-xl border border-stone-200 bg-white p-4 has-[:checked]:border-ink has-[:checked]:ring-2 has-[:checked]:ring-ink";

export function DeliveryChoice({ table, method, onChange }: { table: DeliveryTable; method: DeliveryMethod; onChange: (m: DeliveryMethod) => void }) {
  const { t } = useT();
  if (!table.pickup.enabled) return <input type="hidden" name="deliveryMethod" value="delivery" />;
  return (
    <fieldset>
      <legend className="font-semibold">{t("purchase.checkout.delivery")}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <label className={radioCard}>
          <input type="radio" name="deliveryMethod" value="delivery" checked={method === "delivery"} onChange={() => onChange("delivery")} className="mt-1" />
          <span className="font-medium">{t("purchase.checkout.deliverTo")}</span>
        </label>
        <label className={radioCard}>
          <input
            type="radio"
            id="delivery-pickup"
            name="deliveryMethod"
            value="pickup"
            checked={method === "pickup"}
            onChange={() => onChange("pickup")}
            className="mt-1"
          />
          <span>
            <span className="block font-medium">{t("purchase.checkout.pickup")}</span>
            <span className="block text-sm text-stone-600">
              {t("purchase.checkout.pickupAt", { address: table.pickup.address, estimate: table.pickup.estimate })}
            </span>
          </span>
        </label>
      </div>
    </fieldset>
  );
}

export function PaymentChoice({
  methods,
  chosen,
  onChange,
  hints,
  noneText,
}: {
  methods: PaymentMethod[];
  chosen: PaymentMethod | null;
  onChange: (m: PaymentMethod) => void;
  /** a line under each way to pay, written by the loader */
  hints: Record<PaymentMethod, string>;
  /** why no way to pay is offered here, and what to do instead */
  noneText: string;
}) {
  const { t } = useT();
  if (methods.length === 0) {
    return (
      <p role="alert" data-testid="no-payment" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        {noneText}
      </p>
    );
  }
  return (
    <fieldset>
      <legend className="font-semibold">{t("purchase.checkout.payment")}</legend>
      <div className="mt-3 grid gap-3">
        {methods.map((method) => (
          <label key={method} className={radioCard}>
            <input type="radio" name="paymentMethod" value={method} checked={chosen === method} onChange={() => onChange(method)} className="mt-1" />
            <span>
              <span className="block font-medium">{t(`purchase.checkout.methods.${method}`)}</span>
              <span className="block text-sm text-stone-600">{hints[method]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function CheckoutTotals({
  subtotal,
  quote,
  freeFrom,
  discount = 0,
  discountLabel = null,
}: {
  subtotal: number;
  quote: QuoteResult | null;
  freeFrom: number | null;
  /** kobo off the goods by a discount code, and its line's label (written by the loader; docs/decisions/219) */
  discount?: number;
  discountLabel?: string | null;
}) {
  const { t } = useT();
  const known: DeliveryQuote | null = quote?.ok ? quote.quote : null;
  return (
    <div className="mt-3 border-t border-stone-200 pt-3 text-sm">
      <dl className="space-y-1">
        <div className="flex justify-between">
          <dt>{t("purchase.checkout.subtotal")}</dt>
          <dd data-testid="checkout-subtotal">{formatNaira(subtotal)}</dd>
        </div>
        {discount > 0 && discountLabel && (
          <div className="flex justify-between text-emerald-800">
            <dt>{discountLabel}</dt>
            <dd data-testid="discount-amount">−{formatNaira(discount)}</dd>
          </div>
        )}
        <div className="flex justify-between gap-3">
          <dt>
            {t("purchase.checkout.deliveryLine")}
            {known?.method === "delivery" && known.zone && (
              <span className="block text-xs text-stone-500">{t("purchase.checkout.zoneEstimate", { zone: known.zone, estimate: known.estimate })}</span>
            )}
          </dt>
          <dd className="text-right font-medium" data-testid="checkout-delivery">
            {known ? (known.fee === 0 ? t("purchase.checkout.free") : formatNaira(known.fee)) : <span className="font-normal text-stone-500">{t("purchase.checkout.chooseState")}</span>}
          </dd>
        </div>
        <div className="flex justify-between text-base font-semibold">
          <dt>{t("purchase.checkout.total")}</dt>
          <dd data-testid="checkout-total">{formatNaira(subtotal - discount + (known?.fee ?? 0))}</dd>
        </div>
      </dl>
      {freeFrom !== null && known?.method !== "pickup" && (
        <p className="pt-1 text-xs text-stone-600">
          {known?.freeByThreshold ? t("purchase.checkout.freeApplied", { amount: formatNaira(freeFrom) }) : t("purchase.checkout.freeFrom", { amount: formatNaira(freeFrom) })}
        </p>
      )}
    </div>
  );
}
