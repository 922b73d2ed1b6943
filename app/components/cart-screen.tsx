import { useMemo } from "react";
import { Link, useFetcher } from "react-router";
import type { CartActionError } from "~/components/add-to-cart-button";
import { CartLineRow } from "~/components/cart-line-row";
import { usePendingCartActions } from "~/components/cart-summary";
import { CartDiscount, type DiscountCodePanelData } from "~/components/discount-code-form";
import { RecentStrip } from "~/components/recently-viewed-strip";
import { WhatsAppOrderButton } from "~/components/whatsapp-order-button";
import type { CartView } from "~/domain/shopper/cart.server";
import type { ProductCard } from "~/domain/catalogue/catalog.server";
import { isBuyable } from "~/lib/cart";
import { applyCartActions } from "~/lib/cart-optimistic";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

/** What the cart's loader sends. */
export interface CartPageData {
  cart: CartView;
  signedIn: boolean;
  recent: ProductCard[];
  code: DiscountCodePanelData;
}

/**
 * The cart page: its lines (changed in place, with the expected result shown at once while the server
 * confirms), the summary with the discount code, and the way on to checkout or WhatsApp.
 */
export function CartScreen({ page, error }: { page: CartPageData; error: CartActionError["error"] | null }) {
  const { t } = useT();
  const { cart, signedIn } = page;
  const clearFetcher = useFetcher();
  const pending = usePendingCartActions();

  // The lines as they will be once the actions in flight are done.
  const expected = useMemo(() => {
    const base = cart.lines.map((l) => ({ ...l, buyable: isBuyable(l) }));
    return new Map(applyCartActions(base, pending).lines.map((l) => [l.sizeId, l]));
  }, [cart.lines, pending]);
  const lines = [...expected.values()];
  const subtotal = lines.reduce((sum, l) => (l.buyable ? sum + l.unitPrice * l.quantity : sum), 0);
  const canOrder = lines.some((l) => l.buyable);
  const hasExcluded = lines.some((l) => !l.buyable);
  const empty = lines.length === 0;

  return (
    <section aria-labelledby="cart-heading">
      <h1 id="cart-heading" className="font-serif text-3xl font-semibold">
        {t("cart.title")}
      </h1>
      {error && (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {error.message}
        </p>
      )}

      {empty && (
        <div className="mt-8 rounded-xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
          <p className="text-lg font-medium">{t("cart.empty")}</p>
          <p className="mt-2 text-stone-600">{t("cart.emptyHint")}</p>
          <Link to="/shop" className="mt-6 inline-flex min-h-11 items-center rounded-full bg-ink px-5 text-white hover:bg-stone-700">
            {t("cart.continueShopping")}
          </Link>
          <WhatsAppButton disabled className="mx-auto mt-6 max-w-xs" />
        </div>
      )}
      {/* Rows stay mounted (hidden) until the server confirms a removal: their answer must not be dropped. */}
      {cart.lines.length > 0 && (
        <div hidden={empty} className="mt-6 lg:grid lg:grid-cols-[1fr_20rem] lg:items-start lg:gap-8">
          <div>
            <table role="table" className="block w-full md:table">
              <caption className="sr-only">{t("cart.table.caption")}</caption>
              <thead role="rowgroup" className="sr-only md:not-sr-only md:table-header-group">
                <tr role="row" className="border-b border-stone-300 text-left text-xs uppercase tracking-wide text-stone-500">
                  <th role="columnheader" scope="col" colSpan={2} className="py-2 pl-2 font-medium">
                    {t("cart.table.product")}
                  </th>
                  <th role="columnheader" scope="col" className="py-2 font-medium">
                    {t("cart.table.quantity")}
                  </th>
                  <th role="columnheader" scope="col" className="py-2 text-right font-medium">
                    {t("cart.table.total")}
                  </th>
                  <th role="columnheader" scope="col" className="py-2 pr-2 text-right font-medium">
                    <span className="sr-only">{t("cart.table.remove")}</span>
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup" className="block md:table-row-group">
                {cart.lines.map((line) => {
                  const next = expected.get(line.sizeId);
                  return <CartLineRow key={line.sizeId} line={line} quantity={next?.quantity ?? line.quantity} removed={!next} />;
                })}
              </tbody>
            </table>
            <clearFetcher.Form method="post" action="/cart" preventScrollReset className="mt-4">
              <input type="hidden" name="intent" value="clear" />
              <button type="submit" className="min-h-11 rounded-full px-3 text-sm font-medium text-stone-700 underline underline-offset-2 hover:text-red-700">
                {t("cart.summary.clear")}
              </button>
            </clearFetcher.Form>
          </div>

          <aside aria-labelledby="summary-heading" className="mt-8 rounded-xl border border-stone-200 bg-white p-5 lg:mt-0">
            <h2 id="summary-heading" className="text-lg font-semibold">
              {t("cart.summary.title")}
            </h2>
            <dl className="mt-4 flex items-baseline justify-between">
              <dt>{t("cart.summary.subtotal")}</dt>
              <dd className="text-xl font-semibold tabular-nums" data-testid="cart-subtotal">
                {formatNaira(subtotal)}
              </dd>
            </dl>
            {!empty && <CartDiscount panel={page.code} subtotal={subtotal} />}
            <p className="mt-1 text-sm text-stone-600">{t("cart.summary.note")}</p>
            {hasExcluded && <p className="mt-2 text-sm text-amber-800">{t("cart.summary.excluded")}</p>}
            <div className="mt-5 grid gap-3">
              {canOrder ? (
                <Link
                  to={signedIn ? "/checkout" : `/auth?redirectTo=${encodeURIComponent("/checkout")}`}
                  className="inline-flex min-h-12 items-center justify-center rounded-full bg-ink px-5 font-medium text-white hover:bg-stone-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                >
                  {t("cart.summary.checkout")}
                </Link>
              ) : (
                <button type="button" disabled className="min-h-12 rounded-full bg-stone-300 px-5 font-medium text-stone-600">
                  {t("cart.summary.checkout")}
                </button>
              )}
              {!signedIn && canOrder && <p className="-mt-1 text-center text-xs text-stone-600">{t("cart.summary.signInHint")}</p>}
              {!empty && <WhatsAppButton disabled={!canOrder} />}
            </div>
          </aside>
        </div>
      )}
      <RecentStrip title={t("cart.recent")} products={page.recent} />
    </section>
  );
}

function WhatsAppButton({ disabled, className = "" }: { disabled: boolean; className?: string }) {
  const { t } = useT();
  return <WhatsAppOrderButton disabled={disabled} className={className} label={t("cart.summary.whatsapp")} hint={t("cart.summary.whatsappHint")} hintId="whatsapp-hint" />;
}
