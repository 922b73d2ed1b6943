import { formatNaira } from "~/lib/money";

/** The "Track your order" page's texts, written by its loader. */
export type TrackTexts = Record<"title" | "intro" | "number" | "numberHint" | "contact" | "submit" | "status" | "payment" | "delivery" | "total" | "pickup" | "linkHint", string>;

/** What "Track your order" shows of an order (docs/decisions/217): status, payment and delivery only. */
export function TrackedOrderSummary({
  order,
  texts,
}: {
  order: { heading: string; placed: string; status: string; payment: string; delivery: string; total: number };
  texts: TrackTexts;
}) {
  const rows: [string, string][] = [
    [texts.status, order.status],
    [texts.payment, order.payment],
    [texts.delivery, order.delivery],
    [texts.total, formatNaira(order.total)],
  ];
  return (
    <section aria-labelledby="tracked-heading" className="mt-8 rounded-xl border border-stone-200 bg-white p-4" data-testid="tracked-order">
      <h2 id="tracked-heading" className="font-semibold">{order.heading}</h2>
      <p className="text-sm text-stone-600">{order.placed}</p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium">{term}</dt>
            <dd data-testid={`tracked-${term}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-stone-600">{texts.linkHint}</p>
    </section>
  );
}
