import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { ProductStockScreen } from "~/components/admin/product-stock";
import { getAdminProduct } from "~/domain/catalogue/admin-products.server";
import { listSizes } from "~/domain/catalogue/product-sizes.server";
import { requirePermission } from "~/http/staff-guard.server";
import { adjustStock, parseStockAdjustment, stockHistory } from "~/domain/catalogue/stock-adjustments.server";
import { pageParam, positiveInt } from "~/lib/admin-params";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.products.$id.stock";

/** A product's stock: adjust it with a reason (received, damaged, correction) and read its history. */

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePermission(request, context, "stock");
  const id = positiveInt(params.id);
  const product = id ? await getAdminProduct(context.db, id, { includeArchived: true }) : undefined;
  if (!product) throw data(null, { status: 404 });
  const query = new URL(request.url).searchParams;
  const history = await stockHistory(context.db, product.id, pageParam(query.get("page")));
  // Stock is per size (docs/decisions/121): the page adjusts one size at a time, chosen by ?size=.
  const sizes = await listSizes(context.db, product.id);
  const size = sizes.find((s) => s.id === positiveInt(query.get("size"))) ?? sizes[0];
  const t = requestTranslator(request);
  return {
    product: { id: product.id, name: product.name, stock: size.stock, total: product.stock, archived: product.archivedAt !== null },
    sizes: sizes.length > 1 ? sizes.map((s) => ({ id: s.id, label: s.label, stock: s.stock })) : [],
    sizeId: size.id,
    history,
    lowStockAt: context.config.lowStockThreshold,
    title: t("admin.meta.title", { page: t("admin.stock.title", { name: product.name }) }),
  };
}

// A refused adjustment (409) reloads the page's data too, so the stock shown is the one now.
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionResult?.refused ? true : defaultShouldRevalidate;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "stock");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const parsed = parseStockAdjustment(await readForm(request));
  if (!parsed.input) return data({ errors: parsed.errors, values: parsed.values, refused: null }, { status: 400 });
  const result = await adjustStock(context.db, id, parsed.input, admin.id);
  if (!result.ok && result.error === "notFound") return redirectWithToast(context, "/admin/products", { type: "error", key: "admin.stock.toast.notFound" });
  if (!result.ok) {
    // The stock shown is reloaded with this answer, so the owner sees what it is now.
    return data({ errors: {}, values: parsed.values, refused: { key: `admin.stock.refused.${result.error}`, stock: result.stock } }, { status: 409 });
  }
  return redirectWithToast(context, `/admin/products/${id}/stock${parsed.input.sizeId ? `?size=${parsed.input.sizeId}` : ""}`, {
    type: "success",
    key: "admin.stock.toast.saved",
    values: { name: result.name, before: result.before, after: result.after },
  });
}

export default function AdminProductStock({ loaderData }: Route.ComponentProps) {
  return <ProductStockScreen {...loaderData} />;
}
