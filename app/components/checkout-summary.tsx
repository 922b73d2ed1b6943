import { Form } from "react-router";
import { CheckoutTotals } from "~/components/checkout-options";
import { ServerForms } from "~/components/server-forms";
import type { CheckoutPageData } from "~/http/checkout-page.server";
import type { QuoteResult } from "~/lib/delivery";
import { useT } from "~/lib/i18n";
import { responsiveImage } from "~/lib/images";
import { formatNaira } from "~/lib/money";

/** The checkout's summary: the lines (each can be taken out), the discount code, the totals and the button that places the order. */
export function CheckoutSummary({ page, quote, discount, disabled, submitting }: { page: CheckoutPageData; quote: QuoteResult; discount: number; disabled: boolean; submitting: boolean }) {
  const { t } = useT();
  const { cart } = page;
  return (
        <aside aria-labelledby="summary-heading" className="h-fit rounded-xl border border-stone-200 bg-white p-4">
          <h2 id="summary-heading" className="font-semibold">
            {page.texts.summary}
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
                      {buyable ? `${line.quantity} × ${formatNaira(line.unitPrice)}` : page.texts.lineStatus[line.status]}
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
          <CheckoutTotals subtotal={cart.subtotal} quote={quote} freeFrom={page.delivery.freeFrom} discount={discount} discountLabel={page.code.lineLabel} />
          <ServerForms html={page.codeHtml} testId="discount-code" />
          <ServerForms html={page.credit} testId="credit-panel" labelledBy="credit-heading" />
          <button
            type="submit"
            form="checkout-form"
            disabled={disabled}
            className="mt-4 w-full rounded-full bg-ink px-5 py-3 font-medium text-white disabled:opacity-60"
          >
            {submitting ? page.texts.processing : page.texts.process}
          </button>
        </aside>
  );
}
