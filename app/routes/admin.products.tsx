import { data } from "react-router";
import { ProductsScreen } from "~/components/admin/products-screen";
import { screenHref } from "~/components/admin/ui";
import {
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
import { type ProductErrors } from "~/lib/admin";
import { pageParam, positiveInt, searchParam } from "~/lib/admin-params";
import { requestTranslator } from "~/http/language.server";
import { imagesDir } from "~/platform/images.server";
import { redirectWithToast } from "~/http/toast.server";
import { UPLOAD_BODY_LIMIT } from "~/http/body-limit.server";
import { bodyRefusal, readFormBody, requireTextQuery } from "~/http/form.server";
import type { Route } from "./+types/admin.products";

const PATH = "/admin/products";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "catalogue.view");
  requireTextQuery(request);
  // Fulfilment counts stock here: no prices, and nothing to create, change or export (docs/decisions/218).
  const manage = can(staff.role, "catalogue.edit");
  const prices = can(staff.role, "prices");
  const url = new URL(request.url);
  const q = searchParam(url.searchParams.get("q"));
  const view = url.searchParams.get("view") === "archived" ? ("archived" as const) : null;
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

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  return <ProductsScreen list={loaderData} />;
}
