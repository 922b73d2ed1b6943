import { ArchiveRestore, Download, Images, Pencil, Plus, Upload } from "lucide-react";
import { Form, Link, useFetcher } from "react-router";
import { type ProductActionData, ProductForm } from "~/components/admin/product-form";
import {
  ConfirmDelete,
  Dialog,
  iconButton,
  ListTable,
  PageHeader,
  Pagination,
  primaryButton,
  RowActions,
  screenHref,
  SearchBox,
  secondaryButton,
} from "~/components/admin/ui";
import type { AdminProductRow } from "~/domain/catalogue/admin-products.server";
import { positiveInt } from "~/lib/admin-params";
import { useT } from "~/lib/i18n";
import { imageVariantUrl } from "~/lib/images";
import { formatNaira } from "~/lib/money";

/** The admin products screen: the list, its views and search, and the product dialogs. */

const PATH = "/admin/products";

export interface ProductsScreenData {
  products: AdminProductRow[];
  total: number;
  page: number;
  pages: number;
  archivedCount: number;
  /** may create, change and delete (fulfilment only counts stock) */
  manage: boolean;
  /** sees prices */
  prices: boolean;
  exportable: boolean;
  q: string;
  view: "archived" | null;
  lowStockAt: number;
  creating: boolean;
  editing: AdminProductRow | null;
  deleting: { id: number; name: string } | null;
  /** an edit or delete link to a product that is gone */
  missing: boolean;
  brands: { id: number; name: string }[];
  categories: { id: number; name: string }[];
}

const DELETE_FETCHER = "admin-product-delete";

/** The products list with its search, views, and the add, edit and delete dialogs opened by the URL. */
export function ProductsScreen({ list }: { list: ProductsScreenData }) {
  const { t } = useT();
  const listHref = (page = list.page) => screenHref(PATH, { q: list.q, page, view: list.view });
  const archivedView = list.view === "archived";
  const closeHref = listHref();
  const remover = useFetcher<ProductActionData>({ key: DELETE_FETCHER });
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
      <ListTable
        label={t("admin.products.title")}
        className="mt-2"
        tableClassName="w-full min-w-[56rem] text-left text-sm"
        columns={columns.map((c) => ({ key: c, label: t(`admin.products.columns.${c}`), right: c === "action" }))}
        empty={shown.length === 0 && (list.q ? t("admin.products.noMatch", { q: list.q }) : archivedView ? t("admin.products.noArchived") : t("admin.products.empty"))}
      >
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
      </ListTable>
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
