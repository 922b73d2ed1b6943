import sharp, { type Metadata } from "sharp";
import { MAX_UPLOAD_BYTES } from "./admin";
import { storeImageVariants } from "./images.server";

/**
 * Uploaded product images: checked by their content (never by file name or declared type), size and
 * pixel count, then re-encoded into the shop's WebP variants with metadata stripped. The uploaded
 * bytes themselves are never written to disk, so they can never be served.
 */

export const MAX_IMAGE_BYTES = MAX_UPLOAD_BYTES;
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Room for the other fields of a product form next to a full-size image. */
export const FORM_FIELDS_ALLOWANCE = 64 * 1024;
/** Small forms (everything without a file) stay far below this. */
export const MAX_PLAIN_FORM_BYTES = 64 * 1024;
// An oversized body is read and thrown away up to this much, so the browser sees our answer instead of
// a reset connection; beyond it the connection is left to close.
const DISCARD_AT_MOST = 100 * 1024 * 1024;

export type ImageProblem = "type" | "size" | "pixels" | "unreadable";

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let read = alreadyRead;
  try {
    while (read <= DISCARD_AT_MOST) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to discard.
  }
}

/**
 * The request's form, read only when it is no larger than maxBytes: the declared Content-Length is
 * checked before anything is read, and the bytes actually received are counted while reading (a
 * chunked upload has no length). Returns null when the body is too large. A body that is not a form
 * reads as an empty form, so validation answers it.
 */
export async function readFormWithin(request: Request, maxBytes: number): Promise<FormData | null> {
  const declared = request.headers.get("Content-Length");
  const reader = request.body?.getReader();
  if (declared !== null && (!/^\d{1,15}$/.test(declared.trim()) || Number(declared) > maxBytes)) {
    if (reader) await discard(reader, 0);
    return null;
  }
  if (!reader) return new FormData();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await discard(reader, total);
      return null;
    }
    chunks.push(value);
  }
  const type = request.headers.get("Content-Type") ?? "";
  try {
    return await new Response(Buffer.concat(chunks), { headers: { "Content-Type": type } }).formData();
  } catch {
    return new FormData();
  }
}

/** What is wrong with an uploaded image, judged by its bytes; null when it can be used. */
export async function imageUploadProblem(bytes: Uint8Array): Promise<ImageProblem | null> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return "size";
  let meta: Metadata;
  try {
    // Reads the header only: a huge picture is measured here without being decoded.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return "type";
  }
  const avif = meta.format === "heif" && meta.compression === "av1";
  if (!(meta.format === "jpeg" || meta.format === "png" || meta.format === "webp" || avif)) return "type";
  if (!meta.width || !meta.height) return "unreadable";
  const frameHeight = meta.pageHeight ?? meta.height;
  if (meta.width * frameHeight > MAX_IMAGE_PIXELS) return "pixels";
  return null;
}

/**
 * Checks an upload and, when it passes, renders its WebP variants. Returns the storage key, or why the
 * image was refused (a file that claims a format but does not decode is "unreadable").
 */
export async function storeUploadedImage(
  bytes: Uint8Array,
  dir: string,
): Promise<{ key: string; problem?: undefined } | { key?: undefined; problem: ImageProblem }> {
  const problem = await imageUploadProblem(bytes);
  if (problem) return { problem };
  try {
    return { key: await storeImageVariants(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), dir) };
  } catch {
    return { problem: "unreadable" };
  }
}
