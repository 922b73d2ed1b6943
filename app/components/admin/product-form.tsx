import { useState } from "react";
import { Link, useActionData, useFetcher, useNavigate } from "react-router";
import { Field, fileInputClass, IMAGE_TYPES, inputClass, primaryButton, secondaryButton } from "~/components/admin/ui";
import type { AdminProductRow } from "~/domain/catalogue/admin-products.server";
import { MAX_UPLOAD_BYTES, PRODUCT_FIELDS, type ProductErrors, type ProductField } from "~/lib/admin";
import { useT } from "~/lib/i18n";
import { CONCENTRATIONS, FAMILIES } from "~/lib/perfume-facts";

/** The list the form returns to (its search, view and page) and the brands and categories to choose from. */
export interface ProductFormList {
  q: string;
  view: "archived" | null;
  page: number;
  brands: { id: number; name: string }[];
  categories: { id: number; name: string }[];
}

/** What the product form's post answers when it is refused. */
export interface ProductActionData {
  errors: ProductErrors;
  values: Partial<Record<ProductField, string>>;
}


/** Naira for a form field: "15000" or "15000.5" (no grouping, so it reads back exactly). */
function nairaInput(kobo: number | null): string {
  if (kobo === null) return "";
  return kobo % 100 === 0 ? String(kobo / 100) : (kobo / 100).toFixed(2);
}

function initialValues(product: AdminProductRow | null): Record<ProductField, string> {
  return {
    brandId: product ? String(product.brandId) : "",
    categoryId: product ? String(product.categoryId) : "",
    name: product?.name ?? "",
    price: product ? nairaInput(product.price) : "",
    discount: product ? nairaInput(product.discount) : "",
    stock: product ? String(product.stock) : "",
    concentration: product?.concentration ?? "",
    family: product?.family ?? "",
    description: product?.description ?? "",
  };
}

/** The add and edit form of a product, in its dialog. Editing sends only the fields that changed. */
export function ProductForm({
  product,
  list,
  closeHref,
}: {
  product: AdminProductRow | null;
  list: ProductFormList;
  closeHref: string;
}) {
  const { t } = useT();
  const fetcher = useFetcher<ProductActionData>();
  const actionData = useActionData<ProductActionData>();
  const navigate = useNavigate();
  const [fileError, setFileError] = useState<string | null>(null);
  const mode = product ? "update" : "create";
  const result = fetcher.data ?? actionData;
  const errors: ProductErrors = { ...(result?.errors ?? {}), ...(fileError ? { image: fileError } : {}) };
  const initial = initialValues(product);
  const values = { ...initial, ...((result?.values ?? {}) as Partial<Record<ProductField, string>>) };
  const busy = fetcher.state !== "idle";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const formData = new FormData(event.currentTarget);
    const file = formData.get("image");
    // Checked here too, so a phone never sends megabytes only to hear they were too many.
    if (file instanceof File && file.size > MAX_UPLOAD_BYTES) {
      event.preventDefault();
      setFileError("admin.products.errors.imageSize");
      return;
    }
    setFileError(null);
    if (mode === "create") return;
    // Editing sends only what changed; with nothing changed the dialog just closes.
    event.preventDefault();
    for (const field of PRODUCT_FIELDS) if (formData.get(field) === initial[field]) formData.delete(field);
    if (!(file instanceof File) || file.size === 0) formData.delete("image");
    const changed = [...formData.keys()].some((k) => (PRODUCT_FIELDS as readonly string[]).includes(k) || k === "image");
    if (!changed) {
      navigate(closeHref, { preventScrollReset: true });
      return;
    }
    void fetcher.submit(formData, { method: "post", encType: "multipart/form-data" });
  }

  return (
    <fetcher.Form method="post" encType="multipart/form-data" noValidate onSubmit={onSubmit} className="space-y-4" key={product?.id ?? "new"}>
      <input type="hidden" name="intent" value={mode} />
      {product && <input type="hidden" name="id" value={product.id} />}
      <input type="hidden" name="q" value={list.q} />
      {list.view && <input type="hidden" name="view" value={list.view} />}
      <input type="hidden" name="page" value={list.page} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("admin.products.fields.brand")} error={errors.brandId}>
          {(props) => (
            <select {...props} name="brandId" defaultValue={values.brandId} className={inputClass}>
              <option value="">{t("admin.products.fields.chooseBrand")}</option>
              {list.brands.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t("admin.products.fields.category")} error={errors.categoryId}>
          {(props) => (
            <select {...props} name="categoryId" defaultValue={values.categoryId} className={inputClass}>
              <option value="">{t("admin.products.fields.chooseCategory")}</option>
              {list.categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {(
          [
            ["concentration", CONCENTRATIONS],
            ["family", FAMILIES],
          ] as const
        ).map(([fact, options]) => (
          <Field key={fact} label={t(`admin.products.fields.${fact}`)} error={errors[fact]}>
            {(props) => (
              <select {...props} name={fact} defaultValue={values[fact]} className={inputClass}>
                <option value="">{t("admin.products.fields.notSaid")}</option>
                {options.map((value) => (
                  <option key={value} value={value}>
                    {t(`store.facts.${fact}.${value}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </div>
      <Field label={t("admin.products.fields.name")} error={errors.name}>
        {(props) => <input {...props} name="name" defaultValue={values.name} maxLength={200} className={inputClass} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        {product && product.sizeCount > 1 ? (
          // Prices are per size (docs/decisions/121): the sizes page sets them.
          <p className="flex items-center text-sm text-stone-700 sm:col-span-2" data-price-per-size>
            {t("admin.sizes.perSize", { count: product.sizeCount })}
          </p>
        ) : (
          <>
            <Field label={t("admin.products.fields.price")} error={errors.price}>
              {(props) => <input {...props} name="price" inputMode="decimal" defaultValue={values.price} className={inputClass} />}
            </Field>
            <Field label={t("admin.products.fields.discount")} error={errors.discount}>
              {(props) => <input {...props} name="discount" inputMode="decimal" defaultValue={values.discount} className={inputClass} />}
            </Field>
          </>
        )}
        {product ? (
          // Editing never writes the stock: it moves by adjustments, so sales made meanwhile are kept (118).
          <Field label={t("admin.products.fields.stock")} hint={t("admin.stock.readOnly")}>
            {(props) => (
              <div className="flex items-center gap-2">
                <input {...props} readOnly value={product.stock} className={`${inputClass} w-24 bg-stone-100`} />
                <Link to={`/admin/products/${product.id}/stock`} className={secondaryButton}>
                  {t("admin.stock.adjust")}
                </Link>
                <Link to={`/admin/products/${product.id}/sizes`} className={secondaryButton} data-sizes-link>
                  {t("admin.sizes.manage")}
                </Link>
              </div>
            )}
          </Field>
        ) : (
          <Field label={t("admin.products.fields.stock")} error={errors.stock}>
            {(props) => <input {...props} name="stock" inputMode="numeric" defaultValue={values.stock} className={inputClass} />}
          </Field>
        )}
      </div>
      <Field label={t("admin.products.fields.description")} error={errors.description}>
        {(props) => <textarea {...props} name="description" rows={4} defaultValue={values.description} className={inputClass} />}
      </Field>
      <Field
        label={t("admin.products.fields.image")}
        error={errors.image}
        hint={product ? t("admin.products.fields.imageHintEdit") : t("admin.products.fields.imageHint")}
      >
        {(props) => (
          <input
            {...props}
            type="file"
            name="image"
            accept={IMAGE_TYPES}
            onChange={() => setFileError(null)}
            className={fileInputClass}
          />
        )}
      </Field>
      <div className="flex flex-wrap justify-end gap-2 pt-2">
        <Link to={closeHref} className={secondaryButton} preventScrollReset replace>
          {t("admin.common.cancel")}
        </Link>
        <button type="submit" className={primaryButton} disabled={busy}>
          {mode === "create"
            ? busy
              ? t("admin.products.creating")
              : t("admin.products.create")
            : busy
              ? t("admin.products.updating")
              : t("admin.products.update")}
        </button>
      </div>
    </fetcher.Form>
  );
}
