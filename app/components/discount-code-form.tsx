import { useFetcher } from "react-router";
import { formatNaira } from "~/lib/money";

/** What the loader wrote for the discount-code box (http/code-panel.server.ts). */
export interface DiscountCodePanelData {
  code: string | null;
  discount: number;
  freeDelivery: boolean;
  lineLabel: string | null;
  status: string | null;
  applies: boolean;
  texts: { heading: string; label: string; apply: string; remove: string; afterDiscount: string };
}

/**
 * The shopper's discount code, on the cart and the checkout: a plain form posting to /cart/code, which
 * sends the shopper back to `back` (without JavaScript a refused code is shown on a page of its own).
 */
export function DiscountCodeForm({ panel, back }: { panel: DiscountCodePanelData; back: "/cart" | "/checkout" }) {
  // A refused code comes back as the message /cart/code wrote (routes/cart.code.tsx).
  const fetcher = useFetcher<{ message?: string }>();
  const error = fetcher.state === "idle" ? fetcher.data?.message : undefined;
  return (
    <div className="mt-4 border-t border-stone-200 pt-3 text-sm" data-testid="discount-code">
      {panel.code ? (
        <fetcher.Form method="post" action="/cart/code" className="flex flex-wrap items-center justify-between gap-2">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="back" value={back} />
          <p role="status" className={panel.applies ? "text-emerald-800" : "text-amber-800"} data-testid="discount-status">
            {panel.status}
          </p>
          <button type="submit" className="min-h-11 rounded-full px-3 underline underline-offset-2 hover:text-rose-700">
            {panel.texts.remove}
          </button>
        </fetcher.Form>
      ) : (
        <fetcher.Form method="post" action="/cart/code">
          <input type="hidden" name="intent" value="apply" />
          <input type="hidden" name="back" value={back} />
          <label htmlFor={`discount-code-${back.slice(1)}`} className="block font-medium">
            {panel.texts.label}
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={`discount-code-${back.slice(1)}`}
              name="code"
              autoComplete="off"
              autoCapitalize="characters"
              maxLength={40}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `discount-error-${back.slice(1)}` : undefined}
              className="min-h-11 min-w-0 flex-1 rounded-lg border border-stone-300 px-3 uppercase"
            />
            <button type="submit" className="min-h-11 rounded-full border border-ink px-4 font-medium">
              {panel.texts.apply}
            </button>
          </div>
          {error && (
            <p id={`discount-error-${back.slice(1)}`} role="alert" className="mt-1 text-rose-700">
              {error}
            </p>
          )}
        </fetcher.Form>
      )}
    </div>
  );
}

/** The discount line of a summary: "Discount (CODE)  −₦1,000.00", shown only when the code takes money off. */
export function DiscountLine({ panel }: { panel: DiscountCodePanelData }) {
  if (!panel.applies || panel.discount === 0 || !panel.lineLabel) return null;
  return (
    <div className="flex justify-between text-emerald-800">
      <dt>{panel.lineLabel}</dt>
      <dd data-testid="discount-amount">−{formatNaira(panel.discount)}</dd>
    </div>
  );
}

/** The cart's summary part for the code: its discount line, what the goods then come to, and the form. */
export function CartDiscount({ panel, subtotal }: { panel: DiscountCodePanelData; subtotal: number }) {
  const off = panel.applies ? Math.min(panel.discount, subtotal) : 0;
  return (
    <>
      {off > 0 && (
        <dl className="mt-2 space-y-1 text-sm">
          <DiscountLine panel={panel} />
          <div className="flex justify-between font-semibold">
            <dt>{panel.texts.afterDiscount}</dt>
            <dd className="tabular-nums" data-testid="cart-after-discount">
              {formatNaira(subtotal - off)}
            </dd>
          </div>
        </dl>
      )}
      {panel.applies && panel.freeDelivery && panel.lineLabel && <p className="mt-2 text-sm text-emerald-800">{panel.lineLabel}</p>}
      <DiscountCodeForm panel={panel} back="/cart" />
    </>
  );
}

