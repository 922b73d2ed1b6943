import { data } from "react-router";
import { ProductPhotosScreen } from "~/components/admin/product-photos";
import { getAdminProduct } from "~/domain/catalogue/admin-products.server";
import { addPhoto, adminPhotos, deletePhoto, movePhoto, type PhotoProblem, reorderPhotos, setPhotoAlt } from "~/domain/catalogue/product-photos.server";
import { requirePermission } from "~/http/staff-guard.server";
import { MAX_PHOTOS } from "~/lib/admin";
import { positiveInt } from "~/lib/admin-params";
import { UPLOAD_BODY_LIMIT } from "~/http/body-limit.server";
import { bodyRefusal, readFormBody } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { imagesDir } from "~/platform/images.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.products.$id.photos";

/** A product's photo gallery (docs/decisions/124): the screen is in components/admin/product-photos.tsx. */

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
  return <ProductPhotosScreen product={loaderData.product} photos={loaderData.photos} />;
}
