import { ArrowLeft, Download } from "lucide-react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { Field, fileInputClass, PageHeader, primaryButton, secondaryButton, TableScroller } from "~/components/admin/ui";
import type { FileProblem, ImportPlan } from "~/domain/catalogue/catalogue-csv.server";
import { CATALOGUE_COLUMNS } from "~/lib/admin";
import { useT } from "~/lib/i18n";

/** The catalogue import (a CSV file checked, shown, then confirmed) and the link back to the products. */

/** What the import's post answers: a problem with the file, or the checked plan. */
export type ImportAnswer = { problem: FileProblem } | { plan: ImportPlan; id: string | null; fileName: string; createMissing: boolean };

/** Back to the products list, from the catalogue and photo imports. */
export function BackToProducts() {
  const { t } = useT();
  return (
    <Link to="/admin/products" className={secondaryButton}>
      <ArrowLeft aria-hidden="true" size={16} />
      {t("admin.catalogueImport.back")}
    </Link>
  );
}

function Summary({ plan, fileName }: { plan: ImportPlan; fileName: string }) {
  const { t } = useT();
  return (
    <div className="space-y-1 text-sm text-stone-700">
      <p className="font-medium text-ink">{t("admin.catalogueImport.preview.file", { name: fileName, count: plan.rows })}</p>
      <p data-import-summary>
        {t("admin.catalogueImport.preview.counts", { create: plan.create, update: plan.update, unchanged: plan.unchanged })}
      </p>
      {plan.newBrands.length > 0 && <p>{t("admin.catalogueImport.preview.newBrands", { names: plan.newBrands.join(", ") })}</p>}
      {plan.newCategories.length > 0 && <p>{t("admin.catalogueImport.preview.newCategories", { names: plan.newCategories.join(", ") })}</p>}
    </div>
  );
}

function Problems({ plan }: { plan: ImportPlan }) {
  const { t } = useT();
  return (
    <section aria-labelledby="import-problems" className="rounded-xl border border-red-200 bg-red-50 p-4">
      <h2 id="import-problems" className="font-semibold text-red-800">
        {t("admin.catalogueImport.preview.problemsTitle", { count: plan.problemCount })}
      </h2>
      <p className="mt-1 text-sm text-red-800">{t("admin.catalogueImport.preview.nothingWritten")}</p>
      <TableScroller label={t("admin.catalogueImport.preview.problemsTitle", { count: plan.problemCount })} className="mt-3 rounded-lg border border-red-200 bg-white">
        <table className="w-full min-w-[32rem] text-left text-sm">
          <thead className="bg-stone-50 text-stone-600">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">{t("admin.catalogueImport.preview.row")}</th>
              <th scope="col" className="px-3 py-2 font-medium">{t("admin.catalogueImport.preview.column")}</th>
              <th scope="col" className="px-3 py-2 font-medium">{t("admin.catalogueImport.preview.problem")}</th>
            </tr>
          </thead>
          <tbody>
            {plan.problems.map((p, i) => (
              <tr key={i} className="border-t border-stone-100" data-import-problem={`${p.row}:${p.column ?? ""}`}>
                <td className="px-3 py-2 tabular-nums">{p.row}</td>
                <td className="px-3 py-2 font-mono text-xs">{p.column ?? "—"}</td>
                <td className="px-3 py-2">{t(p.key, p.values)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
      {plan.problemCount > plan.problems.length && (
        <p className="mt-2 text-sm text-red-800">{t("admin.catalogueImport.preview.moreProblems", { count: plan.problemCount - plan.problems.length })}</p>
      )}
    </section>
  );
}

function Changes({ plan }: { plan: ImportPlan }) {
  const { t } = useT();
  if (!plan.changes.length) return null;
  return (
    <TableScroller label={t("admin.catalogueImport.preview.changesTitle")} className="rounded-xl border border-stone-200 bg-white shadow-sm">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="px-3 pt-3 text-left font-medium text-ink">{t("admin.catalogueImport.preview.changesTitle")}</caption>
        <thead className="bg-stone-50 text-stone-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">{t("admin.catalogueImport.preview.row")}</th>
            <th scope="col" className="px-3 py-2 font-medium">{t("admin.catalogueImport.preview.product")}</th>
            <th scope="col" className="px-3 py-2 font-medium">{t("admin.catalogueImport.preview.outcome")}</th>
          </tr>
        </thead>
        <tbody>
          {plan.changes.map((c) => (
            <tr key={c.row} className="border-t border-stone-100" data-import-change={c.row}>
              <td className="px-3 py-2 tabular-nums">{c.row}</td>
              <td className="px-3 py-2">{c.name}</td>
              <td className="px-3 py-2">
                {c.action === "create"
                  ? t("admin.catalogueImport.preview.willCreate")
                  : t("admin.catalogueImport.preview.willUpdate", { fields: c.fields.join(", ") })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

/** The import screen: the file form, then the check's summary, problems and changes, and the confirmation. */
export function CatalogueImportScreen() {
  const { t } = useT();
  const result = useActionData<ImportAnswer>();
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const plan = result && "plan" in result ? result : null;
  return (
    <>
      <PageHeader title={t("admin.catalogueImport.title")}>
        <BackToProducts />
        <a href="/admin/products/export" className={secondaryButton} download>
          <Download aria-hidden="true" size={16} />
          {t("admin.catalogueImport.exportCurrent")}
        </a>
      </PageHeader>
      <div className="max-w-3xl space-y-6">
        <div className="space-y-2 text-sm text-stone-700">
          <p>{t("admin.catalogueImport.intro")}</p>
          <p>
            {t("admin.catalogueImport.columns")} <code className="break-all rounded bg-stone-200 px-1 font-mono text-xs">{CATALOGUE_COLUMNS.join(",")}</code>
          </p>
          <p>{t("admin.catalogueImport.rules")}</p>
        </div>

        <Form method="post" encType="multipart/form-data" noValidate className="space-y-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
          <input type="hidden" name="intent" value="preview" />
          <Field label={t("admin.catalogueImport.file")} hint={t("admin.catalogueImport.fileHint")}>
            {(props) => <input {...props} type="file" name="file" accept=".csv,text/csv" className={fileInputClass} />}
          </Field>
          <label className="flex min-h-11 items-center gap-3 text-sm">
            <input type="checkbox" name="createMissing" defaultChecked={plan?.createMissing ?? false} className="h-5 w-5" />
            {t("admin.catalogueImport.createMissing")}
          </label>
          <button type="submit" className={primaryButton} disabled={busyIntent === "preview"}>
            {busyIntent === "preview" ? t("admin.catalogueImport.checking") : t("admin.catalogueImport.check")}
          </button>
        </Form>

        {result && "problem" in result && (
          <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800" data-import-file-problem>
            {t(result.problem.key, result.problem.values)}
          </p>
        )}

        {plan && (
          <section aria-labelledby="import-preview" className="space-y-4">
            <h2 id="import-preview" className="font-serif text-xl font-semibold text-ink">
              {t("admin.catalogueImport.preview.title")}
            </h2>
            <Summary plan={plan.plan} fileName={plan.fileName} />
            {plan.plan.problemCount > 0 ? <Problems plan={plan.plan} /> : null}
            <Changes plan={plan.plan} />
            {plan.id && plan.plan.problemCount === 0 && (
              <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-3">
                <input type="hidden" name="intent" value="confirm" />
                <input type="hidden" name="id" value={plan.id} />
                <button type="submit" className={primaryButton} disabled={busyIntent === "confirm" || plan.plan.create + plan.plan.update === 0}>
                  {busyIntent === "confirm"
                    ? t("admin.catalogueImport.importing")
                    : t("admin.catalogueImport.confirm", { count: plan.plan.create + plan.plan.update })}
                </button>
                <p className="text-sm text-stone-600">{t("admin.catalogueImport.confirmHint")}</p>
              </Form>
            )}
          </section>
        )}
      </div>
    </>
  );
}
