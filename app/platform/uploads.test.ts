import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { hugePng, orientedPhoto, solidImage, SVG_IMAGE, TEXT_NAMED_JPG } from "../../tests/support/images";
import { imageUploadProblem, MAX_IMAGE_BYTES, storeUploadedImage } from "./uploads.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-uploads-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("uploaded product images", () => {
  it("accepts JPEG, PNG, WebP and AVIF, judged by their content", async () => {
    for (const format of ["jpeg", "png", "webp", "avif"] as const) {
      expect(await imageUploadProblem(await solidImage(format)), format).toBeNull();
    }
  });

  it("refuses text named photo.jpg, SVG and other formats by content", async () => {
    expect(await imageUploadProblem(TEXT_NAMED_JPG)).toBe("type");
    expect(await imageUploadProblem(SVG_IMAGE)).toBe("type");
    expect(await imageUploadProblem(await solidImage("gif"))).toBe("type");
    expect(await imageUploadProblem(new Uint8Array())).toBe("type");
  });

  it("refuses files over 5 MB and pictures over 40 megapixels without decoding them", async () => {
    const big = Buffer.concat([await solidImage("png"), Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect(await imageUploadProblem(big)).toBe("size");
    const huge = hugePng(20_000, 20_000);
    expect(huge.length).toBeLessThan(200_000);
    const started = Date.now();
    expect(await imageUploadProblem(huge)).toBe("pixels");
    expect(Date.now() - started).toBeLessThan(2_000);
    // 40 megapixels exactly is allowed.
    expect(await imageUploadProblem(hugePng(8_000, 5_000))).toBeNull();
  });

  it("says a damaged file could not be read", async () => {
    const png = await solidImage("png", 800, 1000);
    const result = await storeUploadedImage(png.subarray(0, Math.floor(png.length / 2)), dir);
    expect(result.problem).toBe("unreadable");
  });

  it("stores only WebP variants, upright, with the metadata stripped, never the upload itself", async () => {
    const photo = await orientedPhoto();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const before = new Set(fs.readdirSync(dir));
    const result = await storeUploadedImage(photo, dir);
    expect(result.key).toMatch(/^[0-9a-f]{20}$/);
    const added = fs.readdirSync(dir).filter((f) => !before.has(f)).sort();
    expect(added).toEqual([`${result.key}-1024.webp`, `${result.key}-320.webp`, `${result.key}-640.webp`]);
    const variant = path.join(dir, `${result.key}-640.webp`);
    const meta = await sharp(variant).metadata();
    expect(meta.format).toBe("webp");
    expect([meta.width, meta.height]).toEqual([640, 800]);
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    // Turned a quarter clockwise, the red half is on top and the blue half at the bottom.
    const { data, info } = await sharp(variant).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const [rt, gt, bt] = pixel(320, 20);
    const [rb, gb, bb] = pixel(320, 780);
    expect(rt).toBeGreaterThan(200);
    expect(bt).toBeLessThan(60);
    expect(gt).toBeLessThan(60);
    expect(bb).toBeGreaterThan(200);
    expect(rb).toBeLessThan(60);
    expect(gb).toBeLessThan(60);
  });
});
