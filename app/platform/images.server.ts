import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type SharpModule from "sharp";
import { IMAGE_WIDTHS, imageHeight } from "../lib/images";

let loaded: Promise<typeof SharpModule> | null = null;
/**
 * The image library, loaded when a picture is first handled: it holds about 30 MB that a shop serving
 * pages does not need. Images are decoded one at a time, without sharp's pixel caches.
 */
export function loadSharp(): Promise<typeof SharpModule> {
  return (loaded ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));
}

export function imagesDir(dataDir: string): string {
  return path.join(dataDir, "images");
}

/**
 * Renders an image (any format sharp reads, SVG included) into WebP variants, metadata stripped,
 * cropped to the shop's 4:5 portrait. Returns the storage key. Existing files are kept, so
 * storing the same picture twice costs nothing.
 */
export async function storeImageVariants(input: Buffer, dir: string): Promise<string> {
  const key = createHash("sha256").update(input).digest("hex").slice(0, 20);
  await fs.mkdir(dir, { recursive: true });
  const missing = [];
  for (const width of IMAGE_WIDTHS) {
    const file = path.join(dir, `${key}-${width}.webp`);
    if (!(await fs.stat(file).then(() => true, () => false))) missing.push({ width, file });
  }
  if (missing.length === 0) return key;
  const largest = Math.max(...IMAGE_WIDTHS);
  const sharp = await loadSharp();
  // Decode once at the largest size, then scale down from that raster. Phone photos are turned upright
  // by their EXIF orientation first, as that tag is stripped with the rest of the metadata.
  const base = await sharp(input, { density: 144 })
    .rotate()
    .resize(largest, imageHeight(largest), { fit: "cover", position: "centre" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (const { width, file } of missing) {
    const tmp = `${file}.${process.pid}.tmp`;
    await sharp(base.data, { raw: base.info })
      .resize(width, imageHeight(width))
      .webp({ quality: 78, effort: 4 })
      .toFile(tmp);
    await fs.rename(tmp, file);
  }
  return key;
}
