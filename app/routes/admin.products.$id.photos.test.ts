import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, addUser } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { solidImage, TEXT_NAMED_JPG } from "../../tests/support/images";
import { adminPhotos, MAX_PHOTO_ALT, MAX_PHOTOS } from "~/domain/catalogue/product-photos.server";
import { createSession } from "~/http/session.server";
import { bodyLimitFor, FORM_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "~/http/body-limit.server";
import * as page from "./admin.products.$id.photos";

describe.each(ENGINES)("a product's photos page on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let adminCookie: string;
  let productId: number;
  let otherId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    adminCookie = await createSession(context, (await addUser(t.db, "owner")).id);
    const [brand, category] = [await addBrand(t.db), await addCategory(t.db)];
    productId = (await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Gallery Page Oud" })).id;
    otherId = (await addProduct(t.db, { brandId: brand.id, categoryId: category.id, name: "Someone Else's Rose" })).id;
  });
  afterAll(async () => {
    await t?.drop();
  });

  const post = (id: number | string, fields: Record<string, string | Blob>) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    const url = `/admin/products/${id}/photos`;
    return run(page.action, browserRequest(url, { method: "POST", body, cookies: [adminCookie], headers: { Origin: "http://shop.test" } }), context, { id: String(id) });
  };
  const jpeg = async (colour: string) => new Blob([new Uint8Array(await solidImage("jpeg", 200, 250, colour))], { type: "image/jpeg" });

  it("adds photos with their alt text and goes back to the page with a toast", async () => {
    expect(await post(productId, { intent: "add", photo: await jpeg("#aa0000"), alt: "Front" })).toMatchObject({ status: 303, location: `/admin/products/${productId}/photos` });
    expect(await post(productId, { intent: "add", photo: await jpeg("#00aa00"), alt: "" })).toMatchObject({ status: 303 });
    await post(otherId, { intent: "add", photo: await jpeg("#0000aa"), alt: "" });
    const loaded = await run(page.loader, browserRequest(`/admin/products/${productId}/photos`, { cookies: [adminCookie] }), context, { id: String(productId) });
    expect(loaded.status).toBe(200);
    expect((loaded.body as { photos: { alt: string | null; position: number }[] }).photos.map((p) => [p.position, p.alt])).toEqual([[1, "Front"], [2, null]]);
  });

  it("answers bad input with a 4xx and its reason, never a 500, and changes nothing", async () => {
    const before = await adminPhotos(t.db, productId);
    const [first, second] = before;
    const foreign = (await adminPhotos(t.db, otherId))[0];
    const cases: [Record<string, string | Blob>, number, string][] = [
      [{ intent: "add", photo: new Blob([new Uint8Array(TEXT_NAMED_JPG)], { type: "image/jpeg" }) }, 400, "type"],
      [{ intent: "add" }, 400, "noFile"],
      [{ intent: "add", photo: await jpeg("#aa0000") }, 409, "duplicate"],
      [{ intent: "add", photo: await jpeg("#a0a0a0"), alt: "z".repeat(MAX_PHOTO_ALT + 1) }, 400, "altTooLong"],
      [{ intent: "alt", photoId: String(first.id), alt: "z".repeat(MAX_PHOTO_ALT + 1) }, 400, "altTooLong"],
      [{ intent: "alt", photoId: String(foreign.id), alt: "Mine" }, 404, "photoNotFound"],
      [{ intent: "move", photoId: String(foreign.id), direction: "up" }, 404, "photoNotFound"],
      [{ intent: "move", photoId: String(second.id), direction: "sideways" }, 400, "badOrder"],
      [{ intent: "delete", photoId: String(foreign.id) }, 404, "photoNotFound"],
      [{ intent: "delete", photoId: "99999999" }, 404, "photoNotFound"],
      [{ intent: "order", order: `${second.id},${foreign.id}` }, 400, "badOrder"],
      [{ intent: "order", order: `${second.id},abc` }, 400, "badOrder"],
      [{ intent: "order", order: Array.from({ length: 50 }, (_, i) => i + 1).join(",") }, 400, "badOrder"],
    ];
    for (const [fields, status, problem] of cases) {
      expect(await post(productId, fields), JSON.stringify(fields).slice(0, 80)).toMatchObject({ status, body: { problem } });
    }
    expect(await post(99_999_999, { intent: "delete", photoId: String(first.id) })).toMatchObject({ status: 404, body: { problem: "notFound" } });
    expect(await post("abc", { intent: "delete", photoId: String(first.id) })).toMatchObject({ status: 404 });
    expect(await post(productId, { intent: "delete", photoId: "-1" })).toMatchObject({ status: 404, body: { problem: "photoNotFound" } });
    expect(await post(productId, { intent: "drop table", photoId: String(first.id) })).toMatchObject({ status: 400, body: { problem: "badRequest" } });
    expect(await adminPhotos(t.db, productId)).toEqual(before);
    expect(await adminPhotos(t.db, otherId)).toEqual([foreign]);
    const missing = await run(page.loader, browserRequest("/admin/products/99999999/photos", { cookies: [adminCookie] }), context, { id: "99999999" });
    expect(missing.status).toBe(404);
  });

  it("reorders without JavaScript (up and down) and with it (a full order); refuses a 9th photo with 409", async () => {
    const [first, second] = await adminPhotos(t.db, productId);
    expect(await post(productId, { intent: "move", photoId: String(second.id), direction: "up" })).toMatchObject({ status: 303 });
    expect((await adminPhotos(t.db, productId)).map((p) => p.id)).toEqual([second.id, first.id]);
    expect(await post(productId, { intent: "order", order: `${first.id}, ${second.id}` })).toMatchObject({ status: 303 });
    expect((await adminPhotos(t.db, productId)).map((p) => p.id)).toEqual([first.id, second.id]);
    for (let i = 3; i <= MAX_PHOTOS; i++) expect(await post(productId, { intent: "add", photo: await jpeg(`#3${i}3${i}3${i}`) })).toMatchObject({ status: 303 });
    expect(await post(productId, { intent: "add", photo: await jpeg("#999999") })).toMatchObject({ status: 409, body: { problem: "full" } });
    expect(await adminPhotos(t.db, productId)).toHaveLength(MAX_PHOTOS);
  });

  it("takes one photo of up to 5 MB on this page, and answers a larger one with 413 under the form", async () => {
    expect(bodyLimitFor(`/admin/products/${productId}/photos`, "multipart/form-data; boundary=x")).toBe(UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor(`/admin/products/${productId}/photos.data`, "multipart/form-data; boundary=x")).toBe(UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor(`/admin/products/${productId}/photos`, "application/x-www-form-urlencoded")).toBe(FORM_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/x/photos", "multipart/form-data; boundary=x")).toBe(FORM_BODY_LIMIT);
    const request = browserRequest(`/admin/products/${productId}/photos`, {
      method: "POST",
      body: new Uint8Array(10),
      cookies: [adminCookie],
      headers: { Origin: "http://shop.test", "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(6 * 1024 * 1024) },
    });
    expect(await run(page.action, request, context, { id: String(productId) })).toMatchObject({ status: 413, body: { problem: "size" } });
  });
});
