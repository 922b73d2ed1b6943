import { sql } from "kysely";
import type { Db } from "~/db/client.server";
import type { Role } from "~/db/schema";

/** Direct inserts for tests that need a few rows to work on. */

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
const now = () => new Date().toISOString();

export async function addUser(db: Db, role: Role, email = `${role}-${unique()}@example.com`, firstName = role === "owner" ? "Ada" : "Chioma") {
  const row = await db
    .insertInto("users")
    .values({ email, password_hash: "x", first_name: firstName, last_name: "Test", role, created_at: now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

export async function addBrand(db: Db, name = `Brand ${unique()}`) {
  const slug = `brand-${unique()}`;
  const row = await db.insertInto("brands").values({ name, slug, created_at: now() }).returning("id").executeTakeFirstOrThrow();
  return { id: row.id, name };
}

export async function addCategory(db: Db, name = `Category ${unique()}`) {
  const slug = `category-${unique()}`;
  const row = await db.insertInto("categories").values({ name, slug, created_at: now() }).returning("id").executeTakeFirstOrThrow();
  return { id: row.id, name };
}

export async function addProduct(
  db: Db,
  input: { brandId: number; categoryId: number; name?: string; price?: number; discount?: number | null; stock?: number; archived?: boolean; createdAt?: string },
) {
  const at = input.createdAt ?? now();
  const name = input.name ?? `Perfume ${unique()}`;
  const row = await db
    .insertInto("products")
    .values({
      slug: `perfume-${unique()}`,
      name,
      description: "A test perfume.",
      price: input.price ?? 5_000_000,
      discount: input.discount ?? null,
      stock: input.stock ?? 10,
      image: null,
      category_id: input.categoryId,
      brand_id: input.brandId,
      archived_at: input.archived ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, name };
}

/** A customer (or admin) with this e-mail; returns the id. */
export async function makeUser(db: Db, email: string, role: Role = "customer"): Promise<number> {
  return (await addUser(db, role, email)).id;
}

/** Products in a new brand and category of their own; returns their ids in the order given. */
export async function makeProducts(db: Db, products: { name: string; price: number; stock: number; discount?: number | null }[]): Promise<number[]> {
  const [brand, category] = await Promise.all([addBrand(db), addCategory(db)]);
  const ids: number[] = [];
  for (const p of products) ids.push((await addProduct(db, { brandId: brand.id, categoryId: category.id, ...p })).id);
  return ids;
}

/**
 * Sets the price, discount or stock of a product that comes in one size (docs/decisions/121): they
 * belong to the size, and the product's figures follow by trigger. Every product has its size
 * "Standard" from the moment it is inserted.
 */
export async function setSize(db: Db, productId: number, set: { price?: number; discount?: number | null; stock?: number }) {
  const sizes = await db.selectFrom("product_sizes").select("id").where("product_id", "=", productId).execute();
  if (sizes.length !== 1) throw new Error(`product ${productId} has ${sizes.length} sizes`);
  await db.updateTable("product_sizes").set(set).where("id", "=", sizes[0].id).execute();
}

/** The id of a product's first size, as an expression for inserts (a cart line needs its size). */
export function firstSizeOf(productId: number) {
  return sql<number>`(select id from product_sizes where product_id = ${productId} order by position, id limit 1)`;
}
