import { data, Form, useActionData, useNavigation } from "react-router";
import { BackToProducts } from "~/components/admin/catalogue-import";
import { Field, fileInputClass, PageHeader, primaryButton } from "~/components/admin/ui";
import { importPhotoZip, type PhotoImportResult } from "~/domain/catalogue/photo-import.server";
import { requirePermission } from "~/http/staff-guard.server";
import { MAX_PHOTO_ZIP_BYTES } from "~/lib/admin";
import { PHOTO_ZIP_BODY_LIMIT } from "~/http/body-limit.server";
import { bodyRefusal, readFormBody } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { imagesDir } from "~/platform/images.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.products.photos";

const P = "admin.photoImport.";
const MB = MAX_PHOTO_ZIP_BYTES / 1024 / 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "catalogue.edit");
  const t = requestTranslator(request);
  return { title: t("admin.meta.title", { page: t(P + "title") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

type ActionData = { zipProblem: string } | { problems: PhotoImportResult["problems"] };

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "catalogue.edit");
  const read = await readFormBody(request);
  if (read.problem === "tooLarge" && read.limit === PHOTO_ZIP_BODY_LIMIT) return data<ActionData>({ zipProblem: "tooLarge" }, { status: 413 });
  if (read.problem) throw bodyRefusal(request, read.problem);
  const file = read.form.get("zip");
  if (!(file instanceof File) || file.size === 0) return data<ActionData>({ zipProblem: "noFile" }, { status: 400 });
  const result = await importPhotoZip(context.db, {
    zip: Buffer.from(await file.arrayBuffer()),
    imagesDir: imagesDir(context.config.dataDir),
    actorId: admin.id,
  });
  if (result.zipProblem) return data<ActionData>({ zipProblem: result.zipProblem }, { status: result.zipProblem === "tooLarge" ? 413 : 400 });
  if (!result.ok) return data<ActionData>({ problems: result.problems }, { status: 400 });
  return redirectWithToast(context, "/admin/products", { type: "success", key: P + "toast.imported", values: { count: result.updated.length } });
}

export default function PhotoImport() {
  const { t } = useT();
  const result = useActionData<typeof action>() as ActionData | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <PageHeader title={t(P + "title")}>
        <BackToProducts />
      </PageHeader>
      <div className="max-w-3xl space-y-6">
        <div className="space-y-2 text-sm text-stone-700">
          <p>{t(P + "intro")}</p>
          <p>{t(P + "rules", { mb: MB })}</p>
        </div>

        <Form method="post" encType="multipart/form-data" noValidate className="space-y-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
          <Field label={t(P + "file")} hint={t(P + "fileHint", { mb: MB })}>
            {(props) => (
              <input
                {...props}
                type="file"
                name="zip"
                accept=".zip,application/zip"
                className={fileInputClass}
              />
            )}
          </Field>
          <button type="submit" className={primaryButton} disabled={busy}>
            {busy ? t(P + "importing") : t(P + "import")}
          </button>
        </Form>

        {result && "zipProblem" in result && (
          <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800" data-photo-zip-problem>
            {t(P + "zipProblems." + result.zipProblem, { mb: MB })}
          </p>
        )}
        {result && "problems" in result && (
          <section role="alert" aria-labelledby="photo-problems" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
            <h2 id="photo-problems" className="font-semibold">
              {t(P + "problemsTitle", { count: result.problems.length })}
            </h2>
            <p className="mt-1">{t(P + "nothingChanged")}</p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {result.problems.map((p) => (
                <li key={p.file + p.problem} data-photo-problem={p.file}>
                  <span className="break-all font-mono text-xs">{p.file}</span>: {t(P + "problems." + p.problem)}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}
