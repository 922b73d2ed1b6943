import type { Metadata } from "sharp";
import { MAX_UPLOAD_BYTES } from "../lib/admin";
import { loadSharp, storeImageVariants } from "./images.server";

/**
 * Uploaded product images: checked by their content (never by file name or declared type), size and
 * pixel count, then re-encoded into the shop's WebP variants with metadata stripped. The uploaded
 * bytes themselves are never written to disk, so they can never be served.
 */

export const MAX_IMAGE_BYTES = MAX_UPLOAD_BYTES;
export const MAX_IMAGE_PIXELS = 40_000_000;
export type ImageProblem = "type" | "size" | "pixels" | "unreadable";

/** What is wrong with an uploaded image, judged by its bytes; null when it can be used. */
export async function imageUploadProblem(bytes: Uint8Array): Promise<ImageProblem | null> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return "size";
  let meta: Metadata;
  const sharp = await loadSharp();
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
