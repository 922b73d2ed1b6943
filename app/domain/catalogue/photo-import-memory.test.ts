import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { makeProducts, makeUser } from "../../../tests/support/catalogue";
import { freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { MAX_IMAGE_BYTES } from "~/platform/uploads.server";
import { importPhotoZip } from "./photo-import.server";

// The photo zip import keeps one picture in memory at a time (docs/decisions/215). This file runs in a
// process of its own (vitest's forks pool), so the process's memory is the import's.

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const MB = 1024 * 1024;

function zipOf(files: [string, Buffer][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name, { compress: true });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

const settle = async () => {
  // Buffers' memory goes back after a collection, some of it on the next turn of the event loop.
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
};

/**
 * The process's memory while `work` runs, against what it was before: the peak as it is (sampled every
 * few milliseconds) and the peak of what is still held (sampled after a collection, every 250 ms), which
 * does not depend on when the collector happens to run.
 */
async function memoryDuring<T>(work: () => Promise<T>) {
  await settle();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakBuffers = before.arrayBuffers;
  let peakHeld = before.arrayBuffers;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
  };
  const timer = setInterval(sample, 2);
  const held = setInterval(() => {
    gc();
    peakHeld = Math.max(peakHeld, process.memoryUsage().arrayBuffers);
  }, 250);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
    clearInterval(held);
  }
  sample();
  await settle();
  const after = process.memoryUsage();
  const figures = {
    peakRssGrowthMb: Math.round((peakRss - before.rss) / MB),
    peakBuffersGrowthMb: Math.round((peakBuffers - before.arrayBuffers) / MB),
    peakHeldGrowthMb: Math.round((peakHeld - before.arrayBuffers) / MB),
    buffersLeftMb: Math.round((after.arrayBuffers - before.arrayBuffers) / MB),
    rssLeftMb: Math.round((after.rss - before.rss) / MB),
  };
  console.log(`photo zip import memory: ${JSON.stringify(figures)}`);
  return { result, ...figures };
}

describe("the photo zip import's memory", () => {
  let t: TestDatabase;
  let imagesDir: string;
  let admin: number;
  let slugs: string[];

  beforeAll(async () => {
    t = await freshDatabase("sqlite");
    imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-photo-memory-"));
    admin = await makeUser(t.db, "photo-memory@example.com");
    const ids = await makeProducts(
      t.db,
      Array.from({ length: 9 }, (_, i) => ({ name: `Memory Oud ${i + 1}`, price: 1_000_000, stock: 1 })),
    );
    slugs = (await t.db.selectFrom("products").select("slug").where("id", "in", ids).orderBy("id").execute()).map((p) => p.slug);
  });
  afterAll(async () => {
    await t?.drop();
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  it("still imports a zip of real pictures", async () => {
    const picture = (r: number) => sharp({ create: { width: 600, height: 800, channels: 3, background: { r, g: 40, b: 40 } } }).jpeg().toBuffer();
    const zip = await zipOf([
      [`${slugs[0]}.jpg`, await picture(200)],
      [`${slugs[0]}-2.jpg`, await picture(150)],
      [`${slugs[1]}.jpg`, await picture(100)],
    ]);
    const result = await importPhotoZip(t.db, { zip, imagesDir, actorId: admin });
    expect(result).toMatchObject({ ok: true, problems: [] });
    expect(result.updated.map((u) => u.slug).sort()).toEqual([slugs[0], slugs[1]].sort());
    const photos = await t.db.selectFrom("product_photos").select("image").execute();
    expect(photos.length).toBe(3);
    for (const { image } of photos) expect(fs.existsSync(path.join(imagesDir, `${image}-320.webp`))).toBe(true);
  });

  it("checks 70 pictures of 5 MB of zeros, packed into a few hundred kilobytes, one at a time", async () => {
    // Every entry is named after a product's photo (9 products × photos 1 to 8), so each one must be
    // unpacked and checked; each is as large as a photo may be.
    const zeros = Buffer.alloc(MAX_IMAGE_BYTES);
    const names = slugs.flatMap((slug) => [`${slug}.jpg`, ...Array.from({ length: 7 }, (_, i) => `${slug}-${i + 2}.jpg`)]).slice(0, 70);
    const zip = await zipOf(names.map((name) => [name, zeros]));
    expect(zip.length).toBeLessThan(1 * MB);

    const measured = await memoryDuring(() => importPhotoZip(t.db, { zip, imagesDir, actorId: admin }));
    // Every entry was read and refused as not a picture: nothing changed.
    expect(measured.result.ok).toBe(false);
    expect(measured.result.problems).toHaveLength(70);
    for (const p of measured.result.problems) expect(p.problem).toBe("type");
    // 350 MB unpacked: what is held at any moment is about one picture (5 MB) and the inflater's
    // chunks in flight, and it is all given back at the end.
    expect(measured.peakHeldGrowthMb).toBeLessThan(40);
    expect(measured.buffersLeftMb).toBeLessThan(10);
    // The process as a whole, with whatever the collector has not yet swept: well under 100 MB more
    // on a quiet machine (this bound leaves room for a busy one; holding every entry took 350 MB).
    expect(measured.peakRssGrowthMb).toBeLessThan(150);
    expect(measured.peakBuffersGrowthMb).toBeLessThan(150);
  }, 240_000);
});
