import { Form, Link } from "react-router";
import type { SaleListRow, SaleResults, SaleState, Sale } from "~/domain/promotions/sales.server";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { offerText, whenText } from "./promotion-form";
import { SaleForm, type SaleFormValues } from "./sale-form";
import { primaryButton, PageHeader, secondaryButton, StatusBadge, TableScroller } from "./ui";

type Choices = { categories: { id: number; name: string }[]; brands: { id: number; name: string }[] };

/** The promotions page's automatic sales (docs/decisions/225): the list, and the form for a new one. */
export function SalesSection({
  sales,
  choices,
  values,
  errors,
  errorValues,
  busy,
}: {
  sales: SaleListRow[];
  choices: Choices;
  values: SaleFormValues;
  errors: Record<string, string>;
  errorValues?: Record<string, string>;
  busy: boolean;
}) {
  const { t, locale } = useT();
  return (
    <>
      <h2 className="mb-2 mt-10 text-xl font-semibold" id="sales">
        {t("promotions.sales.title")}
      </h2>
      <p className="mb-4 max-w-3xl text-sm text-stone-600">{t("promotions.sales.intro")}</p>
      {sales.length === 0 ? (
        <p className="mb-8 text-stone-600">{t("promotions.sales.empty")}</p>
      ) : (
        <TableScroller label={t("promotions.sales.title")} className="mb-8">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("promotions.sales.columns.name")}</th>
                <th className="p-2">{t("promotions.sales.columns.offer")}</th>
                <th className="p-2">{t("promotions.sales.columns.when")}</th>
                <th className="p-2">{t("promotions.sales.columns.sizes")}</th>
                <th className="p-2">{t("promotions.sales.columns.state")}</th>
              </tr>
            </thead>
            <tbody>
              {sales.map((s) => (
                <tr key={s.id} className="border-b border-stone-100">
                  <td className="p-2 font-medium">
                    <Link to={`/admin/promotions/sale-${s.id}`} className="underline underline-offset-2">
                      {s.name}
                    </Link>
                  </td>
                  <td className="p-2">{offerText(t, s.kind, s.value)}</td>
                  <td className="p-2">{whenText(t, locale, s.startsAt, s.endsAt)}</td>
                  <td className="p-2 tabular-nums">{s.sizes}</td>
                  <td className="p-2" data-testid="sale-state">
                    {t(`promotions.sales.states.${s.state}`)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
      <h2 className="mb-3 text-lg font-semibold">{t("promotions.sales.new")}</h2>
      <SaleForm intent="sale" values={values} errors={errors} errorValues={errorValues} choices={choices} submitLabel={t("promotions.sales.create")} busy={busy} />
    </>
  );
}

/** One automatic sale: what it sold, its form, pausing and resuming it. */
export function SaleScreen({
  sale,
  state,
  results,
  choices,
  values,
  errors,
  errorValues,
  busy,
}: {
  sale: Sale;
  state: SaleState;
  results: SaleResults;
  choices: Choices;
  values: SaleFormValues;
  errors: Record<string, string>;
  errorValues?: Record<string, string>;
  busy: boolean;
}) {
  const { t, locale } = useT();
  const paused = sale.pausedAt !== null;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/promotions#sales" className="underline underline-offset-2">
          {t("promotions.sales.back")}
        </Link>
      </p>
      <PageHeader title={sale.name}>
        <Form method="post">
          <input type="hidden" name="intent" value={paused ? "resume" : "pause"} />
          <button type="submit" className={paused ? primaryButton : secondaryButton}>
            {t(paused ? "promotions.admin.resume" : "promotions.admin.pause")}
          </button>
        </Form>
      </PageHeader>
      <p className="mb-6 text-sm text-stone-700" data-testid="sale-summary">
        {offerText(t, sale.kind, sale.value)} · {whenText(t, locale, sale.startsAt, sale.endsAt)} · {t(`promotions.sales.states.${state}`)}
      </p>
      {errors.form && <p className="mb-4 text-sm text-red-700">{t(errors.form)}</p>}

      <h2 className="mb-3 text-lg font-semibold">{t("promotions.sales.results")}</h2>
      <dl className="mb-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
        {[
          ["sizesNow", String(results.sizesNow)],
          ["orders", String(results.orders)],
          ["bottles", String(results.bottles)],
          ["revenue", formatNaira(results.revenue)],
          ["markdown", formatNaira(results.markdown)],
        ].map(([key, value]) => (
          <div key={key} className="rounded-xl border border-stone-200 bg-white p-3">
            <dt className="text-stone-600">{t(`promotions.sales.${key}`)}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`sale-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {results.latest.length === 0 ? (
        <p className="mb-8 text-stone-600">{t("promotions.sales.noOrders")}</p>
      ) : (
        <TableScroller label={t("promotions.sales.results")} className="mb-8">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("promotions.admin.order")}</th>
                <th className="p-2">{t("promotions.admin.placed")}</th>
                <th className="p-2">{t("promotions.admin.status")}</th>
                <th className="p-2 text-right">{t("promotions.sales.bottles")}</th>
                <th className="p-2 text-right">{t("promotions.admin.total")}</th>
              </tr>
            </thead>
            <tbody>
              {results.latest.map((o) => (
                <tr key={o.number} className="border-b border-stone-100">
                  <td className="p-2">
                    <Link to={`/admin/orders/${o.number}`} className="underline underline-offset-2">
                      {o.number}
                    </Link>
                  </td>
                  <td className="p-2">{formatLagosTime(o.createdAt, locale)}</td>
                  <td className="p-2">
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="p-2 text-right tabular-nums">{o.bottles}</td>
                  <td className="p-2 text-right tabular-nums">{formatNaira(o.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
      <SaleForm intent="save" values={values} errors={errors} errorValues={errorValues} choices={choices} submitLabel={t("promotions.admin.save")} busy={busy} />
    </>
  );
}
