import { Form } from "react-router";
import { useT } from "~/lib/i18n";

/**
 * The owner erases a customer's personal data at the shopper's written request (docs/decisions/221):
 * a plain form, with a box to tick so it is never one stray click.
 */
export function ErasePanel({ erased, problem }: { erased: boolean; problem: { key: string; values?: Record<string, string> } | null }) {
  const { t } = useT();
  return (
    <section className="min-w-0 rounded-xl border border-rose-200 bg-white p-4 text-sm shadow-sm" aria-labelledby="erase-heading" data-erase-panel>
      <h2 id="erase-heading" className="font-semibold text-ink">
        {t("admin.customers.erase.heading")}
      </h2>
      {erased ? (
        <p className="mt-2 text-stone-700">{t("admin.customers.erase.erased")}</p>
      ) : (
        <Form method="post" className="mt-2 space-y-3">
          <p className="text-stone-700">{t("admin.customers.erase.text")}</p>
          {problem && (
            <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-rose-800">
              {t(problem.key, problem.values)}
            </p>
          )}
          <input type="hidden" name="intent" value="erase" />
          <label className="flex min-h-11 items-center gap-2">
            <input type="checkbox" name="confirm" value="yes" className="h-5 w-5" />
            {t("admin.customers.erase.confirm")}
          </label>
          <button type="submit" className="inline-flex min-h-11 items-center rounded-full bg-rose-700 px-4 py-2 font-medium text-white hover:bg-rose-800">
            {t("admin.customers.erase.button")}
          </button>
        </Form>
      )}
    </section>
  );
}
