import fs from "node:fs/promises";
import path from "node:path";
import { type Expression, sql } from "kysely";
import { type Db, isPostgres, PREPARED } from "~/db/client.server";
import { fromJson, jsonArray, jsonTuple } from "~/db/json.server";
import { MAX_PHOTO_ALT, MAX_PHOTOS } from "~/lib/admin";
import { IMAGE_WIDTHS } from "~/lib/images";
import { type ImageProblem, storeUploadedImage } from "~/platform/uploads.server";
import { type AuditChanges, recordAudit } from "../backoffice/audit.server";
import { catalogChanged } from "./catalog.server";

/**
 * A product's photo gallery (docs/decisions/124): up to 8 photos in order, each with an alt text. The
 * first photo is the card image: `products.image` holds its key and is written in the same transaction
 * as every change of the gallery. Uploads follow the product form's rules (app/platform/uploads.server.ts).
 * A photo that leaves the gallery takes its files with it when no product uses that picture any more.
 *
 * A product whose image was set without a gallery row (imported from elsewhere, older data) shows that
 * image as its only photo, and the first change of its gallery writes it as photo 1.
 */

export { MAX_PHOTO_ALT, MAX_PHOTOS };

export interface GalleryPhoto {
  key: string;
  /** null: the product's name stands in */
  alt: string | null;
}

export interface AdminPhoto extends GalleryPhoto {
  id: number;
  position: number;
}

export type PhotoProblem =
  | "notFound"
  | "photoNotFound"
  | "noFile"
  | "full"
  | "duplicate"
  | "altTooLong"
  | "lastPhoto"
  | "badOrder"
  | ImageProblem;

export type PhotoResult = { ok: true; name: string; changed: boolean } | { ok: false; problem: PhotoProblem };

export interface PhotoWriteContext {
  db: Db;
  /** where image variants are written */
  imagesDir: string;
}

/** The alt text as stored: whitespace collapsed, empty as null; undefined when too long. */
export function cleanAlt(text: string): string | null | undefined {
  // Control characters (a pasted tab or newline) become spaces.
  // eslint-disable-next-line no-control-regex
  const alt = text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
  if (alt.length > MAX_PHOTO_ALT) return undefined;
  return alt || null;
}

/** The photos the shop shows for a product, in order (its card image alone when it has no gallery rows). */
export async function productGallery(db: Db, productId: number, cardImage: string | null): Promise<GalleryPhoto[]> {
  const rows = await db.selectFrom("product_photos").select(["image as key", "alt"]).where("product_id", "=", productId).orderBy("position").orderBy("id").modifyEnd(PREPARED).execute();
  return withCardImage(rows, cardImage);
}

/** The gallery, or the card image alone for a product without gallery rows. */
function withCardImage(rows: GalleryPhoto[], cardImage: string | null): GalleryPhoto[] {
  if (rows.length) return rows;
  return cardImage ? [{ key: cardImage, alt: null }] : [];
}

/**
 * A product's gallery rows as one column of another statement (the product page's, in productPage):
 * each photo's key, alt, position and id, in no particular order. Read it with `galleryFromColumn`.
 */
export function galleryColumn(db: Db, productId: Expression<number>) {
  const fields = ["image", "alt", "position", "id"].map((column) => sql.ref(`ph.${column}`));
  return db.selectFrom("product_photos as ph").select(jsonArray(db, jsonTuple(db, fields)).as("photos")).where("ph.product_id", "=", productId);
}

/** A gallery read by `galleryColumn`, in order, as productGallery gives it. */
export function galleryFromColumn(value: unknown, cardImage: string | null): GalleryPhoto[] {
  const rows = fromJson<[string, string | null, number, number][]>(value)
    .sort((a, b) => a[2] - b[2] || a[3] - b[3])
    .map(([key, alt]) => ({ key, alt }));
  return withCardImage(rows, cardImage);
}

async function photoRows(db: Db, productId: number): Promise<AdminPhoto[]> {
  return db
    .selectFrom("product_photos")
    .select(["id", "image as key", "alt", "position"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/** Writes the card image as photo 1 of a product that has an image but no gallery rows yet. */
async function adoptCardImage(db: Db, product: { id: number; image: string | null; updatedAt: string }): Promise<void> {
  if (!product.image) return;
  await db
    .insertInto("product_photos")
    .values({ product_id: product.id, image: product.image, alt: null, position: 1, created_at: product.updatedAt })
    .onConflict((oc) => oc.columns(["product_id", "image"]).doNothing())
    .execute();
}

/**
 * The admin's view of a product's photos, in order. A product with a card image and no gallery rows
 * gets that image written as its photo 1 first, so every photo shown has an id to act on.
 */
export async function adminPhotos(db: Db, productId: number): Promise<AdminPhoto[]> {
  const rows = await photoRows(db, productId);
  if (rows.length) return rows;
  const product = await db.selectFrom("products").select(["id", "image", "updated_at as updatedAt"]).where("id", "=", productId).executeTakeFirst();
  if (!product?.image) return rows;
  await db.transaction().execute(async (trx) => {
    if ((await photoRows(trx, productId)).length === 0) await adoptCardImage(trx, product);
  });
  return photoRows(db, productId);
}

interface LockedProduct {
  id: number;
  name: string;
  image: string | null;
  updatedAt: string;
}

/** The product, locked against other gallery changes on PostgreSQL (SQLite runs one writer at a time). */
async function lockProduct(trx: Db, productId: number): Promise<LockedProduct | undefined> {
  let find = trx.selectFrom("products").select(["id", "name", "image", "updated_at as updatedAt"]).where("id", "=", productId);
  if (isPostgres(trx)) find = find.forUpdate();
  const product = await find.executeTakeFirst();
  if (product && !(await trx.selectFrom("product_photos").select("id").where("product_id", "=", productId).limit(1).executeTakeFirst())) {
    await adoptCardImage(trx, product);
  }
  return product;
}

/** Numbers the photos 1..n in their current order and makes the first one the card image. */
async function settle(trx: Db, product: LockedProduct, order?: number[]): Promise<AdminPhoto[]> {
  const rows = await photoRows(trx, product.id);
  const ordered = order ? order.map((id) => rows.find((r) => r.id === id)!) : rows;
  for (const [i, row] of ordered.entries()) {
    if (row.position !== i + 1) await trx.updateTable("product_photos").set({ position: i + 1 }).where("id", "=", row.id).execute();
    row.position = i + 1;
  }
  const first = ordered[0]?.key ?? null;
  const set: { updated_at: string; image?: string | null } = { updated_at: new Date().toISOString() };
  if (first !== product.image) set.image = first;
  await trx.updateTable("products").set(set).where("id", "=", product.id).execute();
  return ordered;
}

const describePhotos = (rows: { key: string; alt: string | null }[]) => rows.map((r) => r.key);

async function audit(trx: Db, actorId: number, product: LockedProduct, changes: AuditChanges) {
  await recordAudit(trx, { actorId, action: "update", entity: "product", entityId: product.id, summary: product.name, changes });
}

/**
 * Adds a photo at the end of the gallery (the first one becomes the card image). The picture is checked
 * and rendered before the transaction; the limit of 8 and the duplicate check are decided inside it,
 * with the product locked, so two uploads at once cannot make a ninth photo.
 */
export async function addPhoto(
  ctx: PhotoWriteContext,
  productId: number,
  input: { bytes: Uint8Array | null; alt: string },
  actorId: number,
): Promise<PhotoResult> {
  const alt = cleanAlt(input.alt);
  if (alt === undefined) return { ok: false, problem: "altTooLong" };
  const exists = await ctx.db.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst();
  if (!exists) return { ok: false, problem: "notFound" };
  // Refused before the picture is decoded when the gallery is already full.
  const { n } = await ctx.db.selectFrom("product_photos").select((eb) => eb.fn.countAll<number>().as("n")).where("product_id", "=", productId).executeTakeFirstOrThrow();
  if (Number(n) >= MAX_PHOTOS) return { ok: false, problem: "full" };
  if (!input.bytes) return { ok: false, problem: "noFile" };
  const stored = await storeUploadedImage(input.bytes, ctx.imagesDir);
  if (stored.problem) return { ok: false, problem: stored.problem };
  const key = stored.key;

  const result = await ctx.db.transaction().execute(async (trx): Promise<PhotoResult> => {
    const product = await lockProduct(trx, productId);
    if (!product) return { ok: false, problem: "notFound" };
    const before = await photoRows(trx, productId);
    if (before.length >= MAX_PHOTOS) return { ok: false, problem: "full" };
    if (before.some((p) => p.key === key)) return { ok: false, problem: "duplicate" };
    await trx
      .insertInto("product_photos")
      .values({ product_id: productId, image: key, alt, position: before.length + 1, created_at: new Date().toISOString() })
      .execute();
    const after = await settle(trx, product);
    await audit(trx, actorId, product, { photos: [describePhotos(before), describePhotos(after)] });
    return { ok: true, name: product.name, changed: true };
  });
  if (result.ok) catalogChanged();
  // A picture refused inside the transaction leaves no files behind unless something uses them.
  else await removeUnusedImages(ctx, [key]);
  return result;
}

/** Removes a photo; the last one stays (a product always has its card image). */
export async function deletePhoto(ctx: PhotoWriteContext, productId: number, photoId: number, actorId: number): Promise<PhotoResult> {
  let removed: string | null = null;
  const result = await ctx.db.transaction().execute(async (trx): Promise<PhotoResult> => {
    const product = await lockProduct(trx, productId);
    if (!product) return { ok: false, problem: "notFound" };
    const before = await photoRows(trx, productId);
    const photo = before.find((p) => p.id === photoId);
    if (!photo) return { ok: false, problem: "photoNotFound" };
    if (before.length === 1) return { ok: false, problem: "lastPhoto" };
    await trx.deleteFrom("product_photos").where("id", "=", photoId).where("product_id", "=", productId).execute();
    const after = await settle(trx, product);
    await audit(trx, actorId, product, { photos: [describePhotos(before), describePhotos(after)] });
    removed = photo.key;
    return { ok: true, name: product.name, changed: true };
  });
  if (result.ok) {
    catalogChanged();
    if (removed) await removeUnusedImages(ctx, [removed]);
  }
  return result;
}

/** Puts the photos in the order given: every photo of the product exactly once, else "badOrder". */
export async function reorderPhotos(ctx: PhotoWriteContext, productId: number, ids: number[], actorId: number): Promise<PhotoResult> {
  const result = await ctx.db.transaction().execute(async (trx): Promise<PhotoResult> => {
    const product = await lockProduct(trx, productId);
    if (!product) return { ok: false, problem: "notFound" };
    const before = await photoRows(trx, productId);
    const known = new Set(before.map((p) => p.id));
    if (ids.length !== before.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
      return { ok: false, problem: "badOrder" };
    }
    if (ids.every((id, i) => before[i].id === id)) return { ok: true, name: product.name, changed: false };
    const after = await settle(trx, product, ids);
    await audit(trx, actorId, product, { photos: [describePhotos(before), describePhotos(after)] });
    return { ok: true, name: product.name, changed: true };
  });
  if (result.ok && result.changed) catalogChanged();
  return result;
}

/** Moves one photo a place up (towards first) or down; at either end nothing changes. */
export async function movePhoto(ctx: PhotoWriteContext, productId: number, photoId: number, direction: "up" | "down", actorId: number): Promise<PhotoResult> {
  const rows = await adminPhotosForMove(ctx.db, productId);
  if (rows === null) return { ok: false, problem: "notFound" };
  const at = rows.findIndex((r) => r.id === photoId);
  if (at === -1) return { ok: false, problem: "photoNotFound" };
  const to = direction === "up" ? at - 1 : at + 1;
  const ids = rows.map((r) => r.id);
  if (to >= 0 && to < ids.length) [ids[at], ids[to]] = [ids[to], ids[at]];
  // The order is checked again inside the transaction: a photo removed meanwhile makes this a "badOrder".
  const result = await reorderPhotos(ctx, productId, ids, actorId);
  return !result.ok && result.problem === "badOrder" ? { ok: false, problem: "photoNotFound" } : result;
}

async function adminPhotosForMove(db: Db, productId: number): Promise<AdminPhoto[] | null> {
  const product = await db.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst();
  return product ? adminPhotos(db, productId) : null;
}

/** Changes a photo's alt text (empty: the product's name stands in). */
export async function setPhotoAlt(ctx: PhotoWriteContext, productId: number, photoId: number, text: string, actorId: number): Promise<PhotoResult> {
  const alt = cleanAlt(text);
  if (alt === undefined) return { ok: false, problem: "altTooLong" };
  const result = await ctx.db.transaction().execute(async (trx): Promise<PhotoResult> => {
    const product = await lockProduct(trx, productId);
    if (!product) return { ok: false, problem: "notFound" };
    const photo = (await photoRows(trx, productId)).find((p) => p.id === photoId);
    if (!photo) return { ok: false, problem: "photoNotFound" };
    if (photo.alt === alt) return { ok: true, name: product.name, changed: false };
    await trx.updateTable("product_photos").set({ alt }).where("id", "=", photoId).execute();
    await trx.updateTable("products").set({ updated_at: new Date().toISOString() }).where("id", "=", productId).execute();
    await audit(trx, actorId, product, { [`photo ${photo.position} alt`]: [photo.alt, alt] });
    return { ok: true, name: product.name, changed: true };
  });
  if (result.ok && result.changed) catalogChanged();
  return result;
}

/**
 * Makes `key` the product's photo at `position` in place of the one there (the product form's image
 * field and a zip's `slug.jpg` for photo 1, a zip's `slug-N.jpg` for photo N), or adds it at the end of a
 * shorter gallery, inside the caller's transaction. Returns the key it replaced (null: none), for
 * removeUnusedImages once the transaction is done, or undefined when the product is gone. A picture
 * already elsewhere in the gallery moves to that place.
 */
export async function replacePhotoAt(trx: Db, productId: number, position: number, key: string): Promise<string | null | undefined> {
  const product = await lockProduct(trx, productId);
  if (!product) return undefined;
  const rows = await photoRows(trx, productId);
  const current = rows[position - 1];
  const same = rows.find((r) => r.key === key);
  if (current?.key === key) return null;
  if (same) await trx.deleteFrom("product_photos").where("id", "=", same.id).execute();
  if (current) {
    await trx.updateTable("product_photos").set({ image: key, alt: null }).where("id", "=", current.id).execute();
  } else {
    const count = rows.length - (same ? 1 : 0);
    await trx
      .insertInto("product_photos")
      .values({ product_id: productId, image: key, alt: null, position: count + 1, created_at: new Date().toISOString() })
      .execute();
  }
  await settle(trx, product);
  return current?.key ?? null;
}

/** Writes the first photo of a product just created with this image. */
export async function firstPhoto(trx: Db, productId: number, key: string, at: string): Promise<void> {
  await trx.insertInto("product_photos").values({ product_id: productId, image: key, alt: null, position: 1, created_at: at }).execute();
}

/**
 * Deletes the files of pictures no product uses any more (neither as card image nor as a gallery
 * photo). Variants are named by their content, so a picture uploaded again later is rendered again.
 */
export async function removeUnusedImages(ctx: PhotoWriteContext, keys: string[]): Promise<string[]> {
  const wanted = [...new Set(keys)].filter((k) => /^[0-9a-f]{20}$/.test(k));
  if (!wanted.length) return [];
  const [cards, photos] = await Promise.all([
    ctx.db.selectFrom("products").select("image").where("image", "in", wanted).execute(),
    ctx.db.selectFrom("product_photos").select("image").where("image", "in", wanted).execute(),
  ]);
  const used = new Set([...cards.map((r) => r.image), ...photos.map((r) => r.image)]);
  const unused = wanted.filter((k) => !used.has(k));
  for (const key of unused) {
    for (const width of IMAGE_WIDTHS) await fs.rm(path.join(ctx.imagesDir, `${key}-${width}.webp`), { force: true });
  }
  return unused;
}
