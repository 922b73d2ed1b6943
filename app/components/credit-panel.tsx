import { Form } from "react-router";
import type { CreditPanelView } from "~/http/credit-panel.server";

/**
 * The checkout's store credit and gift card box: plain forms to /checkout/credit (with or without
 * JavaScript), every text written by the loader (docs/decisions/224).
 */
export function CreditPanel({ panel }: { panel: CreditPanelView }) {
  const { texts } = panel;
  return (
    <section aria-labelledby="credit-heading" className="mt-4 border-t border-stone-200 pt-3 text-sm" data-testid="credit-panel">
      <h3 id="credit-heading" className="font-semibold">
        {texts.heading}
      </h3>
      <p className="mt-1 text-stone-600">{texts.paysFirst}</p>
      {panel.balance && panel.hasCredit && (
        <Form method="post" action="/checkout/credit" className="mt-2 flex flex-wrap items-center gap-2" preventScrollReset>
          <span data-testid="credit-balance">{panel.balance}</span>
          <input type="hidden" name="intent" value={panel.useCredit ? "stop-credit" : "use-credit"} />
          <button type="submit" className="rounded-full border border-stone-300 px-3 py-1.5 hover:bg-stone-50">
            {panel.useCredit ? texts.stopUsing : texts.use}
          </button>
        </Form>
      )}
      {texts.using && <p className="mt-1 text-emerald-800">{texts.using}</p>}
      {panel.giftCard ? (
        <Form method="post" action="/checkout/credit" className="mt-2 flex flex-wrap items-center gap-2" preventScrollReset>
          <span className={panel.giftCard.ok ? "text-emerald-800" : "text-rose-700"} data-testid="gift-card-status">
            {panel.giftCard.status}
          </span>
          <input type="hidden" name="intent" value="gift-remove" />
          <button type="submit" className="rounded-full border border-stone-300 px-3 py-1.5 hover:bg-stone-50">
            {texts.giftRemove}
          </button>
        </Form>
      ) : (
        <Form method="post" action="/checkout/credit" className="mt-2 flex flex-wrap items-end gap-2" preventScrollReset>
          <input type="hidden" name="intent" value="gift-apply" />
          <label className="flex-1">
            <span className="block">{texts.giftLabel}</span>
            <input name="code" autoComplete="off" maxLength={40} className="mt-1 w-full rounded border border-stone-300 px-2 py-1.5 uppercase" />
          </label>
          <button type="submit" className="rounded-full border border-stone-300 px-3 py-1.5 hover:bg-stone-50">
            {texts.giftApply}
          </button>
        </Form>
      )}
    </section>
  );
}
