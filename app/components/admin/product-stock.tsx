import { Form, Link, useActionData, useNavigation } from "react-router";
import { BackLink, Field, inputClass, PageHeader, Pagination, Panel, primaryButton, screenHref, TableScroller } from "~/components/admin/ui";
import type { StockErrors, StockField, stockHistory } from "~/domain/catalogue/stock-adjustments.server";
import { MAX_STOCK_NOTE, STOCK_REASONS } from "~/lib/admin";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";

/** A product's stock screen: adjust it with a reason (received, damaged, correction) and read its history. */

export interface ProductStockData {
  /** `stock` is the chosen size's, `total` the product's */
  product: { id: number; name: string; stock: number; total: number; archived: boolean };
  /** the sizes to choose from; empty for a one-size product */
  sizes: { id: number; label: string; stock: number }[];
  sizeId: number;
  history: Awaited<ReturnType<typeof stockHistory>>;
  lowStockAt: number;
}

/** What a refused adjustment answers: the field errors or the stock it found, and what was typed. */
export interface StockAnswer {
  errors: StockErrors;
  values: Partial<Record<StockField | "mode", string>>;
  refused: { key: string; stock: number } | null;
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The stock now (of the size chosen), the adjustment form, and the history of adjustments. */
export function ProductStockScreen({ product, history, lowStockAt, sizes, sizeId }: ProductStockData) {
  const { t, locale } = useT();
  const answer = useActionData<StockAnswer>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors: Partial<Record<"reason" | "amount" | "note", string>> = answer?.errors ?? {};
  const values = answer?.values;
  const path = `/admin/products/${product.id}/stock`;
  const level = product.stock === 0 ? "out" : product.stock <= lowStockAt ? "low" : null;
  return (
    <>
      <BackLink to={screenHref("/admin/products", { view: product.archived ? "archived" : null })}>{t("admin.stock.back")}</BackLink>
      <PageHeader title={t("admin.stock.title", { name: product.name })} />
      <div className="grid gap-4 lg:grid-cols-3">
        <section className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm" aria-labelledby="adjust-heading">
          {sizes.length > 0 && (
            <nav aria-label={t("admin.stock.sizes")} className="mb-3">
              <p className="text-sm text-stone-600">{t("admin.stock.sizesTotal", { count: product.total })}</p>
              <ul className="mt-1 flex flex-wrap gap-2">
                {sizes.map((s) => (
                  <li key={s.id}>
                    <Link
                      to={screenHref(path, { size: s.id })}
                      aria-current={s.id === sizeId ? "true" : undefined}
                      className="inline-flex min-h-11 items-center rounded-full border border-stone-300 px-3 text-sm aria-[current]:border-ink aria-[current]:bg-ink aria-[current]:text-white"
                    >
                      {t("admin.stock.sizeStock", { size: s.label, count: s.stock })}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <p className="text-sm text-stone-600">{sizes.length > 0 ? t("admin.stock.currentSize", { size: sizes.find((s) => s.id === sizeId)?.label ?? "" }) : t("admin.stock.current")}</p>
          <p className={`text-3xl font-semibold tabular-nums ${level === "out" ? "text-red-700" : level === "low" ? "text-amber-700" : "text-ink"}`} data-stock-now>
            {product.stock}
          </p>
          {level && <p className="text-sm text-stone-600">{t(`admin.stock.${level}`)}</p>}
          {product.archived && <p className="text-sm text-stone-600">{t("admin.stock.archived")}</p>}
          <h2 id="adjust-heading" className="mt-4 font-semibold text-ink">
            {t("admin.stock.adjust")}
          </h2>
          <p className="text-xs text-stone-500">{t("admin.stock.formHint")}</p>
          {answer?.refused && (
            <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-stock-refused>
              {t(answer.refused.key, { stock: answer.refused.stock })}
            </p>
          )}
          {/* key: after a save or a refusal the form starts again from the stock now shown */}
          <Form method="post" className="mt-3 space-y-3" noValidate key={`${sizeId}-${product.stock}-${history.total}`}>
            <input type="hidden" name="seen" value={product.stock} />
            <input type="hidden" name="sizeId" value={sizeId} />
            <Field label={t("admin.stock.reason")} error={errors.reason}>
              {(props) => (
                <select {...props} name="reason" defaultValue={values?.reason ?? ""} className={inputClass}>
                  <option value="">{t("admin.stock.chooseReason")}</option>
                  {STOCK_REASONS.map((r) => (
                    <option key={r} value={r}>
                      {t(`admin.stock.reasons.${r}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <fieldset>
              <legend className="text-sm font-medium text-stone-800">{t("admin.stock.mode")}</legend>
              <div className="mt-1 flex flex-wrap gap-4">
                {(["change", "count"] as const).map((mode) => (
                  <label key={mode} className="inline-flex min-h-11 items-center gap-2 text-sm">
                    <input type="radio" name="mode" value={mode} defaultChecked={(values?.mode ?? "change") === mode} className="size-4" />
                    {t(`admin.stock.modes.${mode}`)}
                  </label>
                ))}
              </div>
            </fieldset>
            <Field label={t("admin.stock.amount")} error={errors.amount} hint={t("admin.stock.amountHint")}>
              {(props) => <input {...props} name="amount" inputMode="text" autoComplete="off" defaultValue={values?.amount ?? ""} maxLength={20} className={inputClass} />}
            </Field>
            <Field label={t("admin.stock.note")} error={errors.note}>
              {(props) => <input {...props} name="note" defaultValue={values?.note ?? ""} maxLength={MAX_STOCK_NOTE} className={inputClass} />}
            </Field>
            <button type="submit" className={primaryButton} disabled={busy}>
              {busy ? t("admin.stock.saving") : t("admin.stock.save")}
            </button>
          </Form>
        </section>
        <Panel id="history" title={t("admin.stock.history")} className="min-w-0 lg:col-span-2">
          <p className="text-xs text-stone-500">{t("admin.stock.historyHint")}</p>
          {history.entries.length === 0 ? (
            <p className="mt-4 text-sm text-stone-600">{t("admin.stock.empty")}</p>
          ) : (
            <TableScroller label={t("admin.stock.title", { name: product.name })} className="mt-2">
              <table className="w-full min-w-[36rem] text-left text-sm">
                <thead className="bg-stone-50 text-stone-600">
                  <tr>
                    {(["date", "who", "reason", "change", "before", "after", "note"] as const).map((c) => (
                      <th key={c} scope="col" className={`px-3 py-2 font-medium ${["change", "before", "after"].includes(c) ? "text-right" : ""}`}>
                        {t(`admin.stock.columns.${c}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {history.entries.map((e) => (
                    <tr key={e.id} className="border-t border-stone-100 align-top" data-stock-entry={e.id}>
                      <td className="whitespace-nowrap px-3 py-2">{formatLagosTime(e.at, locale)}</td>
                      <td className="px-3 py-2">{e.actor ?? <span className="text-stone-500">{t("admin.stock.formerAdmin")}</span>}</td>
                      <td className="px-3 py-2">
                        {t(`admin.stock.reasons.${e.reason}`)}
                        {e.sizeLabel && <span className="block text-xs text-stone-600">{e.sizeLabel}</span>}
                      </td>
                      <td className={`px-3 py-2 text-right tabular-nums font-medium ${e.change < 0 ? "text-red-700" : "text-green-800"}`}>{signed(e.change)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{e.before}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{e.after}</td>
                      <td className="max-w-xs break-words px-3 py-2 text-stone-600">{e.note}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
          )}
          <p className="mt-3 text-sm text-stone-600">{t("admin.stock.count", { count: history.total })}</p>
          <Pagination page={history.page} pages={history.pages} href={(page) => screenHref(path, { page })} />
        </Panel>
      </div>
    </>
  );
}
