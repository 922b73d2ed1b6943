import { sql } from "kysely";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/like";
import { slugify } from "~/lib/slug";
import { recordAudit } from "./audit.server";
import { catalogChanged } from "./catalog.server";

/**
 * Categories and brands (the spec's "regions"): the two lists products are sorted into. They share
 * their rules: a name of 1 to 60 characters, unique regardless of case; a slug made once, when
 * created, and kept on rename (the home page finds its carousels by category slug); and no deleting
 * one that products still use (archived products included, as order history points at them).
 */

export type TaxonomyKind = "category" | "brand";
const TABLE = { category: "categories", brand: "brands" } as const;
const PRODUCT_COLUMN = { category: "category_id", brand: "brand_id" } as const;

export const TAXONOMY_PAGE_SIZE = 20;
export const MAX_TAXONOMY_NAME = 60;

export function taxonomyNameSchema(kind: TaxonomyKind) {
  const required = kind === "category" ? "admin.categories.errors.name" : "admin.brands.errors.name";
  return z
    .string({ message: required })
    .trim()
    .min(1, required)
    .max(MAX_TAXONOMY_NAME, "admin.taxonomy.errors.nameTooLong");
}

export interface TaxonomyRow {
  id: number;
  name: string;
  products: number;
}

/** Categories newest first (as the spec lists them), brands A to Z; with a search on the name. */
export async function listTaxonomy(
  db: Db,
  kind: TaxonomyKind,
  options: { q?: string; page?: number } = {},
): Promise<{ rows: TaxonomyRow[]; total: number; page: number; pages: number }> {
  const table = TABLE[kind];
  const q = options.q?.trim();
  let base = db.selectFrom(`${table} as t` as "categories as t");
  if (q) base = base.where(containsText(sql.ref<string>("t.name"), q));
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / TAXONOMY_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  let query = base.select((eb) => [
    "t.id",
    "t.name",
    eb
      .selectFrom("products as p")
      .select((e) => e.fn.countAll<number>().as("c"))
      .whereRef(`p.${PRODUCT_COLUMN[kind]}` as "p.category_id", "=", "t.id")
      .as("products"),
  ]);
  query = kind === "category" ? query.orderBy("t.created_at", "desc").orderBy("t.id", "desc") : query.orderBy("t.name").orderBy("t.id");
  const rows = await query.limit(TAXONOMY_PAGE_SIZE).offset((page - 1) * TAXONOMY_PAGE_SIZE).execute();
  return { rows: rows.map((r) => ({ id: r.id, name: r.name, products: Number(r.products ?? 0) })), total, page, pages };
}

/** Every category or brand, A to Z, for the product form's selects. */
export async function taxonomyOptions(db: Db, kind: TaxonomyKind): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom(`${TABLE[kind]} as t` as "categories as t")
    .select(["t.id", "t.name"])
    .orderBy("t.name")
    .orderBy("t.id")
    .execute();
}

export async function findTaxonomy(db: Db, kind: TaxonomyKind, id: number): Promise<{ id: number; name: string } | undefined> {
  return db
    .selectFrom(`${TABLE[kind]} as t` as "categories as t")
    .select(["t.id", "t.name"])
    .where("t.id", "=", id)
    .executeTakeFirst();
}

async function nameTaken(db: Db, kind: TaxonomyKind, name: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom(`${TABLE[kind]} as t` as "categories as t")
    .select("t.id")
    .where((eb) => eb(eb.fn("lower", ["t.name"]), "=", name.toLowerCase()));
  if (exceptId !== undefined) query = query.where("t.id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

async function freeSlug(db: Db, kind: TaxonomyKind, name: string): Promise<string> {
  const base = slugify(name) || kind;
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const taken = await db
      .selectFrom(TABLE[kind] as "categories")
      .select("id")
      .where("slug", "=", slug)
      .executeTakeFirst();
    if (!taken) return slug;
  }
}

export type TaxonomyWriteResult =
  | { ok: true; id: number }
  | { ok: false; error: "duplicate" | "notFound" | "unchanged" };

export async function createTaxonomy(db: Db, kind: TaxonomyKind, name: string, actorId: number): Promise<TaxonomyWriteResult> {
  const result = await db.transaction().execute(async (trx): Promise<TaxonomyWriteResult> => {
    if (await nameTaken(trx, kind, name)) return { ok: false, error: "duplicate" };
    const row = await trx
      .insertInto(TABLE[kind] as "categories")
      .values({ name, slug: await freeSlug(trx, kind, name), created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, { actorId, action: "create", entity: kind, entityId: row.id, summary: name, changes: { name: [null, name] } });
    return { ok: true, id: row.id };
  });
  if (result.ok) catalogChanged();
  return result;
}

export async function renameTaxonomy(db: Db, kind: TaxonomyKind, id: number, name: string, actorId: number): Promise<TaxonomyWriteResult> {
  const result = await db.transaction().execute(async (trx): Promise<TaxonomyWriteResult> => {
    const current = await findTaxonomy(trx, kind, id);
    if (!current) return { ok: false, error: "notFound" };
    if (current.name === name) return { ok: false, error: "unchanged" };
    if (await nameTaken(trx, kind, name, id)) return { ok: false, error: "duplicate" };
    await trx
      .updateTable(TABLE[kind] as "categories")
      .set({ name })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, { actorId, action: "update", entity: kind, entityId: id, summary: name, changes: { name: [current.name, name] } });
    return { ok: true, id };
  });
  if (result.ok) catalogChanged();
  return result;
}

export type TaxonomyDeleteResult =
  | { ok: true; name: string }
  | { ok: false; error: "notFound" }
  | { ok: false; error: "inUse"; name: string; products: number };

export async function deleteTaxonomy(db: Db, kind: TaxonomyKind, id: number, actorId: number): Promise<TaxonomyDeleteResult> {
  const inUse = async (name: string): Promise<TaxonomyDeleteResult> => {
    const { c } = await db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("c"))
      .where(PRODUCT_COLUMN[kind], "=", id)
      .executeTakeFirstOrThrow();
    return { ok: false, error: "inUse", name, products: Number(c) };
  };
  let result: TaxonomyDeleteResult;
  try {
    result = await db.transaction().execute(async (trx): Promise<TaxonomyDeleteResult> => {
      const current = await findTaxonomy(trx, kind, id);
      if (!current) return { ok: false, error: "notFound" };
      const used = await trx
        .selectFrom("products")
        .select("id")
        .where(PRODUCT_COLUMN[kind], "=", id)
        .limit(1)
        .executeTakeFirst();
      if (used) return { ok: false, error: "inUse", name: current.name, products: 0 };
      await trx
        .deleteFrom(TABLE[kind] as "categories")
        .where("id", "=", id)
        .execute();
      await recordAudit(trx, { actorId, action: "delete", entity: kind, entityId: id, summary: current.name, changes: { name: [current.name, null] } });
      return { ok: true, name: current.name };
    });
  } catch (error) {
    // A product assigned at the same moment: the foreign key refuses the delete.
    const current = await findTaxonomy(db, kind, id);
    if (current) return inUse(current.name);
    throw error;
  }
  if (!result.ok && result.error === "inUse") return inUse(result.name);
  if (result.ok) catalogChanged();
  return result;
}
