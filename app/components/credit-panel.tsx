/** The checkout's store credit and gift card box: markup the loader wrote (docs/decisions/224). */
export function CreditPanel({ html }: { html: string }) {
  return <section aria-labelledby="credit-heading" className="mt-4 border-t border-stone-200 pt-3 text-sm" data-testid="credit-panel" dangerouslySetInnerHTML={{ __html: html }} />;
}
