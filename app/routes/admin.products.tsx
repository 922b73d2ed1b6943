import { ArchiveRestore, Download, Images, Pencil, Plus, Upload } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, useActionData, useFetcher, useNavigate } from "react-router";
import {
  ConfirmDelete,
  Dialog,
  Field,
  iconButton,
  inputClass,
  PageHeader,
  Pagination,
  primaryButton,
  screenHref,
  SearchBox,
  secondaryButton,
  TableScroller,
  RowActions,
} from "~/components/admin/ui";
import {
  type AdminProductRow,
  createProduct,
  deleteProduct,
  formImage,
  getAdminProduct,
  listAdminProducts,
  parseProductForm,
  restoreProduct,
  updateProduct,
} from "~/domain/catalogue/admin-products.server";
import { taxonomyOptions } from "~/domain/catalogue/admin-taxonomy.server";
import { can } from "~/domain/backoffice/permissions.server";
import { requirePermission } from "~/http/staff-guard.server";
import { MAX_UPLOAD_BYTES, PRODUCT_FIELDS, type ProductErrors, type ProductField } from "~/lib/admin";
import { pageParam, positiveInt, searchParam } from "~/lib/admin-params";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { imageVariantUrl } from "~/lib/images";
import { imagesDir } from "~/platform/images.server";
import { formatNaira } from "~/lib/money";
import { CONCENTRATIONS, FAMILIES } from "~/lib/perfume-facts";
import { redirectWithToast } from "~/http/toast.server";
import { UPLOAD_BODY_LIMIT } from "~/http/body-limit.server";
import { bodyRefusal, readFormBody, requireTextQuery } from "~/http/form.server";
import type { Route } from "./+types/admin.products";

const PATH = "/admin/products";
const ACCEPTED_TYPES = "image/jpeg,image/png,image/webp,image/avif";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "catalogue.view");
  requireTextQuery(request);
  // Fulfilment counts stock here: no prices, and nothing to create, change or export (docs/decisions/218).
  const manage = can(staff.role, "catalogue.edit");
  const prices = can(staff.role, "prices");
  const url = new URL(request.url);
  const q = searchParam(url.searchParams.get("q"));
  const view = url.searchParams.get("view") === "archived" ? "archived" : null;
  const list = await listAdminProducts(context.db, { q, page: pageParam(url.searchParams.get("page")), archived: view === "archived" });
  const editId = manage ? positiveInt(url.searchParams.get("edit")) : null;
  const deleteId = manage ? positiveInt(url.searchParams.get("delete")) : null;
  const creating = manage && url.searchParams.has("new");
  const [editing, deleting] = await Promise.all([
    editId ? getAdminProduct(context.db, editId, { includeArchived: true }) : null,
    deleteId ? getAdminProduct(context.db, deleteId) : null,
  ]);
  const formOpen = creating || Boolean(editing);
  const [brands, categories] = formOpen
    ? await Promise.all([taxonomyOptions(context.db, "brand"), taxonomyOptions(context.db, "category")])
    : [[], []];
  const t = requestTranslator(request);
  return {
    ...list,
    products: prices ? list.products : list.products.map((p) => ({ ...p, price: 0, discount: null })),
    manage,
    prices,
    exportable: can(staff.role, "catalogue.export"),
    q,
    view,
    lowStockAt: context.config.lowStockThreshold,
    creating,
    editing: editing ?? null,
    deleting: deleting ? { id: deleting.id, name: deleting.name } : null,
    // An edit or delete link to a product that is gone (deleted elsewhere, or an old bookmark).
    missing: Boolean((editId && !editing) || (deleteId && !deleting)),
    brands,
    categories,
    title: t("admin.meta.title", { page: t("admin.nav.products") }),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "catalogue.edit");
  // Nothing larger than one image and the text fields is read into memory (app/http/body-limit.server.ts).
  const read = await readFormBody(request);
  if (read.problem === "tooLarge" && read.limit === UPLOAD_BODY_LIMIT) return data({ errors: { image: "admin.products.errors.imageSize" } as ProductErrors, values: {} }, { status: 413 });
  if (read.problem) throw bodyRefusal(request, read.problem);
  const { form } = read;
  const back = screenHref(PATH, { q: searchParam(form.get("q")), page: pageParam(form.get("page")), view: form.get("view") === "archived" ? "archived" : null });
  const write = { db: context.db, imagesDir: imagesDir(context.config.dataDir) };
  const intent = form.get("intent");

  if (intent === "create") {
    const parsed = parseProductForm(form, "create");
    const result = await createProduct(write, parsed, await formImage(form), admin.id);
    if (!result.ok) return data({ errors: result.errors, values: parsed.values }, { status: 400 });
    return redirectWithToast(context, PATH, { type: "success", key: "admin.products.toast.created", values: { name: result.name } });
  }

  const id = positiveInt(form.get("id"));
  if (intent === "update" && id) {
    const parsed = parseProductForm(form, "update");
    const result = await updateProduct(write, id, parsed, await formImage(form), admin.id);
    if (!result.ok && "notFound" in result) {
      return redirectWithToast(context, back, { type: "error", key: "admin.products.toast.notFound" });
    }
    if (!result.ok) return data({ errors: result.errors, values: parsed.values }, { status: 400 });
    if (result.changed.length === 0) return redirectWithToast(context, back, { type: "info", key: "admin.products.toast.unchanged" });
    return redirectWithToast(context, back, { type: "success", key: "admin.products.toast.updated", values: { name: result.name } });
  }

  if (intent === "restore" && id) {
    const result = await restoreProduct(context.db, id, admin.id);
    if (!result.ok) return redirectWithToast(context, back, { type: "error", key: "admin.products.toast.notFound" });
    return redirectWithToast(context, back, { type: "success", key: "admin.products.toast.restored", values: { name: result.name } });
  }

  if (intent === "delete" && id) {
    const result = await deleteProduct(context.db, id, admin.id);
    if (!result.ok) return redirectWithToast(context, back, { type: "error", key: "admin.products.toast.notFound" });
    return redirectWithToast(context, back, {
      type: "success",
      key: result.outcome === "deleted" ? "admin.products.toast.deleted" : result.reason === "orders" ? "admin.products.toast.archived" : "admin.products.toast.archivedInCarts",
      values: { name: result.name },
    });
  }

  return redirectWithToast(context, back, { type: "error", key: "admin.common.toast.badRequest" });
}

type ProductList = Route.ComponentProps["loaderData"];

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

function ProductForm({
  product,
  list,
  closeHref,
}: {
  product: AdminProductRow | null;
  list: ProductList;
  closeHref: string;
}) {
  const { t } = useT();
  const fetcher = useFetcher<typeof action>();
  const actionData = useActionData<typeof action>();
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
            accept={ACCEPTED_TYPES}
            onChange={() => setFileError(null)}
            className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-stone-200 file:px-4 file:text-sm file:font-medium"
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

const DELETE_FETCHER = "admin-product-delete";

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const list = loaderData;
  const listHref = (page = list.page) => screenHref(PATH, { q: list.q, page, view: list.view });
  const archivedView = list.view === "archived";
  const closeHref = listHref();
  const remover = useFetcher<typeof action>({ key: DELETE_FETCHER });
  // The row goes at once; if the server refuses, the reloaded list brings it back with an error toast.
  const removingId = remover.state !== "idle" ? positiveInt(remover.formData?.get("id")?.toString()) : null;
  const shown = list.products.filter((p) => p.id !== removingId);
  const columns = ["name", "image", "price", "description", "category", "brand", "stock", "action"].filter(
    (c) => (list.manage || (c !== "image" && c !== "action")) && (list.prices || c !== "price"),
  );

  return (
    <>
      <PageHeader title={t("admin.products.title")}>
        {list.exportable && (
          <a href="/admin/products/export" className={secondaryButton} download>
            <Download aria-hidden="true" size={18} />
            {t("admin.products.exportCsv")}
          </a>
        )}
        {list.manage && (
          <>
            <Link to="/admin/products/import" className={secondaryButton}>
              <Upload aria-hidden="true" size={18} />
              {t("admin.products.importCsv")}
            </Link>
            <Link to="/admin/products/photos" className={secondaryButton}>
              <Images aria-hidden="true" size={18} />
              {t("admin.photoImport.link")}
            </Link>
            <Link to={screenHref(PATH, { q: list.q, page: list.page, new: 1 })} className={primaryButton} preventScrollReset>
              <Plus aria-hidden="true" size={18} />
              {t("admin.products.add")}
            </Link>
          </>
        )}
      </PageHeader>
      <nav aria-label={t("admin.products.views")} className="mb-3 flex flex-wrap gap-2">
        <Link to={screenHref(PATH, { q: list.q })} className={archivedView ? secondaryButton : primaryButton} aria-current={archivedView ? undefined : "page"}>
          {t("admin.products.inShop")}
        </Link>
        <Link to={screenHref(PATH, { q: list.q, view: "archived" })} className={archivedView ? primaryButton : secondaryButton} aria-current={archivedView ? "page" : undefined}>
          {t("admin.products.archivedView", { count: list.archivedCount })}
        </Link>
      </nav>
      <SearchBox q={list.q} placeholder={t("admin.products.search")} label={t("admin.products.searchLabel")} hidden={{ view: list.view }} />
      <p role="status" aria-live="polite" className="mt-3 min-h-5 text-sm text-stone-600">
        {removingId ? t("admin.products.deleting") : list.missing ? t("admin.products.toast.notFound") : ""}
      </p>
      <TableScroller label={t("admin.products.title")} className="mt-2 rounded-xl border border-stone-200 bg-white shadow-sm">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <thead className="bg-stone-50 text-stone-600">
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" className={`px-3 py-3 font-medium ${c === "action" ? "text-right" : ""}`}>
                  {t(`admin.products.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="px-3 py-8 text-center text-stone-600">
                  {list.q ? t("admin.products.noMatch", { q: list.q }) : archivedView ? t("admin.products.noArchived") : t("admin.products.empty")}
                </td>
              </tr>
            )}
            {shown.map((p) => (
              <tr key={p.id} className="border-t border-stone-100 align-top" data-product-row={p.id}>
                <td className="px-3 py-2 font-medium text-ink">{p.name}</td>
                {list.manage && (
                  <td className="px-3 py-2">
                    <Link to={`/admin/products/${p.id}/photos`} className="inline-flex min-h-11 min-w-11 flex-col items-start gap-1 text-xs underline decoration-dotted underline-offset-4 hover:decoration-solid" data-photos-link>
                      {p.image && (
                        <img src={imageVariantUrl(p.image, 320)} alt="" width={48} height={60} loading="lazy" className="h-15 w-12 rounded object-cover" />
                      )}
                      <span aria-hidden="true">{t("admin.photos.link")}</span>
                      <span className="sr-only">{t("admin.photos.linkLabel", { name: p.name })}</span>
                    </Link>
                  </td>
                )}
                {list.prices && (
                  <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                    {formatNaira(p.price)}
                    {p.discount ? <s className="block text-xs text-stone-500">{formatNaira(p.price + p.discount)}</s> : null}
                    {/* Several sizes (docs/decisions/121): the cheapest price, and the way to all of them. */}
                    {p.sizeCount > 1 && (
                      <Link to={`/admin/products/${p.id}/sizes`} className="block text-xs underline decoration-dotted underline-offset-4" data-sizes-count>
                        {t("admin.sizes.count", { count: p.sizeCount })}
                      </Link>
                    )}
                  </td>
                )}
                <td className="max-w-xs px-3 py-2 text-stone-600">
                  <p className="line-clamp-2">{p.description}</p>
                </td>
                <td className="px-3 py-2">{p.categoryName}</td>
                <td className="px-3 py-2">{p.brandName}</td>
                <td className={`px-3 py-2 tabular-nums ${p.stock === 0 ? "font-semibold text-red-700" : p.stock <= list.lowStockAt ? "text-amber-700" : ""}`}>
                  <Link to={`/admin/products/${p.id}/stock`} className="inline-flex min-h-11 min-w-11 items-center underline decoration-dotted underline-offset-4 hover:decoration-solid" data-stock-link>
                    {p.stock}
                    <span className="sr-only"> {t("admin.stock.adjustLabel", { name: p.name })}</span>
                  </Link>
                </td>
                {!list.manage ? null : archivedView ? (
                  <td className="whitespace-nowrap px-3 py-1 text-right">
                    <Form method="post" className="inline-flex items-center gap-1">
                      <input type="hidden" name="intent" value="restore" />
                      <input type="hidden" name="id" value={p.id} />
                      <input type="hidden" name="q" value={list.q} />
                      <input type="hidden" name="page" value={list.page} />
                      <input type="hidden" name="view" value="archived" />
                      <Link to={screenHref(PATH, { q: list.q, page: list.page, view: list.view, edit: p.id })} className={iconButton} aria-label={t("admin.products.editLabel", { name: p.name })} preventScrollReset>
                        <Pencil aria-hidden="true" size={18} />
                      </Link>
                      <button type="submit" className={secondaryButton} aria-label={t("admin.products.restoreLabel", { name: p.name })}>
                        <ArchiveRestore aria-hidden="true" size={18} />
                        {t("admin.products.restore")}
                      </button>
                    </Form>
                  </td>
                ) : (
                  <RowActions
                    editHref={screenHref(PATH, { q: list.q, page: list.page, edit: p.id })}
                    editLabel={t("admin.products.editLabel", { name: p.name })}
                    deleteHref={screenHref(PATH, { q: list.q, page: list.page, delete: p.id })}
                    deleteLabel={t("admin.products.deleteLabel", { name: p.name })}
                  />
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
      <p className="mt-3 text-sm text-stone-600">{t("admin.products.count", { count: list.total })}</p>
      <Pagination page={list.page} pages={list.pages} href={listHref} />

      {list.creating && (
        <Dialog title={t("admin.products.addTitle")} closeHref={closeHref} wide>
          <ProductForm product={null} list={list} closeHref={closeHref} />
        </Dialog>
      )}
      {list.editing && (
        <Dialog title={t("admin.products.editTitle")} closeHref={closeHref} wide>
          <ProductForm product={list.editing} list={list} closeHref={closeHref} />
        </Dialog>
      )}
      {list.deleting && list.deleting.id !== removingId && (
        <ConfirmDelete
          remover={remover}
          title={t("admin.products.deleteTitle")}
          question={t("admin.products.deleteConfirm", { name: list.deleting.name })}
          id={list.deleting.id}
          q={list.q}
          page={list.page}
          closeHref={closeHref}
        />
      )}
    </>
  );
}
