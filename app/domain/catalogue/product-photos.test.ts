import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBrand, addCategory, addProduct, makeUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { hugePng, SVG_IMAGE, solidImage, TEXT_NAMED_JPG } from "../../../tests/support/images";
import { migrateToLatest } from "~/db/migrate.server";
import { MAX_IMAGE_BYTES } from "~/platform/uploads.server";
import { createProduct, parseProductForm, updateProduct } from "./admin-products.server";
import {
  addPhoto,
  adminPhotos,
  deletePhoto,
  MAX_PHOTO_ALT,
  MAX_PHOTOS,
  movePhoto,
  productGallery,
  reorderPhotos,
  setPhotoAlt,
} from "./product-photos.server";

let colour = 0;
/** A real JPEG of its own colour each time, so every call is a different picture. */
const picture = () => {
  colour += 1;
  return solidImage("jpeg", 200, 250, `#${(colour * 2654435761 % 0xffffff).toString(16).padStart(6, "0")}`);
};

describe.each(ENGINES)("product photos on %s", (engine) => {
  let t: TestDatabase;
  let imagesDir: string;
  let admin: number;
  let brandId: number;
  let categoryId: number;
  const ctx = () => ({ db: t.db, imagesDir });

  beforeAll(async () => {
    t = await freshDatabase(engine);
    imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-gallery-"));
    admin = await makeUser(t.db, `gallery-admin-${engine}@example.com`, "owner");
    brandId = (await addBrand(t.db)).id;
    categoryId = (await addCategory(t.db)).id;
  });
  afterAll(async () => {
    await t?.drop();
    fs.rmSync(imagesDir, { recursive: true, force: true });
  });

  const newProduct = async (name?: string) => (await addProduct(t.db, { brandId, categoryId, name })).id;
  const cardImage = async (id: number) => (await t.db.selectFrom("products").select("image").where("id", "=", id).executeTakeFirstOrThrow()).image;
  const filesOf = (key: string) => fs.readdirSync(imagesDir).filter((f) => f.startsWith(`${key}-`));
  const add = async (id: number, alt = "") => {
    const result = await addPhoto(ctx(), id, { bytes: await picture(), alt }, admin);
    expect(result).toMatchObject({ ok: true });
    return (await adminPhotos(t.db, id)).at(-1)!;
  };

  it("turns each product's image into its first photo when the table is created, and keeps the ones without", async () => {
    const withImage = await newProduct();
    const without = await newProduct();
    await t.db.updateTable("products").set({ image: "0123456789abcdef0123" }).where("id", "=", withImage).execute();
    // Back to the schema before the gallery, then migrate again as a shop upgrading would.
    await sql`drop table product_photos`.execute(t.db);
    await sql`delete from kysely_migration where name = '0085_product_photos'`.execute(t.db);
    expect(await migrateToLatest(t.db)).toEqual(["0085_product_photos"]);
    const rows = await t.db.selectFrom("product_photos").select(["product_id", "image", "alt", "position"]).where("product_id", "in", [withImage, without]).execute();
    expect(rows).toEqual([{ product_id: withImage, image: "0123456789abcdef0123", alt: null, position: 1 }]);
    expect(await productGallery(t.db, withImage, "0123456789abcdef0123")).toEqual([{ key: "0123456789abcdef0123", alt: null }]);
    expect(await productGallery(t.db, without, null)).toEqual([]);
  });

  it("adds photos in order up to 8; the first is the card image; the 9th is refused before and inside the transaction", async () => {
    const id = await newProduct("Gallery Oud");
    const first = await add(id, "  The bottle\tfrom the front  ");
    expect(first).toMatchObject({ position: 1, alt: "The bottle from the front" });
    expect(await cardImage(id)).toBe(first.key);
    for (let i = 2; i <= MAX_PHOTOS; i++) await add(id, `Side ${i}`);
    const photos = await adminPhotos(t.db, id);
    expect(photos.map((p) => p.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(photos.map((p) => p.alt)).toEqual(["The bottle from the front", "Side 2", "Side 3", "Side 4", "Side 5", "Side 6", "Side 7", "Side 8"]);
    expect(await cardImage(id)).toBe(first.key);
    expect(await addPhoto(ctx(), id, { bytes: await picture(), alt: "" }, admin)).toEqual({ ok: false, problem: "full" });
    expect(await adminPhotos(t.db, id)).toHaveLength(MAX_PHOTOS);
    // The shop shows them in order, with the admin's alt texts.
    expect((await productGallery(t.db, id, first.key)).map((p) => p.alt)).toEqual(photos.map((p) => p.alt));
    const audit = await t.db.selectFrom("audit_log").select(["action", "changes"]).where("entity", "=", "product").where("entity_id", "=", id).execute();
    expect(audit).toHaveLength(MAX_PHOTOS);
    expect(JSON.parse(audit[1].changes!).photos).toEqual([[first.key], [first.key, photos[1].key]]);
  });

  it("never lets two uploads at the same moment make a ninth photo", async () => {
    const id = await newProduct();
    for (let i = 0; i < 6; i++) await add(id);
    const pictures = await Promise.all(Array.from({ length: 6 }, picture));
    const results = await Promise.all(pictures.map((bytes) => addPhoto(ctx(), id, { bytes, alt: "" }, admin)));
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.problem)).toEqual(["full", "full", "full", "full"]);
    expect((await adminPhotos(t.db, id)).map((p) => p.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("refuses what is not a usable picture, an over-long alt text, the same picture twice and unknown products", async () => {
    const id = await newProduct();
    const one = await add(id);
    const problem = async (bytes: Uint8Array | null, alt = "") => {
      const result = await addPhoto(ctx(), id, { bytes, alt }, admin);
      return result.ok ? "accepted" : result.problem;
    };
    expect(await problem(TEXT_NAMED_JPG)).toBe("type");
    expect(await problem(SVG_IMAGE)).toBe("type");
    expect(await problem(await solidImage("gif"))).toBe("type");
    expect(await problem(new Uint8Array(MAX_IMAGE_BYTES + 1))).toBe("size");
    expect(await problem(hugePng())).toBe("pixels");
    expect(await problem(null)).toBe("noFile");
    expect(await problem(await picture(), "x".repeat(MAX_PHOTO_ALT + 1))).toBe("altTooLong");
    const again = await solidImage("jpeg", 200, 250, "#123456");
    expect(await problem(again)).toBe("accepted");
    expect(await problem(again)).toBe("duplicate");
    expect(await addPhoto(ctx(), 999_999, { bytes: await picture(), alt: "" }, admin)).toEqual({ ok: false, problem: "notFound" });
    expect((await adminPhotos(t.db, id)).map((p) => p.id)[0]).toBe(one.id);
    expect(await adminPhotos(t.db, id)).toHaveLength(2);
  });

  it("reorders by a full list of the product's photo ids; the new first photo becomes the card image", async () => {
    const id = await newProduct();
    const [a, b, c] = [await add(id), await add(id), await add(id)];
    expect(await reorderPhotos(ctx(), id, [c.id, a.id, b.id], admin)).toMatchObject({ ok: true, changed: true });
    expect((await adminPhotos(t.db, id)).map((p) => [p.id, p.position])).toEqual([[c.id, 1], [a.id, 2], [b.id, 3]]);
    expect(await cardImage(id)).toBe(c.key);
    expect(await reorderPhotos(ctx(), id, [c.id, a.id, b.id], admin)).toMatchObject({ ok: true, changed: false });

    // Another product's photo, a photo twice, one left out, ids that do not exist: refused, nothing moves.
    const other = await newProduct();
    const foreign = await add(other);
    for (const ids of [[c.id, a.id, foreign.id], [c.id, a.id, a.id], [c.id, a.id], [c.id, a.id, b.id, 999_999], []]) {
      expect(await reorderPhotos(ctx(), id, ids, admin)).toEqual({ ok: false, problem: "badOrder" });
    }
    expect((await adminPhotos(t.db, id)).map((p) => p.id)).toEqual([c.id, a.id, b.id]);
    expect((await adminPhotos(t.db, other)).map((p) => p.id)).toEqual([foreign.id]);
    expect(await reorderPhotos(ctx(), 999_999, [c.id], admin)).toEqual({ ok: false, problem: "notFound" });
  });

  it("moves a photo up or down one place, and nowhere past either end", async () => {
    const id = await newProduct();
    const [a, b, c] = [await add(id), await add(id), await add(id)];
    expect(await movePhoto(ctx(), id, b.id, "up", admin)).toMatchObject({ ok: true, changed: true });
    expect((await adminPhotos(t.db, id)).map((p) => p.id)).toEqual([b.id, a.id, c.id]);
    expect(await cardImage(id)).toBe(b.key);
    expect(await movePhoto(ctx(), id, b.id, "up", admin)).toMatchObject({ ok: true, changed: false });
    expect(await movePhoto(ctx(), id, c.id, "down", admin)).toMatchObject({ ok: true, changed: false });
    expect(await movePhoto(ctx(), id, b.id, "down", admin)).toMatchObject({ ok: true, changed: true });
    expect((await adminPhotos(t.db, id)).map((p) => p.id)).toEqual([a.id, b.id, c.id]);
    expect(await cardImage(id)).toBe(a.key);
    const other = await newProduct();
    const foreign = await add(other);
    expect(await movePhoto(ctx(), id, foreign.id, "up", admin)).toEqual({ ok: false, problem: "photoNotFound" });
    expect(await movePhoto(ctx(), id, 999_999, "up", admin)).toEqual({ ok: false, problem: "photoNotFound" });
    expect(await movePhoto(ctx(), 999_999, a.id, "up", admin)).toEqual({ ok: false, problem: "notFound" });
    expect((await adminPhotos(t.db, other)).map((p) => p.id)).toEqual([foreign.id]);
  });

  it("changes the alt text of the product's own photos only", async () => {
    const id = await newProduct();
    const a = await add(id, "Front");
    expect(await setPhotoAlt(ctx(), id, a.id, "Box and bottle", admin)).toMatchObject({ ok: true, changed: true });
    expect(await setPhotoAlt(ctx(), id, a.id, "Box and bottle", admin)).toMatchObject({ ok: true, changed: false });
    expect(await setPhotoAlt(ctx(), id, a.id, "y".repeat(MAX_PHOTO_ALT + 1), admin)).toEqual({ ok: false, problem: "altTooLong" });
    const other = await newProduct();
    const foreign = await add(other, "Theirs");
    expect(await setPhotoAlt(ctx(), id, foreign.id, "Mine now", admin)).toEqual({ ok: false, problem: "photoNotFound" });
    expect((await adminPhotos(t.db, other))[0].alt).toBe("Theirs");
    expect(await setPhotoAlt(ctx(), id, a.id, "   ", admin)).toMatchObject({ ok: true, changed: true });
    expect(await productGallery(t.db, id, null)).toEqual([{ key: a.key, alt: null }]);
  });

  it("deletes a photo and its files when nothing else uses the picture; the last photo stays", async () => {
    const id = await newProduct();
    const [a, b] = [await add(id), await add(id)];
    const shared = await solidImage("jpeg", 200, 250, "#654321");
    expect(await addPhoto(ctx(), id, { bytes: shared, alt: "" }, admin)).toMatchObject({ ok: true });
    const other = await newProduct();
    expect(await addPhoto(ctx(), other, { bytes: shared, alt: "" }, admin)).toMatchObject({ ok: true });
    const c = (await adminPhotos(t.db, id))[2];
    expect(filesOf(a.key)).toHaveLength(3);

    // The first photo goes: its files go too, and the second becomes the card image.
    expect(await deletePhoto(ctx(), id, a.id, admin)).toMatchObject({ ok: true });
    expect(filesOf(a.key)).toEqual([]);
    expect((await adminPhotos(t.db, id)).map((p) => [p.id, p.position])).toEqual([[b.id, 1], [c.id, 2]]);
    expect(await cardImage(id)).toBe(b.key);
    // A picture another product still shows keeps its files.
    expect(await deletePhoto(ctx(), id, c.id, admin)).toMatchObject({ ok: true });
    expect(filesOf(c.key)).toHaveLength(3);
    expect(await cardImage(other)).toBe(c.key);

    expect(await deletePhoto(ctx(), id, b.id, admin)).toEqual({ ok: false, problem: "lastPhoto" });
    expect(await deletePhoto(ctx(), id, (await adminPhotos(t.db, other))[0].id, admin)).toEqual({ ok: false, problem: "photoNotFound" });
    expect(await deletePhoto(ctx(), id, 999_999, admin)).toEqual({ ok: false, problem: "photoNotFound" });
    expect(await deletePhoto(ctx(), 999_999, b.id, admin)).toEqual({ ok: false, problem: "notFound" });
    expect(await adminPhotos(t.db, id)).toHaveLength(1);
    expect(await adminPhotos(t.db, other)).toHaveLength(1);
  });

  it("writes a card image set without a gallery row as photo 1 before the first change", async () => {
    const id = await newProduct();
    await t.db.updateTable("products").set({ image: "fedcba9876543210fedc" }).where("id", "=", id).execute();
    expect(await productGallery(t.db, id, "fedcba9876543210fedc")).toEqual([{ key: "fedcba9876543210fedc", alt: null }]);
    const added = await addPhoto(ctx(), id, { bytes: await picture(), alt: "Second" }, admin);
    expect(added).toMatchObject({ ok: true });
    const photos = await adminPhotos(t.db, id);
    expect(photos.map((p) => [p.key, p.position])).toEqual([["fedcba9876543210fedc", 1], [photos[1].key, 2]]);
    expect(await cardImage(id)).toBe("fedcba9876543210fedc");
  });

  it("makes the product form's picture photo 1: on create, and on edit in place of the old one, whose files go", async () => {
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      return f;
    };
    const fields = { name: `Form Oud ${engine}`, description: "Warm.", price: "15000", discount: "", stock: "3", categoryId: String(categoryId), brandId: String(brandId), concentration: "", family: "" };
    const created = await createProduct(ctx(), parseProductForm(form(fields), "create"), await picture(), admin);
    if (!created.ok) throw new Error(JSON.stringify(created));
    const [first] = await adminPhotos(t.db, created.id);
    expect(first).toMatchObject({ position: 1, key: await cardImage(created.id) });
    await add(created.id, "Back");
    await setPhotoAlt(ctx(), created.id, first.id, "Front", admin);

    const updated = await updateProduct(ctx(), created.id, parseProductForm(form({}), "update"), await picture(), admin);
    expect(updated).toMatchObject({ ok: true, changed: ["image"] });
    const photos = await adminPhotos(t.db, created.id);
    expect(photos.map((p) => [p.id, p.position, p.alt])).toEqual([[first.id, 1, null], [photos[1].id, 2, "Back"]]);
    expect(photos[0].key).not.toBe(first.key);
    expect(await cardImage(created.id)).toBe(photos[0].key);
    expect(filesOf(first.key)).toEqual([]);
    expect(filesOf(photos[0].key)).toHaveLength(3);
  });
});
