import { data } from "react-router";
import { CatalogueImportScreen, type ImportAnswer } from "~/components/admin/catalogue-import";
import { applyImport, MAX_IMPORT_BYTES, previewImport } from "~/domain/catalogue/catalogue-csv.server";
import { requirePermission } from "~/http/staff-guard.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { IMPORT_BODY_LIMIT } from "~/http/body-limit.server";
import { bodyRefusal, readFormBody } from "~/http/form.server";
import type { Route } from "./+types/admin.products.import";

const PATH = "/admin/products/import";
const E = "admin.catalogueImport.errors.";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "catalogue.edit");
  const t = requestTranslator(request);
  return { title: t("admin.meta.title", { page: t("admin.catalogueImport.title") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "catalogue.edit");
  // The file is read within its limit (app/http/body-limit.server.ts), counted as it arrives.
  const read = await readFormBody(request);
  if (read.problem === "tooLarge" && read.limit === IMPORT_BODY_LIMIT) {
    return data<ImportAnswer>({ problem: { key: E + "tooLarge", values: { mb: MAX_IMPORT_BYTES / 1024 / 1024 } } }, { status: 413 });
  }
  if (read.problem) throw bodyRefusal(request, read.problem);
  const { form } = read;
  const intent = form.get("intent");

  if (intent === "preview") {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) {
      return data<ImportAnswer>({ problem: { key: E + (file instanceof File && file.name ? "empty" : "noFile") } }, { status: 400 });
    }
    const createMissing = form.get("createMissing") === "on";
    const result = await previewImport(context.db, { bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name }, { createMissing, userId: admin.id });
    if (!result.ok) return data<ImportAnswer>({ problem: result.problem }, { status: 400 });
    return data<ImportAnswer>(
      { plan: result.plan, id: result.id, fileName: result.fileName, createMissing },
      { status: result.plan.problemCount ? 400 : 200 },
    );
  }

  const id = form.get("id");
  if (intent === "confirm" && typeof id === "string" && /^[\w-]{10,64}$/.test(id)) {
    const result = await applyImport(context.db, id, admin.id);
    if (result.ok) {
      return redirectWithToast(context, "/admin/products", {
        type: "success",
        key: "admin.catalogueImport.toast.imported",
        values: { created: result.created, updated: result.updated, unchanged: result.unchanged },
      });
    }
    if ("gone" in result) return redirectWithToast(context, PATH, { type: "error", key: "admin.catalogueImport.toast.gone" });
    if ("problem" in result) return data<ImportAnswer>({ problem: result.problem }, { status: 409 });
    return data<ImportAnswer>({ plan: result.plan, id: null, fileName: result.fileName, createMissing: false }, { status: 409 });
  }
  return redirectWithToast(context, PATH, { type: "error", key: "admin.common.toast.badRequest" });
}

export default function CatalogueImport() {
  return <CatalogueImportScreen />;
}
