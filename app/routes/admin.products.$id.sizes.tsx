import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { BackLink, inputClass, PageHeader, primaryButton, screenHref, TableScroller } from "~/components/admin/ui";
import { getAdminProduct } from "~/domain/catalogue/admin-products.server";
import { parseSizesForm, saveSizes } from "~/domain/catalogue/admin-sizes.server";
import { MAX_SIZE_LABEL, MAX_SIZES, MAX_SKU, type SizeRowErrors, type SizeRowValues } from "~/lib/sizes";
import { listSizes } from "~/domain/catalogue/product-sizes.server";
import { requirePermission } from "~/http/staff-guard.server";
import { positiveInt } from "~/lib/admin-params";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.products.$id.sizes";

/** A product's sizes (docs/decisions/121): label, ml, SKU, price and discount per size; a plain form. */

const naira = (kobo: number | null) => (kobo === null ? "" : kobo % 100 === 0 ? String(kobo / 100) : (kobo / 100).toFixed(2));

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePermission(request, context, "catalogue.edit");
  const id = positiveInt(params.id);
  const product = id ? await getAdminProduct(context.db, id, { includeArchived: true }) : undefined;
  if (!product) throw data(null, { status: 404 });
  const sizes = await listSizes(context.db, product.id);
  const t = requestTranslator(request);
  return {
    product: { id: product.id, name: product.name, archived: product.archivedAt !== null },
    rows: sizes.map(
      (s): SizeRowValues => ({ id: String(s.id), label: s.label, ml: s.ml === null ? "" : String(s.ml), sku: s.sku ?? "", price: naira(s.price), discount: naira(s.discount), remove: false }),
    ),
    stock: Object.fromEntries(sizes.map((s) => [String(s.id), s.stock])),
    title: t("admin.meta.title", { page: t("admin.sizes.title", { name: product.name }) }),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "catalogue.edit");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const parsed = parseSizesForm(await readForm(request));
  if (!parsed.rows) return data({ errors: parsed.errors, formError: parsed.formError, values: parsed.values }, { status: 400 });
  const result = await saveSizes(context.db, id, parsed.rows, admin.id);
  if (!result.ok && "notFound" in result) return redirectWithToast(context, "/admin/products", { type: "error", key: "admin.stock.toast.notFound" });
  if (!result.ok) return data({ errors: result.errors, formError: result.formError, values: parsed.values }, { status: result.formError ? 409 : 400 });
  return redirectWithToast(context, `/admin/products/${id}/sizes`, { type: "success", key: "admin.sizes.toast.saved", values: { name: result.name } });
}

const COLUMNS = ["label", "ml", "sku", "price", "discount"] as const;

export default function AdminProductSizes({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const { product, stock } = loaderData;
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const rows: SizeRowValues[] = answer?.values ?? loaderData.rows;
  const errors: SizeRowErrors[] = answer?.errors ?? [];
  // One blank row to add a size; save to get another.
  const shown = rows.length < MAX_SIZES ? [...rows, { id: "", label: "", ml: "", sku: "", price: "", discount: "", remove: false }] : rows;
  return (
    <>
      <BackLink to={screenHref("/admin/products", { view: product.archived ? "archived" : null })}>{t("admin.stock.back")}</BackLink>
      <PageHeader title={t("admin.sizes.title", { name: product.name })} />
      <p className="mb-3 max-w-3xl text-sm text-stone-600">{t("admin.sizes.hint")}</p>
      {answer?.formError && (
        <p role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-sizes-error>
          {t(answer.formError)}
        </p>
      )}
      <Form method="post" noValidate className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
        <TableScroller label={t("admin.sizes.title", { name: product.name })}>
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="text-stone-600">
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c} scope="col" className="px-2 py-2 font-medium">
                    {t(`admin.sizes.columns.${c}`)}
                  </th>
                ))}
                <th scope="col" className="px-2 py-2 font-medium">
                  {t("admin.sizes.columns.stock")}
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  {t("admin.sizes.columns.remove")}
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row, i) => {
                const e = errors[i] ?? {};
                const label = row.label || t("admin.sizes.newSize");
                return (
                  <tr key={`${row.id}-${i}`} className="border-t border-stone-100 align-top" data-size-row={row.id || "new"}>
                    {COLUMNS.map((c) => (
                      <td key={c} className="px-2 py-2">
                        {c === "label" && row.id && <input type="hidden" name={`id-${i}`} value={row.id} />}
                        <input
                          name={`${c}-${i}`}
                          aria-label={t(`admin.sizes.fieldLabel.${c}`, { size: label })}
                          aria-invalid={Boolean(e[c]) || undefined}
                          defaultValue={row[c]}
                          inputMode={c === "price" || c === "discount" ? "decimal" : c === "ml" ? "numeric" : undefined}
                          maxLength={c === "label" ? MAX_SIZE_LABEL : c === "sku" ? MAX_SKU : 20}
                          className={`${inputClass} ${c === "label" || c === "sku" ? "min-w-28" : "w-28"}`}
                        />
                        {e[c] && (
                          <p className="mt-1 text-sm text-red-700" data-field-error>
                            {t(e[c]!)}
                          </p>
                        )}
                      </td>
                    ))}
                    <td className="px-2 py-2 tabular-nums">
                      {row.id ? (
                        <Link to={screenHref(`/admin/products/${product.id}/stock`, { size: row.id })} className="inline-flex min-h-11 items-center underline decoration-dotted underline-offset-4">
                          {stock[row.id] ?? 0}
                          <span className="sr-only"> {t("admin.sizes.adjust", { size: label })}</span>
                        </Link>
                      ) : (
                        <span className="inline-flex min-h-11 items-center text-stone-500">0</span>
                      )}
                    </td>
                    <td className="px-2 py-2">
                      {row.id && (
                        <label className="inline-flex min-h-11 items-center gap-2">
                          <input type="checkbox" name={`remove-${i}`} defaultChecked={row.remove} className="size-4" />
                          <span className="sr-only">{t("admin.sizes.removeLabel", { size: label })}</span>
                        </label>
                      )}
                      {e.remove && (
                        <p className="mt-1 text-sm text-red-700" data-field-error>
                          {t(e.remove)}
                        </p>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroller>
        <button type="submit" className={`${primaryButton} mt-4`} disabled={busy}>
          {busy ? t("admin.stock.saving") : t("admin.sizes.save")}
        </button>
      </Form>
    </>
  );
}
