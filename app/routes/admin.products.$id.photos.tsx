import { ArrowDown, ArrowLeft, ArrowUp, GripVertical, Trash2 } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, useActionData, useNavigation, useSubmit } from "react-router";
import { Field, iconButton, inputClass, PageHeader, primaryButton, screenHref, secondaryButton } from "~/components/admin/ui";
import { getAdminProduct } from "~/domain/catalogue/admin-products.server";
import { addPhoto, adminPhotos, deletePhoto, movePhoto, type PhotoProblem, reorderPhotos, setPhotoAlt } from "~/domain/catalogue/product-photos.server";
import { requirePermission } from "~/http/staff-guard.server";
import { MAX_PHOTO_ALT, MAX_PHOTOS, MAX_UPLOAD_BYTES } from "~/lib/admin";
import { positiveInt } from "~/lib/admin-params";
import { UPLOAD_BODY_LIMIT } from "~/http/body-limit.server";
import { bodyRefusal, readFormBody } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { imageVariantUrl } from "~/lib/images";
import { imagesDir } from "~/platform/images.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.products.$id.photos";

/** A product's photo gallery (docs/decisions/124): add, describe, order (drag, or up and down without JavaScript), delete. */

const ACCEPTED_TYPES = "image/jpeg,image/png,image/webp,image/avif";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePermission(request, context, "catalogue.edit");
  const id = positiveInt(params.id);
  const product = id ? await getAdminProduct(context.db, id, { includeArchived: true }) : undefined;
  if (!product) throw data(null, { status: 404 });
  const t = requestTranslator(request);
  return {
    product: { id: product.id, name: product.name, archived: product.archivedAt !== null },
    photos: await adminPhotos(context.db, product.id),
    title: t("admin.meta.title", { page: t("admin.photos.title", { name: product.name }) }),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

const STATUS: Record<PhotoProblem | "badRequest", number> = {
  badRequest: 400,
  notFound: 404,
  photoNotFound: 404,
  noFile: 400,
  full: 409,
  duplicate: 409,
  altTooLong: 400,
  lastPhoto: 409,
  badOrder: 400,
  type: 400,
  size: 413,
  pixels: 400,
  unreadable: 400,
};

const refused = (problem: PhotoProblem | "badRequest", photoId: number | null = null) => data({ problem, photoId }, { status: STATUS[problem] });

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "catalogue.edit");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  // Nothing larger than one photo and a few fields is read into memory (app/http/body-limit.server.ts).
  const read = await readFormBody(request);
  if (read.problem === "tooLarge" && read.limit === UPLOAD_BODY_LIMIT) return refused("size");
  if (read.problem) throw bodyRefusal(request, read.problem);
  const { form } = read;
  const write = { db: context.db, imagesDir: imagesDir(context.config.dataDir) };
  const intent = form.get("intent");
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const photoId = positiveInt(text("photoId"));

  let result;
  if (intent === "add") {
    const file = form.get("photo");
    const bytes = file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : null;
    result = await addPhoto(write, id, { bytes, alt: text("alt") }, admin.id);
  } else if (intent === "order") {
    const ids = text("order").split(",").map((part) => positiveInt(part.trim()));
    if (ids.length > MAX_PHOTOS || ids.some((n) => !n)) return refused("badOrder");
    result = await reorderPhotos(write, id, ids as number[], admin.id);
  } else if ((intent === "alt" || intent === "move" || intent === "delete") && photoId) {
    const direction = text("direction");
    if (intent === "move" && direction !== "up" && direction !== "down") return refused("badOrder", photoId);
    result =
      intent === "alt"
        ? await setPhotoAlt(write, id, photoId, text("alt"), admin.id)
        : intent === "move"
          ? await movePhoto(write, id, photoId, direction as "up" | "down", admin.id)
          : await deletePhoto(write, id, photoId, admin.id);
  } else if (intent === "alt" || intent === "move" || intent === "delete") {
    return refused("photoNotFound");
  } else {
    return refused("badRequest");
  }
  if (!result.ok) return refused(result.problem, photoId);
  const key = result.changed ? `admin.photos.toast.${intent}` : "admin.photos.toast.unchanged";
  return redirectWithToast(context, `/admin/products/${id}/photos`, { type: result.changed ? "success" : "info", key, values: { name: result.name } });
}

export default function AdminProductPhotos({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const { product, photos } = loaderData;
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const busy = navigation.state !== "idle";
  const [dragged, setDragged] = useState<number | null>(null);
  const [fileError, setFileError] = useState(false);
  // While a new order is being saved it is shown at once; the reloaded page then shows the server's.
  const pending = navigation.formData?.get("intent") === "order" ? String(navigation.formData.get("order")).split(",").map(Number) : null;
  const order = pending ? pending.map((id) => photos.find((p) => p.id === id)).filter((p) => p !== undefined) : photos;
  const full = photos.length >= MAX_PHOTOS;
  const problem = fileError ? "size" : answer?.problem;

  function drop(draggedId: number, targetId: number) {
    const ids = order.map((p) => p.id);
    const from = ids.indexOf(draggedId);
    const to = ids.indexOf(targetId);
    setDragged(null);
    if (from === -1 || to === -1 || from === to) return;
    const moved = [...order];
    moved.splice(to, 0, ...moved.splice(from, 1));
    void submit({ intent: "order", order: moved.map((p) => p.id).join(",") }, { method: "post" });
  }

  return (
    <>
      <Link to={screenHref("/admin/products", { view: product.archived ? "archived" : null })} className="mb-2 inline-flex min-h-11 items-center gap-2 text-sm text-stone-600 hover:text-ink">
        <ArrowLeft aria-hidden="true" size={16} />
        {t("admin.photos.back")}
      </Link>
      <PageHeader title={t("admin.photos.title", { name: product.name })} />
      <p className="mb-4 max-w-prose text-sm text-stone-600">{t("admin.photos.intro", { max: MAX_PHOTOS })}</p>
      {problem && (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-photo-problem={problem}>
          {t(`admin.photos.errors.${problem}`, { max: MAX_PHOTOS, alt: MAX_PHOTO_ALT })}
        </p>
      )}
      <p className="mb-2 text-sm text-stone-600">{t("admin.photos.count", { count: photos.length, max: MAX_PHOTOS })}</p>
      <ol className="space-y-3" aria-label={t("admin.photos.listLabel", { name: product.name })}>
        {order.map((photo, i) => (
          <li
            key={photo.id}
            data-photo={photo.id}
            draggable
            onDragStart={(event) => {
              setDragged(photo.id);
              event.dataTransfer.effectAllowed = "move";
              event.dataTransfer.setData("text/plain", String(photo.id));
            }}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              drop(Number(event.dataTransfer.getData("text/plain")), photo.id);
            }}
            onDragEnd={() => setDragged(null)}
            className={`flex flex-wrap items-start gap-3 rounded-xl border bg-white p-3 shadow-sm ${dragged === photo.id ? "border-brand-600 opacity-60" : "border-stone-200"}`}
          >
            <GripVertical aria-hidden="true" size={20} className="mt-8 hidden cursor-grab text-stone-400 sm:block" />
            <img src={imageVariantUrl(photo.key, 320)} alt="" width={64} height={80} className="h-20 w-16 rounded object-cover" />
            <div className="min-w-0 flex-1 space-y-2">
              <p className="text-sm font-medium text-ink">
                {t("admin.photos.position", { n: i + 1 })}
                {i === 0 && <span className="ml-2 rounded bg-stone-100 px-2 py-0.5 text-xs text-stone-700">{t("admin.photos.cardImage")}</span>}
              </p>
              <Form method="post" className="flex flex-wrap items-end gap-2" key={`${photo.id}-${photo.alt ?? ""}`}>
                <input type="hidden" name="intent" value="alt" />
                <input type="hidden" name="photoId" value={photo.id} />
                <div className="min-w-48 flex-1">
                  <Field label={t("admin.photos.alt", { n: i + 1 })} hint={t("admin.photos.altHint", { max: MAX_PHOTO_ALT })} error={answer?.photoId === photo.id && answer.problem === "altTooLong" ? "admin.photos.errors.altTooLong" : null}>
                    {(props) => <input {...props} name="alt" defaultValue={photo.alt ?? ""} maxLength={MAX_PHOTO_ALT} placeholder={product.name} className={inputClass} />}
                  </Field>
                </div>
                <button type="submit" className={secondaryButton} disabled={busy}>
                  {t("admin.photos.saveAlt")}
                </button>
              </Form>
            </div>
            <div className="flex items-center gap-1">
              <Form method="post" className="flex gap-1">
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="photoId" value={photo.id} />
                <button type="submit" name="direction" value="up" className={iconButton} disabled={busy || i === 0} aria-label={t("admin.photos.up", { n: i + 1 })}>
                  <ArrowUp aria-hidden="true" size={18} />
                </button>
                <button type="submit" name="direction" value="down" className={iconButton} disabled={busy || i === order.length - 1} aria-label={t("admin.photos.down", { n: i + 1 })}>
                  <ArrowDown aria-hidden="true" size={18} />
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="photoId" value={photo.id} />
                <button type="submit" className={iconButton} disabled={busy || order.length === 1} aria-label={t("admin.photos.delete", { n: i + 1 })}>
                  <Trash2 aria-hidden="true" size={18} />
                </button>
              </Form>
            </div>
          </li>
        ))}
      </ol>
      {order.length > 1 && <p className="mt-2 text-xs text-stone-500">{t("admin.photos.orderHint")}</p>}
      <section className="mt-6 max-w-xl rounded-xl border border-stone-200 bg-white p-4 shadow-sm" aria-labelledby="add-photo-heading">
        <h2 id="add-photo-heading" className="font-semibold text-ink">
          {t("admin.photos.add")}
        </h2>
        {full ? (
          <p className="mt-2 text-sm text-stone-600" data-photos-full>
            {t("admin.photos.full", { max: MAX_PHOTOS })}
          </p>
        ) : (
          <Form
            method="post"
            encType="multipart/form-data"
            className="mt-3 space-y-3"
            key={photos.length}
            onSubmit={(event) => {
              const file = new FormData(event.currentTarget).get("photo");
              // Checked here too, so a phone never sends megabytes only to hear they were too many.
              setFileError(file instanceof File && file.size > MAX_UPLOAD_BYTES);
              if (file instanceof File && file.size > MAX_UPLOAD_BYTES) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="add" />
            <Field label={t("admin.photos.file")} hint={t("admin.products.fields.imageHint")}>
              {(props) => (
                <input
                  {...props}
                  type="file"
                  name="photo"
                  accept={ACCEPTED_TYPES}
                  className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-stone-200 file:px-4 file:text-sm file:font-medium"
                />
              )}
            </Field>
            <Field label={t("admin.photos.newAlt")} hint={t("admin.photos.altHint", { max: MAX_PHOTO_ALT })}>
              {(props) => <input {...props} name="alt" maxLength={MAX_PHOTO_ALT} placeholder={product.name} className={inputClass} />}
            </Field>
            <button type="submit" className={primaryButton} disabled={busy}>
              {busy && navigation.formData?.get("intent") === "add" ? t("admin.photos.adding") : t("admin.photos.addButton")}
            </button>
          </Form>
        )}
      </section>
    </>
  );
}
