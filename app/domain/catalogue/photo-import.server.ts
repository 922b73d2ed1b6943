import path from "node:path";
import yauzl from "yauzl";
import type { Db } from "~/db/client.server";
import { MAX_PHOTO_ZIP_BYTES } from "~/lib/admin";
import { type ImageProblem, MAX_IMAGE_BYTES, storeUploadedImage } from "~/platform/uploads.server";
import { recordAudit } from "../backoffice/audit.server";
import { catalogChanged } from "./catalog.server";
import { MAX_PHOTOS, removeUnusedImages, replacePhotoAt } from "./product-photos.server";

/**
 * Product photos in bulk (docs/decisions/120): a zip of pictures, each named by its product's slug
 * (`sauvage-edt.jpg`). Every picture is checked and re-encoded exactly like a photo uploaded on the
 * product form (app/platform/uploads.server.ts); the zip itself is read with yauzl, which refuses paths that
 * climb out (`../x`) or start at the root. Every entry's name and declared size are checked from the
 * zip's directory before anything is unpacked; then the pictures are unpacked one at a time, each
 * stopped as soon as it gives more bytes than a photo may have, checked and re-encoded, and let go
 * before the next (docs/decisions/215): memory holds one picture, whatever the zip.
 *
 * All or nothing: when any picture is refused (unknown slug, two pictures for one product, not an
 * image), no product changes and the owner sees every problem at once. Otherwise every matched product
 * gets its new photos in one transaction: `slug.jpg` replaces photo 1 (the card image), `slug-2.jpg` …
 * `slug-8.jpg` replace photos 2 to 8, or are added at the end of a gallery that has fewer
 * (docs/decisions/124).
 */

/** entries a zip may hold (folders included) */
export const MAX_PHOTO_ZIP_ENTRIES = 1000;
/** all pictures together, unpacked */
export const MAX_PHOTO_ZIP_UNPACKED_BYTES = 400 * 1024 * 1024;

const PICTURE_NAME = /\.(jpe?g|png|webp|avif)$/i;
/** `slug-N`: the product's photo N (docs/decisions/124) */
const NUMBERED = /^(.+)-(\d{1,3})$/;
/** Files a computer adds to zips on its own: skipped, never reported. */
const SYSTEM_FILE = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$|desktop\.ini$|\._)/i;

export type ZipProblem = "tooLarge" | "notZip" | "unsafePath" | "tooManyEntries" | "tooLargeUnpacked" | "encrypted" | "empty";
export type PhotoProblem = "unknownSlug" | "photoNumber" | "duplicate" | "notPicture" | "entryTooLarge" | ImageProblem;

export interface PhotoImportResult {
  ok: boolean;
  /** why the whole zip was refused */
  zipProblem?: ZipProblem;
  /** each picture refused, by its name in the zip */
  problems: { file: string; problem: PhotoProblem }[];
  /** products that got their new photo (none when anything was refused) */
  updated: { slug: string; name: string }[];
}

class ZipRefused extends Error {
  constructor(readonly problem: ZipProblem) {
    super(problem);
  }
}

/** A picture in the zip, known from the zip's central directory: nothing of it is unpacked yet. */
interface Picture {
  file: string;
  slug: string;
  entry: yauzl.Entry;
}

/** A stream error of yauzl's that means a path the zip may not hold. */
const asZipRefused = (error: unknown) =>
  error instanceof ZipRefused
    ? error
    : new ZipRefused(/invalid relative path|absolute path|invalid characters/i.test(String((error as Error)?.message)) ? "unsafePath" : "notZip");

function openZip(zip: Buffer): Promise<yauzl.ZipFile> {
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    // autoClose off: the entries are unpacked after the whole directory has been read.
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, autoClose: false }, (error, file) =>
      error ? reject(new ZipRefused("notZip")) : resolve(file),
    ),
  );
}

/**
 * Lists the pictures of a zip from its central directory, unpacking nothing, and checks every entry's
 * name and declared size; throws ZipRefused for a zip that cannot be trusted.
 */
function listPictures(archive: yauzl.ZipFile, problems: PhotoImportResult["problems"]): Promise<Picture[]> {
  if (archive.entryCount > MAX_PHOTO_ZIP_ENTRIES) return Promise.reject(new ZipRefused("tooManyEntries"));
  const pictures: Picture[] = [];
  let declared = 0;
  return new Promise<Picture[]>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (!failed) reject(asZipRefused(error));
      failed = true;
    };
    archive.on("error", fail);
    archive.on("end", () => resolve(pictures));
    archive.on("entry", (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (name.endsWith("/") || SYSTEM_FILE.test(name)) return archive.readEntry();
      if (entry.isEncrypted()) return fail(new ZipRefused("encrypted"));
      const base = path.posix.basename(name);
      if (!PICTURE_NAME.test(base)) {
        problems.push({ file: name, problem: "notPicture" });
        return archive.readEntry();
      }
      // Refused on its declared size, without being unpacked.
      if (entry.uncompressedSize > MAX_IMAGE_BYTES) {
        problems.push({ file: name, problem: "entryTooLarge" });
        return archive.readEntry();
      }
      declared += entry.uncompressedSize;
      if (declared > MAX_PHOTO_ZIP_UNPACKED_BYTES) return fail(new ZipRefused("tooLargeUnpacked"));
      pictures.push({ file: name, slug: base.replace(PICTURE_NAME, "").toLowerCase(), entry });
      archive.readEntry();
    });
    archive.readEntry();
  });
}

/**
 * Unpacks one entry into `into` (the import's one buffer for pictures) and answers its length. Stops
 * reading, and answers "tooLarge", as soon as it has given more bytes than a photo may have or than
 * `into` holds (yauzl also stops at the first byte past its declared size: a damaged zip); throws
 * ZipRefused once the zip's pictures together have unpacked more than MAX_PHOTO_ZIP_UNPACKED_BYTES.
 */
function unpack(archive: yauzl.ZipFile, entry: yauzl.Entry, into: Buffer, total: { bytes: number }): Promise<number | "tooLarge"> {
  return new Promise((resolve, reject) => {
    archive.openReadStream(entry, (error, stream) => {
      if (error) return reject(asZipRefused(error));
      let read = 0;
      let done = false;
      const stop = (outcome: () => void) => {
        done = true;
        stream.destroy();
        outcome();
      };
      stream.on("data", (chunk: Buffer) => {
        if (done) return;
        total.bytes += chunk.length;
        if (read + chunk.length > Math.min(MAX_IMAGE_BYTES, into.length)) return stop(() => resolve("tooLarge"));
        if (total.bytes > MAX_PHOTO_ZIP_UNPACKED_BYTES) return stop(() => reject(new ZipRefused("tooLargeUnpacked")));
        read += chunk.copy(into, read);
      });
      stream.on("error", (streamError) => {
        if (!done) reject(asZipRefused(streamError));
        done = true;
      });
      stream.on("end", () => {
        if (!done) resolve(read);
        done = true;
      });
    });
  });
}

export async function importPhotoZip(db: Db, input: { zip: Buffer; imagesDir: string; actorId: number }): Promise<PhotoImportResult> {
  if (input.zip.length > MAX_PHOTO_ZIP_BYTES) return { ok: false, zipProblem: "tooLarge", problems: [], updated: [] };
  let archive: yauzl.ZipFile | null = null;
  try {
    archive = await openZip(input.zip);
    return await importFrom(db, archive, input);
  } catch (error) {
    if (error instanceof ZipRefused) return { ok: false, zipProblem: error.problem, problems: [], updated: [] };
    throw error;
  } finally {
    archive?.close();
  }
}

async function importFrom(db: Db, archive: yauzl.ZipFile, input: { imagesDir: string; actorId: number }): Promise<PhotoImportResult> {
  const problems: PhotoImportResult["problems"] = [];
  const pictures = await listPictures(archive, problems);
  if (pictures.length === 0 && problems.length === 0) return { ok: false, zipProblem: "empty", problems: [], updated: [] };

  // `slug.jpg` is a product's photo 1 and `slug-2.jpg` … `slug-8.jpg` its further photos. A name that is
  // itself a product's slug (`oud-2` when both `oud` and `oud-2` exist) is that product's photo 1.
  const slugs = new Set<string>();
  for (const picture of pictures) {
    slugs.add(picture.slug);
    const numbered = NUMBERED.exec(picture.slug);
    if (numbered) slugs.add(numbered[1]);
  }
  const products = slugs.size
    ? await db.selectFrom("products").select(["id", "slug", "name", "image"]).where("slug", "in", [...slugs]).execute()
    : [];
  const bySlug = new Map(products.map((p) => [p.slug, p]));
  const placed: (Picture & { product: string; position: number })[] = [];
  for (const picture of pictures) {
    const numbered = NUMBERED.exec(picture.slug);
    if (bySlug.has(picture.slug)) placed.push({ ...picture, product: picture.slug, position: 1 });
    else if (numbered && bySlug.has(numbered[1])) {
      const position = Number(numbered[2]);
      if (position < 2 || position > MAX_PHOTOS) problems.push({ file: picture.file, problem: "photoNumber" });
      else placed.push({ ...picture, product: numbered[1], position });
    } else problems.push({ file: picture.file, problem: "unknownSlug" });
  }
  const seen = new Map<string, number>();
  const spot = (p: { product: string; position: number }) => `${p.product}#${p.position}`;
  for (const picture of placed) seen.set(spot(picture), (seen.get(spot(picture)) ?? 0) + 1);

  const keys: { product: string; position: number; key: string }[] = [];
  const unpacked = { bytes: 0 };
  // Every picture is unpacked into this one buffer, as large as the largest declared (a photo at most).
  let into: Buffer | null = null;
  for (const picture of placed) {
    if (seen.get(spot(picture))! > 1) {
      problems.push({ file: picture.file, problem: "duplicate" });
      continue;
    }
    // One picture in memory at a time: unpacked, checked and re-encoded like any upload, then let go
    // (docs/decisions/215). The variants are named by content, so a refused import leaves only unused
    // files (and importing the same zip again costs nothing).
    into ??= Buffer.allocUnsafe(Math.max(1, ...placed.map((p) => p.entry.uncompressedSize)));
    const length = await unpack(archive, picture.entry, into, unpacked);
    if (length === "tooLarge") {
      problems.push({ file: picture.file, problem: "entryTooLarge" });
      continue;
    }
    // Checked and re-encoded before the next picture is unpacked over it; nothing keeps it after.
    const stored = await storeUploadedImage(into.subarray(0, length), input.imagesDir);
    if (stored.problem) problems.push({ file: picture.file, problem: stored.problem });
    else keys.push({ product: picture.product, position: picture.position, key: stored.key });
  }
  if (problems.length) return { ok: false, problems, updated: [] };

  // Each product's pictures in order of their number: `slug-5.jpg` for a product with two photos (and
  // no `slug-3.jpg` or `slug-4.jpg` in the zip) becomes its photo 3.
  keys.sort((a, b) => a.product.localeCompare(b.product) || a.position - b.position);
  const replaced: string[] = [];
  const updated = await db.transaction().execute(async (trx) => {
    const done: { slug: string; name: string }[] = [];
    for (const slug of new Set(keys.map((k) => k.product))) {
      const product = bySlug.get(slug)!;
      const photoKeys = async () =>
        (await trx.selectFrom("product_photos").select("image").where("product_id", "=", product.id).orderBy("position").execute()).map((r) => r.image);
      const before = await photoKeys();
      let gone = false;
      for (const { position, key } of keys.filter((k) => k.product === slug)) {
        const old = await replacePhotoAt(trx, product.id, position, key);
        if (old === undefined) gone = true;
        else if (old) replaced.push(old);
      }
      if (gone) continue;
      const after = await photoKeys();
      if (before.join() !== after.join()) {
        await recordAudit(trx, { actorId: input.actorId, action: "update", entity: "product", entityId: product.id, summary: product.name, changes: { photos: [before, after] } });
      }
      done.push({ slug, name: product.name });
    }
    return done;
  });
  if (updated.length) catalogChanged();
  // A picture replaced by the import goes when no product uses it any more.
  await removeUnusedImages({ db, imagesDir: input.imagesDir }, replaced);
  return { ok: true, problems: [], updated };
}
