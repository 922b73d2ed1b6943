import { type AppLoadContext, data } from "react-router";
import {
  createTaxonomy,
  deleteTaxonomy,
  findTaxonomy,
  listTaxonomy,
  renameTaxonomy,
  spanishNameSchema,
  taxonomyHolders,
  type TaxonomyKind,
  taxonomyNameSchema,
  taxonomyOptions,
} from "~/domain/catalogue/admin-taxonomy.server";
import type { SessionUser } from "~/domain/accounts/sessions.server";
import { pageParam, positiveInt, searchParam } from "~/lib/admin-params";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { readForm, requireTextQuery } from "~/http/form.server";

/**
 * The categories and brands screens work alike; their loaders and actions (each guarded by
 * requirePermission on its first line) hand over to these.
 */

const PATHS: Record<TaxonomyKind, string> = { category: "/admin/categories", brand: "/admin/brands" };
const AREA: Record<TaxonomyKind, string> = { category: "admin.categories", brand: "admin.brands" };

function listHref(kind: TaxonomyKind, q: string, page: number): string {
  const search = new URLSearchParams();
  if (q) search.set("q", q);
  if (page > 1) search.set("page", String(page));
  const text = search.toString();
  return text ? `${PATHS[kind]}?${text}` : PATHS[kind];
}

export async function loadTaxonomyScreen(kind: TaxonomyKind, request: Request, context: AppLoadContext) {
  requireTextQuery(request);
  const url = new URL(request.url);
  const q = searchParam(url.searchParams.get("q"));
  const list = await listTaxonomy(context.db, kind, { q, page: pageParam(url.searchParams.get("page")) });
  const renameId = positiveInt(url.searchParams.get("rename"));
  const deleteId = positiveInt(url.searchParams.get("delete"));
  const [renaming, deleting] = await Promise.all([
    renameId ? findTaxonomy(context.db, kind, renameId) : null,
    deleteId ? findTaxonomy(context.db, kind, deleteId) : null,
  ]);
  // Deleting: what still holds it, and where its archived products can go.
  const [holders, targets] = deleting
    ? await Promise.all([taxonomyHolders(context.db, kind, deleting.id), taxonomyOptions(context.db, kind)])
    : [null, []];
  const t = requestTranslator(request);
  return {
    ...list,
    kind,
    q,
    creating: url.searchParams.has("new"),
    renaming: renaming ?? null,
    deleting: deleting && holders ? { ...deleting, ...holders, targets: targets.filter((o) => o.id !== deleting.id) } : null,
    title: t("admin.meta.title", { page: t(`${AREA[kind]}.title`) }),
  };
}

export async function taxonomyAction(kind: TaxonomyKind, admin: SessionUser, request: Request, context: AppLoadContext) {
  const area = AREA[kind];
  const form = await readForm(request);
  const back = listHref(kind, searchParam(form.get("q")), pageParam(form.get("page")));
  const intent = form.get("intent");
  const id = positiveInt(form.get("id"));

  if (intent === "create" || (intent === "rename" && id)) {
    const raw = form.get("name");
    const rawEs = kind === "category" ? form.get("nameEs") : null;
    const parsed = taxonomyNameSchema(kind).safeParse(typeof raw === "string" ? raw : "");
    const parsedEs = spanishNameSchema.safeParse(typeof rawEs === "string" ? rawEs : "");
    const values = { name: typeof raw === "string" ? raw.slice(0, 200) : "", nameEs: typeof rawEs === "string" ? rawEs.slice(0, 200) : "" };
    if (!parsed.success || !parsedEs.success) {
      const errors = {
        name: parsed.success ? undefined : parsed.error.issues[0].message,
        nameEs: parsedEs.success ? undefined : parsedEs.error.issues[0].message,
      };
      return data({ intent, errors, values }, { status: 400 });
    }
    const name = parsed.data;
    const names = { name, nameEs: parsedEs.data };
    const result = intent === "create" ? await createTaxonomy(context.db, kind, names, admin.id) : await renameTaxonomy(context.db, kind, id!, names, admin.id);
    if (result.ok) {
      const key = intent === "create" ? `${area}.toast.created` : `${area}.toast.renamed`;
      return redirectWithToast(context, intent === "create" ? PATHS[kind] : back, { type: "success", key, values: { name } });
    }
    if (result.error === "duplicate") return data({ intent, errors: { name: `${area}.errors.duplicate` }, values }, { status: 400 });
    if (result.error === "unchanged") return redirectWithToast(context, back, { type: "info", key: "admin.common.toast.unchanged" });
    return redirectWithToast(context, back, { type: "error", key: `${area}.toast.notFound` });
  }

  if (intent === "delete" && id) {
    const result = await deleteTaxonomy(context.db, kind, id, admin.id, { moveTo: positiveInt(form.get("moveTo")) });
    if (result.ok && result.movedTo !== null) {
      return redirectWithToast(context, back, { type: "success", key: `${area}.toast.deletedMoved`, values: { name: result.name, count: result.moved, target: result.movedTo } });
    }
    if (result.ok) return redirectWithToast(context, back, { type: "success", key: `${area}.toast.deleted`, values: { name: result.name } });
    if (result.error === "inUse") {
      return redirectWithToast(context, back, { type: "error", key: `${area}.toast.inUse`, values: { name: result.name, count: result.products } });
    }
    if (result.error === "archived") {
      return redirectWithToast(context, back, { type: "error", key: `${area}.toast.archived`, values: { name: result.name, count: result.archived } });
    }
    return redirectWithToast(context, back, { type: "error", key: `${area}.toast.notFound` });
  }

  return redirectWithToast(context, back, { type: "error", key: "admin.common.toast.badRequest" });
}
