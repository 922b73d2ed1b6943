import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { makeProducts, makeUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { importPhotoZip, MAX_PHOTO_ZIP_ENTRIES } from "./photo-import.server";

/** A zip of these files, as a real zip writer makes it. */
function zipOf(files: [string, Buffer][], options: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name, { compress: options.compress ?? false });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

/** Replaces a file name inside a zip's bytes (local header and central directory), the same length. */
function renameInside(zip: Buffer, from: string, to: string): Buffer {
  expect(to).toHaveLength(from.length);
  return Buffer.from(zip.toString("latin1").split(from).join(to), "latin1");
}

const photo = (r: number, g: number, b: number, format: "jpeg" | "png" = "jpeg") =>
  sharp({ create: { width: 400, height: 500, channels: 3, background: { r, g, b } } })[format]().toBuffer();

describe.each(ENGINES)("photo zip import on %s", (engine) => {
  let t: TestDatabase;
  let imagesDir: string;
  let admin: number;
  let slugs: string[];

  beforeAll(async () => {
    t = await freshDatabase(engine);
    imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-photos-"));
    admin = await makeUser(t.db, `photo-admin-${engine}@example.com`);
    const ids = await makeProducts(t.db, [
      { name: "Zip Oud", price: 1_000_000, stock: 3 },
      { name: "Zip Rose", price: 2_000_000, stock: 3 },
    ]);
    slugs = (await t.db.selectFrom("products").select("slug").where("id", "in", ids).orderBy("id").execute()).map((p) => p.slug);
  });
  afterAll(async () => {
    await t?.drop();
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  const imageOf = async (slug: string) => (await t.db.selectFrom("products").select("image").where("slug", "=", slug).executeTakeFirstOrThrow()).image;

  it("gives each product named in the zip its re-encoded photo, in folders or not, skipping system files", async () => {
    const zip = await zipOf([
      [`${slugs[0]}.jpg`, await photo(200, 30, 30)],
      [`photos/${slugs[1].toUpperCase()}.PNG`, await photo(30, 30, 200, "png")],
      ["__MACOSX/._x.jpg", Buffer.from("resource fork")],
      [".DS_Store", Buffer.from("finder")],
    ], { compress: true });
    const result = await importPhotoZip(t.db, { zip, imagesDir, actorId: admin });
    expect(result).toMatchObject({ ok: true, problems: [] });
    expect(result.updated.map((u) => u.slug).sort()).toEqual([...slugs].sort());
    for (const slug of slugs) {
      const key = await imageOf(slug);
      expect(key).toMatch(/^[0-9a-f]{20}$/);
      // The shop's WebP variants exist; the uploaded bytes themselves are never kept.
      const meta = await sharp(path.join(imagesDir, `${key}-320.webp`)).metadata();
      expect(meta.format).toBe("webp");
    }
    const audit = await t.db.selectFrom("audit_log").select(["entity", "action"]).where("actor_user_id", "=", admin).execute();
    expect(audit).toHaveLength(2);
  });

  it("changes nothing when any picture is refused, and names every problem", async () => {
    const before = await Promise.all(slugs.map(imageOf));
    const zip = await zipOf([
      [`${slugs[0]}.jpg`, await photo(10, 200, 10)],
      ["no-such-perfume.jpg", await photo(10, 10, 10)],
      [`${slugs[1]}.jpg`, Buffer.from("<script>not a picture</script>")],
      [`${slugs[1]}.webp`, await photo(50, 50, 50)],
      ["price-list.csv", Buffer.from("a,b")],
    ]);
    const result = await importPhotoZip(t.db, { zip, imagesDir, actorId: admin });
    expect(result.ok).toBe(false);
    expect(result.updated).toEqual([]);
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { file: "no-such-perfume.jpg", problem: "unknownSlug" },
        { file: `${slugs[1]}.jpg`, problem: "duplicate" },
        { file: `${slugs[1]}.webp`, problem: "duplicate" },
        { file: "price-list.csv", problem: "notPicture" },
      ]),
    );
    expect(await Promise.all(slugs.map(imageOf))).toEqual(before);
  });

  it("refuses a file that is not a picture though named like one", async () => {
    const zip = await zipOf([[`${slugs[0]}.jpg`, Buffer.from("GIF89a but really text")]]);
    const result = await importPhotoZip(t.db, { zip, imagesDir, actorId: admin });
    expect(result).toMatchObject({ ok: false, problems: [{ file: `${slugs[0]}.jpg`, problem: "type" }] });
  });

  it("refuses a zip whose paths climb out of it, or start at the root, and writes nothing", async () => {
    const files = fs.readdirSync(imagesDir).length;
    const climbing = renameInside(await zipOf([["aa/aa/escape.jpg", await photo(1, 2, 3)]]), "aa/aa/escape.jpg", "../../escape.jpg");
    expect(await importPhotoZip(t.db, { zip: climbing, imagesDir, actorId: admin })).toMatchObject({ ok: false, zipProblem: "unsafePath" });
    const rooted = renameInside(await zipOf([["xtmp/escape.jpg", await photo(1, 2, 3)]]), "xtmp/escape.jpg", "/tmp/escape.jpg");
    expect(await importPhotoZip(t.db, { zip: rooted, imagesDir, actorId: admin })).toMatchObject({ ok: false, zipProblem: "unsafePath" });
    expect(fs.readdirSync(imagesDir)).toHaveLength(files);
    expect(fs.existsSync(path.join(imagesDir, "..", "..", "escape.jpg"))).toBe(false);
  });

  it("stops a zip bomb at its first oversized entry without unpacking it", async () => {
    // 60 MB of zeros packs into a few dozen kilobytes.
    const bomb = await zipOf([[`${slugs[0]}.jpg`, Buffer.alloc(60 * 1024 * 1024)]], { compress: true });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const result = await importPhotoZip(t.db, { zip: bomb, imagesDir, actorId: admin });
    expect(result).toMatchObject({ ok: false, problems: [{ file: `${slugs[0]}.jpg`, problem: "entryTooLarge" }] });
  });

  it("stops unpacking an entry at the first byte past its declared size, and refuses the zip", async () => {
    // 60 MB of zeros whose directory entry says 1,000 bytes: a lie found while unpacking.
    const zip = await zipOf([[`${slugs[0]}.jpg`, Buffer.alloc(60 * 1024 * 1024)]], { compress: true });
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(1000, central + 24);
    const before = await imageOf(slugs[0]);
    const result = await importPhotoZip(t.db, { zip, imagesDir, actorId: admin });
    expect(result).toMatchObject({ ok: false, zipProblem: "notZip" });
    expect(await imageOf(slugs[0])).toBe(before);
  });

  it("refuses what is not a zip, an empty zip, and a zip with too many entries", async () => {
    expect(await importPhotoZip(t.db, { zip: Buffer.from("PK\u0003\u0004 truncated"), imagesDir, actorId: admin })).toMatchObject({ ok: false, zipProblem: "notZip" });
    expect(await importPhotoZip(t.db, { zip: await photo(1, 1, 1), imagesDir, actorId: admin })).toMatchObject({ ok: false, zipProblem: "notZip" });
    expect(await importPhotoZip(t.db, { zip: await zipOf([]), imagesDir, actorId: admin })).toMatchObject({ ok: false, zipProblem: "empty" });
    const many = await zipOf(Array.from({ length: MAX_PHOTO_ZIP_ENTRIES + 1 }, (_, i) => [`f${i}.txt`, Buffer.from("x")] as [string, Buffer]));
    expect(await importPhotoZip(t.db, { zip: many, imagesDir, actorId: admin })).toMatchObject({ ok: false, zipProblem: "tooManyEntries" });
  });

  it("takes slug-2.jpg … slug-8.jpg as further photos in order; slug.jpg stays the first, the card image", async () => {
    const [id] = await makeProducts(t.db, [{ name: `Gallery Zip Oud ${engine}`, price: 1_000_000, stock: 3 }]);
    const slug = (await t.db.selectFrom("products").select("slug").where("id", "=", id).executeTakeFirstOrThrow()).slug;
    const gallery = async () =>
      t.db.selectFrom("product_photos").select(["image", "position"]).where("product_id", "=", id).orderBy("position").execute();
    const first = await importPhotoZip(t.db, { zip: await zipOf([[`${slug}.jpg`, await photo(123, 45, 67)]]), imagesDir, actorId: admin });
    expect(first).toMatchObject({ ok: true, updated: [{ slug }] });
    const oldFirst = (await gallery())[0].image;

    // A new first photo, photo 2, and photo 5 of a gallery that will have 2: it becomes photo 3.
    const zip = await zipOf([
      [`${slug}-5.jpg`, await photo(150, 90, 30)],
      [`${slug}.jpg`, await photo(67, 123, 45)],
      [`more/${slug}-2.JPG`, await photo(45, 67, 123)],
    ]);
    const result = await importPhotoZip(t.db, { zip, imagesDir, actorId: admin });
    expect(result).toMatchObject({ ok: true, problems: [], updated: [{ slug }] });
    const photos = await gallery();
    expect(photos.map((p) => p.position)).toEqual([1, 2, 3]);
    expect(photos[0].image).not.toBe(oldFirst);
    expect(await imageOf(slug)).toBe(photos[0].image);
    // The replaced first photo's files are gone; the new ones are there.
    expect(fs.readdirSync(imagesDir).filter((f) => f.startsWith(oldFirst))).toEqual([]);
    for (const { image } of photos) expect(fs.existsSync(path.join(imagesDir, `${image}-640.webp`))).toBe(true);
    const audit = await t.db.selectFrom("audit_log").select("changes").where("entity_id", "=", id).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(JSON.parse(audit.changes!).photos).toEqual([[oldFirst], photos.map((p) => p.image)]);

    // Photo 2 replaced in place; the others stay where they are.
    const again = await importPhotoZip(t.db, { zip: await zipOf([[`${slug}-2.webp`, await photo(30, 150, 90)]]), imagesDir, actorId: admin });
    expect(again.ok).toBe(true);
    const after = await gallery();
    expect([after[0].image, after[2].image]).toEqual([photos[0].image, photos[2].image]);
    expect(after[1].image).not.toBe(photos[1].image);
  });

  it("refuses photo numbers outside 2 to 8 and two pictures for one photo; a name that is a product's own slug is its first photo", async () => {
    const [oud, oud2] = await makeProducts(t.db, [
      { name: `Numbered Oud ${engine}`, price: 1_000_000, stock: 3 },
      { name: `Numbered Oud ${engine} 2`, price: 1_000_000, stock: 3 },
    ]);
    const slugOf = async (id: number) => (await t.db.selectFrom("products").select("slug").where("id", "=", id).executeTakeFirstOrThrow()).slug;
    const slug = await slugOf(oud);
    // As the product form names a second product of the same name.
    const slug2 = `${slug}-2`;
    await t.db.updateTable("products").set({ slug: slug2 }).where("id", "=", oud2).execute();
    const before = await t.db.selectFrom("product_photos").select("id").execute();
    const refused = await importPhotoZip(t.db, {
      zip: await zipOf([
        [`${slug}-9.jpg`, await photo(1, 1, 1)],
        [`${slug}-1.jpg`, await photo(2, 2, 2)],
        [`${slug}-3.jpg`, await photo(3, 3, 3)],
        [`other/${slug}-3.png`, await photo(4, 4, 4, "png")],
        [`nobody-2.jpg`, await photo(5, 5, 5)],
      ]),
      imagesDir,
      actorId: admin,
    });
    expect(refused.ok).toBe(false);
    expect(refused.problems).toEqual(
      expect.arrayContaining([
        { file: `${slug}-9.jpg`, problem: "photoNumber" },
        { file: `${slug}-1.jpg`, problem: "photoNumber" },
        { file: `${slug}-3.jpg`, problem: "duplicate" },
        { file: `other/${slug}-3.png`, problem: "duplicate" },
        { file: "nobody-2.jpg", problem: "unknownSlug" },
      ]),
    );
    expect(await t.db.selectFrom("product_photos").select("id").execute()).toEqual(before);

    // `slug-2.jpg` where a product has that very slug: that product's first photo.
    const own = await importPhotoZip(t.db, { zip: await zipOf([[`${slug2}.jpg`, await photo(6, 6, 6)]]), imagesDir, actorId: admin });
    expect(own).toMatchObject({ ok: true, updated: [{ slug: slug2 }] });
    expect(await t.db.selectFrom("product_photos").select("id").where("product_id", "=", oud).execute()).toEqual([]);
    expect(await imageOf(slug2)).toMatch(/^[0-9a-f]{20}$/);
  });
});
