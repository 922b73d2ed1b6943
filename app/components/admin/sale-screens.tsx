import { Form, Link } from "react-router";
import type { SaleListRow, SaleResults, SaleState, Sale } from "~/domain/promotions/sales.server";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { offerText, whenText } from "./promotion-form";
import { SaleForm, type SaleFormValues } from "./sale-form";
import { PromotionHeader, PromotionResultsPanel } from "./promotion-page";
import { Dialog, dangerButton, secondaryButton, TableScroller } from "./ui";

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
  askingDelete,
}: {
  sale: Sale;
  state: SaleState;
  results: SaleResults;
  choices: Choices;
  values: SaleFormValues;
  errors: Record<string, string>;
  errorValues?: Record<string, string>;
  busy: boolean;
  /** the delete dialog is open (?delete=1) */
  askingDelete: boolean;
}) {
  const { t, locale } = useT();
  const paused = sale.pausedAt !== null;
  return (
    <>
      <PromotionHeader title={sale.name} back={{ to: "/admin/promotions#sales", label: t("promotions.sales.back") }} paused={paused} />
      <p className="mb-6 text-sm text-stone-700" data-testid="sale-summary">
        {offerText(t, sale.kind, sale.value)} · {whenText(t, locale, sale.startsAt, sale.endsAt)} · {t(`promotions.sales.states.${state}`)}
      </p>
      {errors.form && <p className="mb-4 text-sm text-red-700">{t(errors.form)}</p>}

      <PromotionResultsPanel
        heading={t("promotions.sales.results")}
        testIdPrefix="sale"
        gridClass="grid-cols-2 sm:grid-cols-5"
        figures={[
          { key: "sizesNow", label: t("promotions.sales.sizesNow"), value: String(results.sizesNow) },
          { key: "orders", label: t("promotions.sales.orders"), value: String(results.orders) },
          { key: "bottles", label: t("promotions.sales.bottles"), value: String(results.bottles) },
          { key: "revenue", label: t("promotions.sales.revenue"), value: formatNaira(results.revenue) },
          { key: "markdown", label: t("promotions.sales.markdown"), value: formatNaira(results.markdown) },
        ]}
        amountHeading={t("promotions.sales.bottles")}
        orders={results.latest.map((o) => ({ ...o, amount: String(o.bottles), total: formatNaira(o.revenue) }))}
        noOrders={t("promotions.sales.noOrders")}
      />
      <SaleForm intent="save" values={values} errors={errors} errorValues={errorValues} choices={choices} submitLabel={t("promotions.admin.save")} busy={busy} />
      <DeleteSale sale={sale} busy={busy} open={askingDelete} />
    </>
  );
}

/** "Delete sale", asked once more in a dialog (`?delete=1`, so it works without JavaScript too). */
function DeleteSale({ sale, busy, open }: { sale: Sale; busy: boolean; open: boolean }) {
  const { t } = useT();
  const here = `/admin/promotions/sale-${sale.id}`;
  return (
    <>
      <p className="mt-8 border-t border-stone-200 pt-6">
        <Link to={`${here}?delete=1`} className={secondaryButton} preventScrollReset>
          {t("promotions.sales.delete")}
        </Link>
      </p>
      {open && (
        <Dialog title={t("promotions.sales.delete")} closeHref={here}>
          <p className="text-stone-700">{t("promotions.sales.deleteQuestion", { name: sale.name })}</p>
          <Form method="post" action={here} className="mt-6 flex flex-wrap justify-end gap-2">
            <input type="hidden" name="intent" value="delete" />
            <Link to={here} className={secondaryButton} preventScrollReset replace>
              {t("admin.common.cancel")}
            </Link>
            <button type="submit" className={dangerButton} disabled={busy}>
              {t("promotions.sales.delete")}
            </button>
          </Form>
        </Dialog>
      )}
    </>
  );
}
