import { sql } from "kysely";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/like";
import { slugify } from "~/lib/slug";
import { recordAudit } from "../backoffice/audit.server";
import { catalogChanged } from "./catalog.server";

/**
 * Categories and brands (the spec's "regions"): the two lists products are sorted into. They share
 * their rules: a name of 1 to 60 characters, unique regardless of case; a slug made once, when
 * created, and kept on rename (the home page finds its carousels by category slug); and no deleting
 * one that products on sale still use. Archived products are out of sight, so they do not hold one
 * back: deleting moves them to another category or brand the owner picks (they stay archived, and
 * orders keep their own snapshot of names). Categories also have a Spanish name (docs/decisions/091).
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

/** An optional Spanish name: empty means "use the English one". */
export const spanishNameSchema = z
  .string()
  .trim()
  .max(MAX_TAXONOMY_NAME, "admin.taxonomy.errors.nameTooLong")
  .transform((v) => v || null);

export interface TaxonomyNames {
  name: string;
  /** categories only; null shows the English name on Spanish pages */
  nameEs: string | null;
}

export interface TaxonomyRow extends TaxonomyNames {
  id: number;
  /** products on sale */
  products: number;
  /** archived products still sorted here */
  archived: number;
}

const spanish = (kind: TaxonomyKind) => (kind === "category" ? sql<string | null>`t.name_es` : sql<string | null>`null`);

function countProducts(kind: TaxonomyKind, archived: boolean) {
  return sql<number>`(select count(*) from products p where p.${sql.ref(PRODUCT_COLUMN[kind])} = t.id and p.archived_at is ${archived ? sql`not null` : sql`null`})`;
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
  if (q) {
    base =
      kind === "category"
        ? base.where((eb) => eb.or([containsText(sql.ref<string>("t.name"), q), containsText(sql<string>`coalesce(t.name_es, '')`, q)]))
        : base.where(containsText(sql.ref<string>("t.name"), q));
  }
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / TAXONOMY_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  let query = base.select([
    "t.id",
    "t.name",
    spanish(kind).as("nameEs"),
    countProducts(kind, false).as("products"),
    countProducts(kind, true).as("archived"),
  ]);
  query = kind === "category" ? query.orderBy("t.created_at", "desc").orderBy("t.id", "desc") : query.orderBy("t.name").orderBy("t.id");
  const rows = await query.limit(TAXONOMY_PAGE_SIZE).offset((page - 1) * TAXONOMY_PAGE_SIZE).execute();
  return {
    rows: rows.map((r) => ({ id: r.id, name: r.name, nameEs: r.nameEs ?? null, products: Number(r.products ?? 0), archived: Number(r.archived ?? 0) })),
    total,
    page,
    pages,
  };
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

export async function findTaxonomy(db: Db, kind: TaxonomyKind, id: number): Promise<({ id: number } & TaxonomyNames) | undefined> {
  const row = await db
    .selectFrom(`${TABLE[kind]} as t` as "categories as t")
    .select(["t.id", "t.name", spanish(kind).as("nameEs")])
    .where("t.id", "=", id)
    .executeTakeFirst();
  return row && { id: row.id, name: row.name, nameEs: row.nameEs ?? null };
}

/** Names are unique regardless of case, per language (a Spanish name may repeat its own English one). */
async function nameTaken(db: Db, kind: TaxonomyKind, names: TaxonomyNames, exceptId?: number): Promise<boolean> {
  const lower = (ref: string) => sql<string>`lower(${sql.ref(ref)})`;
  let query = db
    .selectFrom(`${TABLE[kind]} as t` as "categories as t")
    .select("t.id")
    .where((eb) =>
      kind === "category" && names.nameEs
        ? eb.or([eb(lower("t.name"), "=", names.name.toLowerCase()), eb(lower("t.name_es"), "=", names.nameEs.toLowerCase())])
        : eb(lower("t.name"), "=", names.name.toLowerCase()),
    );
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

const namesOf = (kind: TaxonomyKind, names: string | Partial<TaxonomyNames>): TaxonomyNames =>
  typeof names === "string" ? { name: names, nameEs: null } : { name: names.name ?? "", nameEs: kind === "category" ? (names.nameEs ?? null) : null };

export async function createTaxonomy(db: Db, kind: TaxonomyKind, input: string | Partial<TaxonomyNames>, actorId: number): Promise<TaxonomyWriteResult> {
  const names = namesOf(kind, input);
  const { name } = names;
  const result = await db.transaction().execute(async (trx): Promise<TaxonomyWriteResult> => {
    if (await nameTaken(trx, kind, names)) return { ok: false, error: "duplicate" };
    const values = { name, slug: await freeSlug(trx, kind, name), created_at: new Date().toISOString() };
    const row = await trx
      .insertInto(TABLE[kind] as "categories")
      .values(kind === "category" ? { ...values, name_es: names.nameEs } : values)
      .returning("id")
      .executeTakeFirstOrThrow();
    const changes: Record<string, [unknown, unknown]> = { name: [null, name] };
    if (names.nameEs) changes.nameEs = [null, names.nameEs];
    await recordAudit(trx, { actorId, action: "create", entity: kind, entityId: row.id, summary: name, changes });
    return { ok: true, id: row.id };
  });
  if (result.ok) catalogChanged();
  return result;
}

export async function renameTaxonomy(db: Db, kind: TaxonomyKind, id: number, input: string | Partial<TaxonomyNames>, actorId: number): Promise<TaxonomyWriteResult> {
  const names = namesOf(kind, input);
  const { name } = names;
  const result = await db.transaction().execute(async (trx): Promise<TaxonomyWriteResult> => {
    const current = await findTaxonomy(trx, kind, id);
    if (!current) return { ok: false, error: "notFound" };
    // A plain rename (a string) leaves the Spanish name as it was.
    if (typeof input === "string") names.nameEs = current.nameEs;
    if (current.name === name && current.nameEs === names.nameEs) return { ok: false, error: "unchanged" };
    if (await nameTaken(trx, kind, names, id)) return { ok: false, error: "duplicate" };
    await trx
      .updateTable(TABLE[kind] as "categories")
      .set(kind === "category" ? { name, name_es: names.nameEs } : { name })
      .where("id", "=", id)
      .execute();
    const changes: Record<string, [unknown, unknown]> = {};
    if (current.name !== name) changes.name = [current.name, name];
    if (current.nameEs !== names.nameEs) changes.nameEs = [current.nameEs, names.nameEs];
    await recordAudit(trx, { actorId, action: "update", entity: kind, entityId: id, summary: name, changes });
    return { ok: true, id };
  });
  if (result.ok) catalogChanged();
  return result;
}

/** The products still sorted under a category or brand: a count of those on sale, and the archived ones. */
export interface TaxonomyHolders {
  products: number;
  archivedCount: number;
  /** the first few archived products, by name */
  archived: { id: number; name: string }[];
}

export const HOLDERS_SHOWN = 10;

export async function taxonomyHolders(db: Db, kind: TaxonomyKind, id: number): Promise<TaxonomyHolders> {
  const column = PRODUCT_COLUMN[kind];
  const [counts, archived] = await Promise.all([
    db
      .selectFrom("products")
      .select([
        sql<number>`sum(case when archived_at is null then 1 else 0 end)`.as("onSale"),
        sql<number>`sum(case when archived_at is null then 0 else 1 end)`.as("archived"),
      ])
      .where(column, "=", id)
      .executeTakeFirstOrThrow(),
    db.selectFrom("products").select(["id", "name"]).where(column, "=", id).where("archived_at", "is not", null).orderBy("name").orderBy("id").limit(HOLDERS_SHOWN).execute(),
  ]);
  return { products: Number(counts.onSale ?? 0), archivedCount: Number(counts.archived ?? 0), archived };
}

export type TaxonomyDeleteResult =
  | { ok: true; name: string; moved: number; movedTo: string | null }
  | { ok: false; error: "notFound" }
  | { ok: false; error: "inUse"; name: string; products: number }
  /** archived products still hold it and no (valid) category or brand to move them to was given */
  | { ok: false; error: "archived"; name: string; archived: number };

/**
 * Deletes a category or brand that no product on sale uses. Archived products still sorted under it
 * move to `moveTo` first, in the same transaction; without a valid `moveTo` they keep it.
 */
export async function deleteTaxonomy(
  db: Db,
  kind: TaxonomyKind,
  id: number,
  actorId: number,
  options: { moveTo?: number | null } = {},
): Promise<TaxonomyDeleteResult> {
  const column = PRODUCT_COLUMN[kind];
  const inUse = async (name: string): Promise<TaxonomyDeleteResult> => {
    const holders = await taxonomyHolders(db, kind, id);
    if (holders.products === 0 && holders.archivedCount > 0) return { ok: false, error: "archived", name, archived: holders.archivedCount };
    return { ok: false, error: "inUse", name, products: holders.products };
  };
  let result: TaxonomyDeleteResult;
  try {
    result = await db.transaction().execute(async (trx): Promise<TaxonomyDeleteResult> => {
      const current = await findTaxonomy(trx, kind, id);
      if (!current) return { ok: false, error: "notFound" };
      const onSale = await trx.selectFrom("products").select("id").where(column, "=", id).where("archived_at", "is", null).limit(1).executeTakeFirst();
      if (onSale) return { ok: false, error: "inUse", name: current.name, products: 0 };
      const { n } = await trx
        .selectFrom("products")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where(column, "=", id)
        .executeTakeFirstOrThrow();
      const archived = Number(n);
      let target: { id: number; name: string } | undefined;
      if (archived > 0) {
        target = options.moveTo && options.moveTo !== id ? await findTaxonomy(trx, kind, options.moveTo) : undefined;
        if (!target) return { ok: false, error: "archived", name: current.name, archived };
        // Only archived products are left here (checked above); a product put back on sale meanwhile
        // is not moved, and the foreign key then refuses the delete.
        await trx
          .updateTable("products")
          .set({ [column]: target.id })
          .where(column, "=", id)
          .where("archived_at", "is not", null)
          .execute();
      }
      await trx
        .deleteFrom(TABLE[kind] as "categories")
        .where("id", "=", id)
        .execute();
      const changes: Record<string, [unknown, unknown]> = { name: [current.name, null] };
      if (target) changes.archivedProductsMovedTo = [null, `${target.name} (${archived})`];
      await recordAudit(trx, { actorId, action: "delete", entity: kind, entityId: id, summary: current.name, changes });
      return { ok: true, name: current.name, moved: archived, movedTo: target?.name ?? null };
    });
  } catch (error) {
    // A product assigned (or put back on sale) at the same moment: the foreign key refuses the delete.
    const current = await findTaxonomy(db, kind, id);
    if (current) return inUse(current.name);
    throw error;
  }
  if (!result.ok && result.error === "inUse") return inUse(result.name);
  if (result.ok) catalogChanged();
  return result;
}
