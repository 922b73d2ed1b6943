import type { Db } from "~/db/client.server";

/** What a product card needs: everything is read fresh from the catalogue. */
export interface ProductCard {
  id: number;
  slug: string;
  name: string;
  price: number;
  discount: number | null;
  stock: number;
  image: string | null;
  brandName: string;
}

function cardQuery(db: Db) {
  return db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select([
      "p.id",
      "p.slug",
      "p.name",
      "p.price",
      "p.discount",
      "p.stock",
      "p.image",
      "b.name as brandName",
    ])
    .where("p.archived_at", "is", null);
}

/** The newest products in the shop, newest first. */
export async function newestProducts(db: Db, limit: number): Promise<ProductCard[]> {
  return cardQuery(db).orderBy("p.created_at", "desc").orderBy("p.id", "desc").limit(limit).execute();
}

/** Cards for the given products that are still in the shop, in no particular order. */
export async function productCards(db: Db, ids: number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  return cardQuery(db).where("p.id", "in", ids).execute();
}

export async function countProducts(db: Db): Promise<number> {
  const row = await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

// Anything that caches what the shop shows (e.g. rendered pages) listens here; every change to
// products, brands or categories calls catalogChanged() after it commits.
const catalogListeners = new Set<() => void>();

export function onCatalogChange(listener: () => void): () => void {
  catalogListeners.add(listener);
  return () => catalogListeners.delete(listener);
}

export function catalogChanged(): void {
  for (const listener of catalogListeners) listener();
}
