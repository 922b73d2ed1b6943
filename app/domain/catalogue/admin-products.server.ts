import { sql } from "kysely";
import { z } from "zod";
import { type Db, isPostgres } from "~/db/client.server";
import { containsText } from "~/db/like";
import { PRODUCT_FIELDS, type ProductErrors, type ProductField } from "~/lib/admin";
import { type Concentration, type Family, isConcentration, isFamily } from "~/lib/perfume-facts";
import { slugify } from "~/lib/slug";
import { type ImageProblem, storeUploadedImage } from "~/platform/uploads.server";
import { type AuditChanges, recordAudit } from "../backoffice/audit.server";
import { findTaxonomy } from "./admin-taxonomy.server";
import { catalogChanged } from "./catalog.server";
import { firstPhoto, removeUnusedImages, replacePhotoAt } from "./product-photos.server";

/**
 * The admin's product list and the rules for creating, editing and removing products. Money arrives in
 * naira as typed in the form and is stored as integer kobo. A product that appears in an order is
 * archived (hidden from the shop, kept for order history), never erased.
 */

export const ADMIN_PRODUCTS_PAGE_SIZE = 7;
export const MAX_PRICE_NAIRA = 100_000_000;
export const MAX_STOCK = 100_000;
export const MAX_PRODUCT_NAME = 120;
export const MAX_DESCRIPTION = 5_000;


export interface ProductInput {
  name: string;
  description: string;
  /** kobo */
  price: number;
  /** kobo off the price, or null for none */
  discount: number | null;
  stock: number;
  categoryId: number;
  brandId: number;
  /** null: not said */
  concentration: Concentration | null;
  family: Family | null;
}

const E = "admin.products.errors.";

// Plain decimal numbers; exponents are read too, so "1e12" is answered as too large rather than as not a number.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

interface NairaKeys {
  invalid: string;
  min: string;
  max: string;
  decimals: string;
}

/** Naira as typed ("₦15,000.50", "15 000") to kobo, or an issue on the field. */
function toKobo(text: string, ctx: z.RefinementCtx, keys: NairaKeys, minimumNaira: number): number {
  const cleaned = text.trim().replace(/^₦/, "").replace(/[,\s]/g, "");
  const naira = DECIMAL.test(cleaned) ? Number(cleaned) : Number.NaN;
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message: E + message });
    return z.NEVER;
  };
  if (!Number.isFinite(naira)) return fail(keys.invalid);
  if (naira < minimumNaira) return fail(keys.min);
  if (naira > MAX_PRICE_NAIRA) return fail(keys.max);
  const kobo = Math.round(naira * 100);
  if (Math.abs(naira * 100 - kobo) > 1e-6) return fail(keys.decimals);
  return kobo;
}

const PRICE_KEYS: NairaKeys = { invalid: "price", min: "priceMin", max: "priceMax", decimals: "priceDecimals" };
const DISCOUNT_KEYS: NairaKeys = { invalid: "discount", min: "discountMin", max: "discountTooHigh", decimals: "discountDecimals" };

const idField = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((n) => n > 0, message);

const fieldSchemas = {
  name: z.string().trim().min(1, E + "name").max(MAX_PRODUCT_NAME, E + "nameTooLong"),
  description: z.string().trim().min(1, E + "description").max(MAX_DESCRIPTION, E + "descriptionTooLong"),
  price: z.string().transform((text, ctx) => toKobo(text, ctx, PRICE_KEYS, 1)),
  // Optional: empty means no discount, and so does zero.
  discount: z.string().transform((text, ctx) => {
    if (text.trim() === "") return null;
    const kobo = toKobo(text, ctx, DISCOUNT_KEYS, 0);
    return kobo === 0 ? null : kobo;
  }),
  stock: z
    .string()
    .trim()
    .regex(/^[+-]?\d{1,12}$/, E + "stock")
    .transform(Number)
    .refine((n) => n >= 0, E + "stock")
    .refine((n) => n <= MAX_STOCK, E + "stockMax"),
  categoryId: idField(E + "category"),
  brandId: idField(E + "brand"),
  // Optional choices from a fixed list: empty is "not said", anything else must be on the list.
  concentration: z
    .string()
    .trim()
    .transform((v) => v || null)
    .refine((v) => v === null || isConcentration(v), E + "concentration")
    .transform((v) => v as Concentration | null),
  family: z
    .string()
    .trim()
    .transform((v) => v || null)
    .refine((v) => v === null || isFamily(v), E + "family")
    .transform((v) => v as Family | null),
} satisfies Record<ProductField, z.ZodType>;

export interface ParsedProductForm<T> {
  input: T;
  errors: ProductErrors;
  /** what was typed, to fill the form again */
  values: Partial<Record<ProductField, string>>;
}

/** What the edit form may change: everything but the stock, which moves only by adjustments (118). */
export type ProductUpdate = Partial<Omit<ProductInput, "stock">>;
const UPDATE_FIELDS = PRODUCT_FIELDS.filter((f) => f !== "stock");

/**
 * Reads the product fields of a form. On create every field is required (a missing one counts as
 * empty) and the stock is the opening count. On update a field that is absent is left as it is (the
 * edit form sends only what changed), and a stock sent anyway is not read: the stock changes only
 * through an adjustment (app/domain/catalogue/stock-adjustments.server.ts), never by overwriting it.
 */
export function parseProductForm(form: FormData, mode: "create"): ParsedProductForm<ProductInput>;
export function parseProductForm(form: FormData, mode: "update"): ParsedProductForm<ProductUpdate>;
export function parseProductForm(form: FormData, mode: "create" | "update"): ParsedProductForm<Partial<ProductInput>> {
  return parseProductFields((field) => {
    const raw = form.get(field);
    return raw === null ? null : typeof raw === "string" ? raw : "";
  }, mode, mode === "create" ? PRODUCT_FIELDS : UPDATE_FIELDS);
}

/**
 * The product form's rules applied to text from anywhere (the form, a row of a catalogue CSV). A field
 * whose value is null is left out on update and counts as empty on create.
 */
export function parseProductFields(
  get: (field: ProductField) => string | null,
  mode: "create" | "update",
  fields: readonly ProductField[] = PRODUCT_FIELDS,
): ParsedProductForm<Partial<ProductInput>> {
  const input: Partial<ProductInput> = {};
  const errors: ProductErrors = {};
  const values: Partial<Record<ProductField, string>> = {};
  for (const field of fields) {
    const raw = get(field);
    if (raw === null && mode === "update") continue;
    const text = raw ?? "";
    values[field] = text.slice(0, MAX_DESCRIPTION + 100);
    const result = fieldSchemas[field].safeParse(text);
    if (result.success) (input as Record<string, unknown>)[field] = result.data;
    else errors[field] = result.error.issues[0]?.message ?? E + field;
  }
  return { input, errors, values };
}

/** The bytes of the form's image field, or null when no file was chosen. */
export async function formImage(form: FormData): Promise<Uint8Array | null> {
  const file = form.get("image");
  if (!(file instanceof File) || file.size === 0) return null;
  return new Uint8Array(await file.arrayBuffer());
}

const IMAGE_ERRORS: Record<ImageProblem, string> = {
  type: E + "imageType",
  size: E + "imageSize",
  pixels: E + "imagePixels",
  unreadable: E + "imageUnreadable",
};

export interface AdminProductRow {
  id: number;
  /** set for a product taken out of the shop */
  archivedAt: string | null;
  name: string;
  description: string;
  price: number;
  discount: number | null;
  stock: number;
  image: string | null;
  categoryId: number;
  categoryName: string;
  brandId: number;
  brandName: string;
  concentration: string | null;
  family: string | null;
  /** how many sizes it comes in (docs/decisions/121) */
  sizeCount: number;
}

function adminProductQuery(db: Db, archived: boolean | "any" = false) {
  const query = db
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .select([
      sql<number>`(select cast(count(*) as integer) from product_sizes s where s.product_id = p.id)`.as("sizeCount"),
      "p.id",
      "p.name",
      "p.description",
      "p.price",
      "p.discount",
      "p.stock",
      "p.image",
      "p.category_id as categoryId",
      "c.name as categoryName",
      "p.brand_id as brandId",
      "b.name as brandName",
      "p.concentration",
      "p.family",
      "p.archived_at as archivedAt",
    ]);
  if (archived === "any") return query;
  return query.where("p.archived_at", archived ? "is not" : "is", null);
}

/** Products in the shop (or the archived ones), newest first, 7 a page, searched by name. */
export async function listAdminProducts(
  db: Db,
  options: { q?: string; page?: number; archived?: boolean } = {},
): Promise<{ products: AdminProductRow[]; total: number; page: number; pages: number; archivedCount: number }> {
  const q = options.q?.trim();
  const archived = options.archived ?? false;
  let count = db.selectFrom("products as p").where("p.archived_at", archived ? "is not" : "is", null);
  if (q) count = count.where(containsText(sql.ref<string>("p.name"), q));
  const { n } = await count.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / ADMIN_PRODUCTS_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  let query = adminProductQuery(db, archived);
  if (q) query = query.where(containsText(sql.ref<string>("p.name"), q));
  const products = await query
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(ADMIN_PRODUCTS_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PRODUCTS_PAGE_SIZE)
    .execute();
  const archivedCount = archived
    ? total
    : Number((await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).where("archived_at", "is not", null).executeTakeFirstOrThrow()).n);
  return { products, total, page, pages, archivedCount };
}

/** A product in the shop; with includeArchived, an archived one too (it can be edited and brought back). */
export async function getAdminProduct(db: Db, id: number, options: { includeArchived?: boolean } = {}): Promise<AdminProductRow | undefined> {
  return adminProductQuery(db, options.includeArchived ? "any" : false).where("p.id", "=", id).executeTakeFirst();
}

export type RestoreProductResult = { ok: true; name: string } | { ok: false; error: "notFound" };

/** Brings an archived product back into the shop, as it was. */
export async function restoreProduct(db: Db, id: number, actorId: number): Promise<RestoreProductResult> {
  const result = await db.transaction().execute(async (trx): Promise<RestoreProductResult> => {
    const product = await trx.selectFrom("products").select(["id", "name"]).where("id", "=", id).where("archived_at", "is not", null).executeTakeFirst();
    if (!product) return { ok: false, error: "notFound" };
    const at = new Date().toISOString();
    const updated = await trx.updateTable("products").set({ archived_at: null, updated_at: at }).where("id", "=", id).where("archived_at", "is not", null).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { ok: false, error: "notFound" };
    await recordAudit(trx, { actorId, action: "restore", entity: "product", entityId: id, summary: product.name });
    return { ok: true, name: product.name };
  });
  if (result.ok) catalogChanged();
  return result;
}

async function freeProductSlug(db: Db, name: string): Promise<string> {
  const base = slugify(name) || "perfume";
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await db.selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirst())) return slug;
  }
}

async function checkReferences(db: Db, input: Partial<ProductInput>, errors: ProductErrors) {
  const [category, brand] = await Promise.all([
    input.categoryId === undefined ? undefined : findTaxonomy(db, "category", input.categoryId),
    input.brandId === undefined ? undefined : findTaxonomy(db, "brand", input.brandId),
  ]);
  if (input.categoryId !== undefined && !category) errors.categoryId = E + "category";
  if (input.brandId !== undefined && !brand) errors.brandId = E + "brand";
  return { category, brand };
}

export interface ProductWriteContext {
  db: Db;
  /** where image variants are written */
  imagesDir: string;
}

export type CreateProductResult = { ok: true; id: number; name: string } | { ok: false; errors: ProductErrors };

/**
 * Creates a product from a parsed form. The image is checked and rendered before anything is written,
 * so a refused image leaves no half-created product.
 */
export async function createProduct(
  ctx: ProductWriteContext,
  parsed: ParsedProductForm<ProductInput>,
  image: Uint8Array | null,
  actorId: number,
): Promise<CreateProductResult> {
  const errors: ProductErrors = { ...parsed.errors };
  const input = parsed.input;
  if (!image) errors.image = E + "image";
  if (!errors.price && !errors.discount && input.discount !== null && input.discount >= input.price) {
    errors.discount = E + "discountTooHigh";
  }
  await checkReferences(ctx.db, input, errors);
  if (Object.keys(errors).length || !image) return { ok: false, errors };

  const stored = await storeUploadedImage(image, ctx.imagesDir);
  if (stored.problem) return { ok: false, errors: { image: IMAGE_ERRORS[stored.problem] } };

  const id = await ctx.db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const row = await trx
      .insertInto("products")
      .values({
        slug: await freeProductSlug(trx, input.name),
        name: input.name,
        description: input.description,
        price: input.price,
        discount: input.discount,
        // Becomes the product's first size, "Standard", by trigger (migration 0080).
        stock: input.stock,
        image: stored.key,
        category_id: input.categoryId,
        brand_id: input.brandId,
        concentration: input.concentration,
        family: input.family,
        archived_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await firstPhoto(trx, row.id, stored.key, at);
    await recordAudit(trx, {
      actorId,
      action: "create",
      entity: "product",
      entityId: row.id,
      summary: input.name,
      changes: { price: [null, input.price], discount: [null, input.discount], stock: [null, input.stock] },
    });
    return row.id;
  });
  catalogChanged();
  return { ok: true, id, name: input.name };
}

export type UpdateProductResult =
  | { ok: true; name: string; changed: string[] }
  | { ok: false; errors: ProductErrors }
  | { ok: false; notFound: true };

const shorten = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/**
 * Updates only the fields given (and that differ from what is stored), never the stock. An empty discount clears it.
 * The discount is checked against the price the product will have after the change.
 */
export async function updateProduct(
  ctx: ProductWriteContext,
  id: number,
  parsed: ParsedProductForm<ProductUpdate>,
  image: Uint8Array | null,
  actorId: number,
): Promise<UpdateProductResult> {
  // Archived products can be edited too (they stay archived).
  const current = await getAdminProduct(ctx.db, id, { includeArchived: true });
  if (!current) return { ok: false, notFound: true };
  const errors: ProductErrors = { ...parsed.errors };
  const input = parsed.input;
  const { category, brand } = await checkReferences(ctx.db, input, errors);
  const price = input.price ?? current.price;
  const discount = input.discount !== undefined ? input.discount : current.discount;
  if (!errors.price && !errors.discount && discount !== null && discount >= price) {
    // Blame the field that was changed; when both were, the discount.
    if (input.discount === undefined && input.price !== undefined) errors.price = E + "priceBelowDiscount";
    else errors.discount = E + "discountTooHigh";
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  let imageKey = current.image;
  if (image) {
    const stored = await storeUploadedImage(image, ctx.imagesDir);
    if (stored.problem) return { ok: false, errors: { image: IMAGE_ERRORS[stored.problem] } };
    imageKey = stored.key;
  }

  const set: Partial<{
    name: string;
    description: string;
    price: number;
    discount: number | null;
    category_id: number;
    brand_id: number;
    concentration: string | null;
    family: string | null;
    image: string | null;
  }> = {};
  const changes: AuditChanges = {};
  if (input.name !== undefined && input.name !== current.name) {
    set.name = input.name;
    changes.name = [current.name, input.name];
  }
  if (input.description !== undefined && input.description !== current.description) {
    set.description = input.description;
    changes.description = [shorten(current.description), shorten(input.description)];
  }
  if (input.price !== undefined && input.price !== current.price) {
    set.price = input.price;
    changes.price = [current.price, input.price];
  }
  if (input.discount !== undefined && input.discount !== current.discount) {
    set.discount = input.discount;
    changes.discount = [current.discount, input.discount];
  }
  if (input.categoryId !== undefined && input.categoryId !== current.categoryId) {
    set.category_id = input.categoryId;
    changes.category = [current.categoryName, category!.name];
  }
  if (input.brandId !== undefined && input.brandId !== current.brandId) {
    set.brand_id = input.brandId;
    changes.brand = [current.brandName, brand!.name];
  }
  for (const fact of ["concentration", "family"] as const) {
    if (input[fact] !== undefined && input[fact] !== current[fact]) {
      set[fact] = input[fact];
      changes[fact] = [current[fact], input[fact]];
    }
  }
  if (imageKey !== current.image) {
    set.image = imageKey;
    changes.image = [current.image, imageKey];
  }
  const changed = Object.keys(changes);
  if (!changed.length) return { ok: true, name: current.name, changed };
  if ((set.price !== undefined || set.discount !== undefined) && current.sizeCount > 1) {
    return { ok: false, errors: { [set.price !== undefined ? "price" : "discount"]: E + "pricePerSize" } };
  }

  const name = set.name ?? current.name;
  // Price and discount belong to the sizes (docs/decisions/121): the form's price is the only size's.
  const sizePrice: { price?: number; discount?: number | null } = {};
  if (set.price !== undefined) sizePrice.price = set.price;
  if (set.discount !== undefined) sizePrice.discount = set.discount;
  delete set.price;
  delete set.discount;
  const updated = await ctx.db
    .transaction()
    .execute(async (trx) => {
      // The product's row first, then its size: the lock order of every writer of sizes.
      const result = await trx
        .updateTable("products")
        .set({ ...set, updated_at: new Date().toISOString() })
        .where("id", "=", id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      // The form's image is the first photo of the gallery (docs/decisions/124).
      if (set.image) await replacePhotoAt(trx, id, 1, set.image);
      if (Object.keys(sizePrice).length) {
        const sizes = await trx.selectFrom("product_sizes").select("id").where("product_id", "=", id).execute();
        if (sizes.length !== 1) throw new SeveralSizes();
        await trx.updateTable("product_sizes").set({ ...sizePrice, updated_at: new Date().toISOString() }).where("id", "=", sizes[0].id).execute();
      }
      await recordAudit(trx, { actorId, action: "update", entity: "product", entityId: id, summary: name, changes });
      return true;
    })
    // The product came to have several sizes since the form was shown: rolled back, and said so.
    .catch((error: unknown) => {
      if (error instanceof SeveralSizes) return "severalSizes" as const;
      throw error;
    });
  if (updated === "severalSizes") return { ok: false, errors: { price: E + "pricePerSize" } };
  if (!updated) return { ok: false, notFound: true };
  catalogChanged();
  // The picture it replaced goes when no product uses it any more.
  if (current.image && imageKey !== current.image) await removeUnusedImages(ctx, [current.image]);
  return { ok: true, name, changed };
}

/** A product's sizes changed while its one-size form was being saved. */
class SeveralSizes extends Error {}

/** The label of the one size of a product that has not been given sizes (what migration 0080 gave every product). */
export const DEFAULT_SIZE_LABEL = "Standard";

export type DeleteProductResult =
  | { ok: true; outcome: "deleted"; name: string }
  | { ok: true; outcome: "archived"; reason: "orders" | "carts"; name: string }
  | { ok: false; error: "notFound" };

/**
 * Erases a product, or archives it when it appears in an order (its history must stay readable) or
 * sits in a shopper's cart (the cart then shows it as no longer available instead of losing the line).
 */
export async function deleteProduct(db: Db, id: number, actorId: number): Promise<DeleteProductResult> {
  const result = await db.transaction().execute(async (trx): Promise<DeleteProductResult> => {
    let find = trx.selectFrom("products").select(["id", "name"]).where("id", "=", id).where("archived_at", "is", null);
    // On PostgreSQL, lock the row so an order being placed for it at this moment waits for us.
    if (isPostgres(trx)) find = find.forUpdate();
    const product = await find.executeTakeFirst();
    if (!product) return { ok: false, error: "notFound" };
    const [ordered, inCart] = await Promise.all([
      trx.selectFrom("order_items").select("id").where("product_id", "=", id).limit(1).executeTakeFirst(),
      trx.selectFrom("cart_lines").select("cart_id").where("product_id", "=", id).limit(1).executeTakeFirst(),
    ]);
    if (ordered || inCart) {
      const at = new Date().toISOString();
      await trx.updateTable("products").set({ archived_at: at, updated_at: at }).where("id", "=", id).execute();
      await recordAudit(trx, { actorId, action: "archive", entity: "product", entityId: id, summary: product.name });
      return { ok: true, outcome: "archived", reason: ordered ? "orders" : "carts", name: product.name };
    }
    await trx.deleteFrom("products").where("id", "=", id).execute();
    await recordAudit(trx, { actorId, action: "delete", entity: "product", entityId: id, summary: product.name });
    return { ok: true, outcome: "deleted", name: product.name };
  });
  if (result.ok) catalogChanged();
  return result;
}
