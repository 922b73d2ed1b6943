import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { addBrand, addCategory, addProduct, addUser } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { createSession } from "~/http/session.server";
import { bodyLimitFor, FORM_BODY_LIMIT, PHOTO_ZIP_BODY_LIMIT } from "~/http/body-limit.server";
import { imagesDir } from "~/platform/images.server";
import * as photos from "./admin.products.photos";

async function zipOf(files: [string, Buffer][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}


describe.each(ENGINES)("the photo import page on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let adminCookie: string;
  let slug: string;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    adminCookie = await createSession(context, (await addUser(t.db, "owner")).id);
    const [brand, category] = [await addBrand(t.db), await addCategory(t.db)];
    const product = await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Zip Page Oud" });
    slug = (await t.db.selectFrom("products").select("slug").where("id", "=", product.id).executeTakeFirstOrThrow()).slug;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const upload = (zip: Buffer | null) => {
    const body = new FormData();
    if (zip) body.set("zip", new File([new Uint8Array(zip)], "photos.zip", { type: "application/zip" }));
    return browserRequest("/admin/products/photos", { method: "POST", body, cookies: [adminCookie], headers: { Origin: "http://shop.test" } });
  };

  it("gives the product its photo and goes back to the products with a toast", async () => {
    const picture = await sharp({ create: { width: 300, height: 375, channels: 3, background: "#884422" } }).jpeg().toBuffer();
    const outcome = await run(photos.action, upload(await zipOf([[`${slug}.jpg`, picture]])), context);
    expect(outcome).toMatchObject({ status: 303, location: "/admin/products" });
    const { image } = await t.db.selectFrom("products").select("image").where("slug", "=", slug).executeTakeFirstOrThrow();
    expect(fs.existsSync(path.join(imagesDir(context.config.dataDir), `${image}-640.webp`))).toBe(true);
  });

  it("lists the refused pictures with a 400, and asks for a file when none was sent", async () => {
    const outcome = await run(photos.action, upload(await zipOf([["nobody.jpg", Buffer.from("x")]])), context);
    expect(outcome).toMatchObject({ status: 400, body: { problems: [{ file: "nobody.jpg", problem: "unknownSlug" }] } });
    expect(await run(photos.action, upload(null), context)).toMatchObject({ status: 400, body: { zipProblem: "noFile" } });
    expect(await run(photos.action, upload(Buffer.from("not a zip at all")), context)).toMatchObject({ status: 400, body: { zipProblem: "notZip" } });
  });

  it("takes a zip of up to 50 MB on this page only, and refuses a larger one by its declared length with 413", async () => {
    expect(bodyLimitFor("/admin/products/photos", "multipart/form-data; boundary=x")).toBe(PHOTO_ZIP_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/photos.data", "multipart/form-data; boundary=x")).toBe(PHOTO_ZIP_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/photos", "application/x-www-form-urlencoded")).toBe(FORM_BODY_LIMIT);
    const request = browserRequest("/admin/products/photos", {
      method: "POST",
      body: new Uint8Array(10),
      cookies: [adminCookie],
      headers: { Origin: "http://shop.test", "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(60 * 1024 * 1024) },
    });
    expect(await run(photos.action, request, context)).toMatchObject({ status: 413, body: { zipProblem: "tooLarge" } });
  });
});
