import { sql } from "kysely";
import { randomBytes } from "node:crypto";
import { storeImageVariants } from "~/platform/images.server";
import { nairaToKobo } from "~/lib/money";
import { hashPassword } from "~/platform/password.server";
import { slugify } from "~/lib/slug";
import type { Db } from "./client.server";
import { bottleSvg } from "./demo/bottle-svg";
import { demoBrands, demoCategories, demoProducts } from "./demo/catalogue";

export const DEMO_ADMIN_EMAIL = "admin@unboxed.example";

export interface SeedResult {
  products: number;
  brands: number;
  categories: number;
  /** set only when the demo admin was created now: the password is shown once and never stored */
  admin: { email: string; password: string } | null;
}

/** True when the shop has no catalogue at all: the only state in which start-up seeds the demo. */
export async function isCatalogueEmpty(db: Db): Promise<boolean> {
  const [product, category, brand] = await Promise.all([
    db.selectFrom("products").select("id").limit(1).executeTakeFirst(),
    db.selectFrom("categories").select("id").limit(1).executeTakeFirst(),
    db.selectFrom("brands").select("id").limit(1).executeTakeFirst(),
  ]);
  return !product && !category && !brand;
}

/**
 * Arrival order for the demo perfumes: men's, women's and unisex scents take turns, so the
 * newest arrivals on the home page are a mix. Returns each product's rank (0 = newest).
 */
function interleavedByCategory(): number[] {
  const queues = demoCategories.map((c) => demoProducts.flatMap((p, i) => (p.category === c.slug ? [i] : [])));
  const ranks: number[] = new Array(demoProducts.length);
  let rank = 0;
  while (queues.some((q) => q.length)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next !== undefined) ranks[next] = rank++;
    }
  }
  return ranks;
}

/** Renders every demo bottle into WebP variants; a few at a time to keep memory flat. */
async function renderDemoImages(imagesDir: string): Promise<string[]> {
  const keys: string[] = new Array(demoProducts.length);
  let next = 0;
  async function worker() {
    while (next < demoProducts.length) {
      const i = next++;
      keys[i] = await storeImageVariants(Buffer.from(bottleSvg(demoProducts[i])), imagesDir);
    }
  }
  await Promise.all([worker(), worker()]);
  return keys;
}

async function ensureDemoAdmin(db: Db): Promise<SeedResult["admin"]> {
  const existing = await db.selectFrom("users").select("id").where("email", "=", DEMO_ADMIN_EMAIL).executeTakeFirst();
  if (existing) return null;
  const password = randomBytes(12).toString("base64url");
  await db
    .insertInto("users")
    .values({
      email: DEMO_ADMIN_EMAIL,
      password_hash: await hashPassword(password),
      first_name: "Demo",
      last_name: "Admin",
      role: "owner",
      created_at: new Date().toISOString(),
      // Its password was printed on the console: the owner chooses their own at first sign-in.
      must_change_password: 1,
    })
    .execute();
  return { email: DEMO_ADMIN_EMAIL, password };
}

/**
 * Fills the catalogue with the demo perfumes. With `replace`, the current catalogue is removed first
 * (orders keep their snapshots; cart and wishlist lines of removed products go with them).
 */
export async function seedDemoCatalogue(db: Db, options: { imagesDir: string; replace?: boolean }): Promise<SeedResult> {
  const images = await renderDemoImages(options.imagesDir);
  const started = Date.now();

  await db.transaction().execute(async (trx) => {
    if (options.replace) {
      await trx.deleteFrom("products").execute();
      await trx.deleteFrom("brands").execute();
      await trx.deleteFrom("categories").execute();
    }
    const stamp = (minutesAgo: number) => new Date(started - minutesAgo * 60_000).toISOString();

    const categoryIds = new Map<string, number>();
    for (const [i, category] of demoCategories.entries()) {
      const row = await trx
        .insertInto("categories")
        .values({ name: category.name, name_es: category.nameEs, slug: category.slug, created_at: stamp(10_000 + i) })
        .returning("id")
        .executeTakeFirstOrThrow();
      categoryIds.set(category.slug, row.id);
    }
    const brandIds = new Map<string, number>();
    for (const [i, brand] of demoBrands.entries()) {
      const row = await trx
        .insertInto("brands")
        .values({ name: brand, slug: slugify(brand), created_at: stamp(10_000 + i) })
        .returning("id")
        .executeTakeFirstOrThrow();
      brandIds.set(brand, row.id);
    }
    const arrivalRank = interleavedByCategory();
    const rows = demoProducts.map((p, i) => {
      const at = stamp(arrivalRank[i] * 37);
      return {
        slug: slugify(p.name),
        name: p.name,
        description: p.description,
        price: nairaToKobo(p.priceNaira),
        discount: p.discountNaira === null ? null : nairaToKobo(p.discountNaira),
        stock: p.stock,
        image: images[i],
        concentration: p.concentration,
        family: p.family,
        category_id: categoryIds.get(p.category)!,
        brand_id: brandIds.get(p.brand)!,
        created_at: at,
        updated_at: at,
      };
    });
    const inserted = await trx.insertInto("products").values(rows).returning(["id", "slug"]).execute();
    // Perfumes in several sizes (docs/decisions/121): each product got its first size by trigger, from
    // the first size's figures; name it and add the others.
    const ids = new Map(inserted.map((r) => [r.slug, r.id]));
    for (const [i, p] of demoProducts.entries()) {
      if (!p.sizes) continue;
      const productId = ids.get(rows[i].slug)!;
      const at = rows[i].created_at;
      const [first, ...others] = p.sizes;
      await trx.updateTable("product_sizes").set({ label: first.label, ml: first.ml }).where("product_id", "=", productId).execute();
      await trx
        .insertInto("product_sizes")
        .values(
          others.map((s, n) => ({
            product_id: productId,
            label: s.label,
            ml: s.ml,
            price: nairaToKobo(s.priceNaira),
            discount: s.discountNaira === null ? null : nairaToKobo(s.discountNaira),
            stock: s.stock,
            position: n + 1,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
    // Each demo perfume's picture is its first (and only) photo (docs/decisions/124).
    await sql`
      insert into product_photos (product_id, image, alt, position, created_at)
      select p.id, p.image, null, 1, p.created_at from products p
      where p.image is not null and not exists (select 1 from product_photos f where f.product_id = p.id)
    `.execute(trx);
  });

  return {
    products: demoProducts.length,
    brands: demoBrands.length,
    categories: demoCategories.length,
    admin: await ensureDemoAdmin(db),
  };
}
