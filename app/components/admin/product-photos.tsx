import { ArrowDown, ArrowUp, GripVertical, Trash2 } from "lucide-react";
import { useState } from "react";
import { Form, useActionData, useNavigation, useSubmit } from "react-router";
import { BackLink, Field, fileInputClass, iconButton, IMAGE_TYPES, inputClass, PageHeader, primaryButton, screenHref, secondaryButton } from "~/components/admin/ui";
import type { AdminPhoto, PhotoProblem } from "~/domain/catalogue/product-photos.server";
import { MAX_PHOTO_ALT, MAX_PHOTOS, MAX_UPLOAD_BYTES } from "~/lib/admin";
import { useT } from "~/lib/i18n";
import { imageVariantUrl } from "~/lib/images";

/** A product's photo gallery (docs/decisions/124): add, describe, order (drag, or up and down without JavaScript), delete. */

export interface PhotosProduct {
  id: number;
  name: string;
  archived: boolean;
}

/** What a refused change of the gallery answers: the problem, and the photo it concerns. */
export interface PhotoAnswer {
  problem: PhotoProblem | "badRequest";
  photoId: number | null;
}

/** A product's photos in their order, each with its description, moves and delete; and the form adding one. */
export function ProductPhotosScreen({ product, photos }: { product: PhotosProduct; photos: AdminPhoto[] }) {
  const { t } = useT();
  const answer = useActionData<PhotoAnswer>();
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
      <BackLink to={screenHref("/admin/products", { view: product.archived ? "archived" : null })}>{t("admin.photos.back")}</BackLink>
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
                  accept={IMAGE_TYPES}
                  className={fileInputClass}
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
