import type { Db } from "~/db/client.server";

/** Small, explicit rows for integration tests: a category, a brand, products and users. */

const at = () => new Date().toISOString();

export async function makeUser(db: Db, email: string, role: "customer" | "admin" = "customer"): Promise<number> {
  const row = await db
    .insertInto("users")
    .values({ email, password_hash: "not-a-real-hash", first_name: "Test", last_name: "User", role, created_at: at() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function makeProducts(
  db: Db,
  products: { name: string; price: number; stock: number; discount?: number | null }[],
): Promise<number[]> {
  const slug = Math.random().toString(36).slice(2, 8);
  const category = await db
    .insertInto("categories")
    .values({ name: `Cat ${slug}`, slug: `cat-${slug}`, created_at: at() })
    .returning("id")
    .executeTakeFirstOrThrow();
  const brand = await db
    .insertInto("brands")
    .values({ name: `Brand ${slug}`, slug: `brand-${slug}`, created_at: at() })
    .returning("id")
    .executeTakeFirstOrThrow();
  const rows = await db
    .insertInto("products")
    .values(
      products.map((p, i) => ({
        slug: `${slug}-${i}`,
        name: p.name,
        description: `${p.name} description`,
        price: p.price,
        discount: p.discount ?? null,
        stock: p.stock,
        image: null,
        category_id: category.id,
        brand_id: brand.id,
        archived_at: null,
        created_at: at(),
        updated_at: at(),
      })),
    )
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}
