import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newestProducts } from "~/domain/catalogue/catalog.server";
import { verifyPassword } from "~/platform/password.server";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { DEMO_ADMIN_EMAIL, isCatalogueEmpty, seedDemoCatalogue } from "./seed.server";

// One image folder for the whole file: the second engine reuses the files the first one rendered.
const imagesDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-images-"));
afterAll(() => fs.rmSync(imagesDir, { recursive: true, force: true }));

describe.each(ENGINES)("demo catalogue on %s", (engine) => {
  let t: TestDatabase;
  let admin: Awaited<ReturnType<typeof seedDemoCatalogue>>["admin"];

  beforeAll(async () => {
    t = await freshDatabase(engine);
    expect(await isCatalogueEmpty(t.db)).toBe(true);
    admin = (await seedDemoCatalogue(t.db, { imagesDir })).admin;
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("seeds at least 48 perfumes across 10+ real brands and the men/women/unisex categories", async () => {
    expect(await isCatalogueEmpty(t.db)).toBe(false);
    const products = await t.db.selectFrom("products").selectAll().execute();
    expect(products.length).toBeGreaterThanOrEqual(48);
    const brands = await t.db.selectFrom("brands").select("name").execute();
    expect(brands.length).toBeGreaterThanOrEqual(10);
    expect(brands.map((b) => b.name)).toEqual(expect.arrayContaining(["Chanel", "Dior", "Tom Ford"]));
    const categories = await t.db.selectFrom("categories").select("slug").orderBy("slug").execute();
    expect(categories.map((c) => c.slug)).toEqual(["men", "unisex", "women"]);

    for (const p of products) {
      expect(p.price).toBeGreaterThanOrEqual(2_500_000);
      expect(p.price).toBeLessThanOrEqual(45_000_000);
      expect(Number.isInteger(p.price)).toBe(true);
      expect(p.description.length).toBeGreaterThan(80);
    }
    expect(products.filter((p) => p.discount).length).toBeGreaterThanOrEqual(5);
    expect(products.filter((p) => p.stock === 0).length).toBeGreaterThanOrEqual(2);
    expect(new Set(products.map((p) => p.image)).size).toBe(products.length);
  });

  it("writes real WebP variants at 320, 640 and 1024 px for every product", async () => {
    const products = await t.db.selectFrom("products").select("image").execute();
    for (const { image } of products) {
      for (const width of [320, 640, 1024]) {
        const file = path.join(imagesDir, `${image}-${width}.webp`);
        const meta = await sharp(file).metadata();
        expect(meta.format).toBe("webp");
        expect(meta.width).toBe(width);
        expect(meta.height).toBe(Math.round(width * 1.25));
      }
    }
  });

  it("adds one demo admin with a random password that works, and that must be changed at first sign-in", async () => {
    expect(admin?.email).toBe(DEMO_ADMIN_EMAIL);
    const user = await t.db.selectFrom("users").selectAll().where("email", "=", DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow();
    expect(user.role).toBe("owner");
    expect(user.must_change_password).toBe(1);
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user.password_hash, admin!.password)).toBe(true);
    expect(await verifyPassword(user.password_hash, "not-the-password")).toBe(false);
  });

  it("lists the 8 newest products, newest first, mixing the categories", async () => {
    const newest = await newestProducts(t.db, 8);
    expect(newest).toHaveLength(8);
    const all = await t.db.selectFrom("products").select(["id", "created_at", "category_id"]).orderBy("created_at", "desc").execute();
    expect(newest.map((p) => p.id)).toEqual(all.slice(0, 8).map((p) => p.id));
    expect(new Set(all.slice(0, 8).map((p) => p.category_id)).size).toBe(3);
    expect(newest[0].brandName.length).toBeGreaterThan(0);
  });

  it("hides archived products from the shop", async () => {
    const [first] = await newestProducts(t.db, 1);
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", first.id).execute();
    const after = await newestProducts(t.db, 8);
    expect(after.map((p) => p.id)).not.toContain(first.id);
  });

  it("rebuilds the catalogue on demand without a second admin", async () => {
    const again = await seedDemoCatalogue(t.db, { imagesDir, replace: true });
    expect(again.admin).toBeNull();
    const count = await t.db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(count.n).toBe(again.products);
    const admins = await t.db.selectFrom("users").select("id").where("role", "=", "owner").execute();
    expect(admins).toHaveLength(1);
  });
});
