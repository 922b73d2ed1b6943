import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { type Db, isPostgres } from "~/db/client.server";
import type { Product } from "~/db/schema";
import { CATALOGUE_COLUMNS, type CatalogueColumn, MAX_IMPORT_BYTES, type ProductErrors, type ProductField } from "~/lib/admin";
import { slugify } from "~/lib/slug";
import { MAX_TAXONOMY_NAME } from "./admin-taxonomy.server";
import { type ProductInput, parseProductFields } from "./admin-products.server";
import { catalogChanged } from "./catalog.server";

/**
 * The whole catalogue as a CSV file, and a CSV file back into the catalogue. Export writes every
 * product (archived ones too, marked so) with a UTF-8 byte-order mark so Excel reads ₦ and accented
 * names, and with spreadsheet formulas neutralised. Import creates or updates products by slug: the
 * file is checked row by row with the product form's own rules and shown to the owner first; only
 * their confirmation writes it, all rows in one transaction, or none.
 */

export { CATALOGUE_COLUMNS, type CatalogueColumn, MAX_IMPORT_BYTES };
export const MAX_IMPORT_ROWS = 20_000;
/** how long a checked file waits for the owner's confirmation */
export const IMPORT_TTL_MS = 24 * 60 * 60 * 1000;
/** problems listed on the preview; the rest are counted */
export const SHOWN_PROBLEMS = 200;
/** rows listed on the preview with what will happen to them */
export const SHOWN_CHANGES = 100;
const MAX_SLUG = 80;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const BATCH = 400;

const E = "admin.catalogueImport.errors.";
const PRODUCT_E = "admin.products.errors.";

// A cell that starts like a formula (=, +, -, @, tab, carriage return) would run in Excel or Sheets.
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text a spreadsheet shows as text: a leading apostrophe keeps a formula from running. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Undoes neutraliseFormula, so a file exported and imported again changes nothing. */
function restoreFormula(value: string): string {
  return value.length > 1 && value[0] === "'" && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** Kobo as naira with two decimals and no grouping ("15000.50"), which every spreadsheet reads as a number. */
export function nairaCell(kobo: number): string {
  return `${Math.floor(kobo / 100)}.${String(kobo % 100).padStart(2, "0")}`;
}

/** Rows to CSV text as Excel expects it: BOM, CRLF line ends, fields with line breaks quoted. */
export function toCsv(rows: string[][]): string {
  return "\uFEFF" + stringify(rows, { record_delimiter: "windows", quoted_match: /[\r\n]/ });
}

export async function exportCatalogueCsv(db: Db): Promise<string> {
  const products = await db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select(["p.name", "p.slug", "b.name as brand", "c.name as category", "p.price", "p.discount", "p.stock", "p.description", "p.archived_at"])
    .orderBy("p.id")
    .execute();
  const rows = products.map((p) => [
    neutraliseFormula(p.name),
    p.slug,
    neutraliseFormula(p.brand),
    neutraliseFormula(p.category),
    nairaCell(p.price),
    p.discount === null ? "" : nairaCell(p.discount),
    String(p.stock),
    neutraliseFormula(p.description),
    p.archived_at ? "archived" : "active",
  ]);
  return toCsv([[...CATALOGUE_COLUMNS], ...rows]);
}

// ---------------------------------------------------------------------------------------------------
// Import

export interface FileProblem {
  key: string;
  values?: Record<string, string | number>;
}

export interface RowProblem {
  /** the row as a spreadsheet numbers it: the header is row 1 */
  row: number;
  column: CatalogueColumn | null;
  key: string;
  values?: Record<string, string | number>;
}

export type ImportAction = "create" | "update" | "unchanged";

export interface PlannedChange {
  row: number;
  name: string;
  slug: string | null;
  action: ImportAction;
  /** the columns that will change, for updates */
  fields: string[];
}

export interface ImportPlan {
  rows: number;
  create: number;
  update: number;
  unchanged: number;
  newBrands: string[];
  newCategories: string[];
  problemCount: number;
  problems: RowProblem[];
  changes: PlannedChange[];
}

type Status = "active" | "archived";

/** A product's columns that a file's row can change, read before and written after. */
const FILE_COLUMNS = ["id", "name", "description", "price", "discount", "stock", "brand_id", "category_id", "archived_at"] as const;
type FileFields = Pick<Product, (typeof FILE_COLUMNS)[number]>;

interface ExistingProduct extends FileFields {
  slug: string;
  /** how many sizes it comes in: the file's price, discount and stock are those of a one-size product */
  size_count: number;
}

interface WorkRow {
  row: number;
  slug: string | null;
  input: Omit<ProductInput, "brandId" | "categoryId">;
  brand: string;
  category: string;
  status: Status;
  existing: ExistingProduct | null;
}

/** The uploaded bytes as text, or why they are not a UTF-8 CSV file. */
export function decodeCsvFile(bytes: Uint8Array): { text: string } | { problem: FileProblem } {
  if (bytes.byteLength === 0) return { problem: { key: E + "empty" } };
  if (bytes.byteLength > MAX_IMPORT_BYTES) return { problem: { key: E + "tooLarge", values: { mb: MAX_IMPORT_BYTES / 1024 / 1024 } } };
  // An .xlsx or .ods workbook is a zip file.
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return { problem: { key: E + "workbook" } };
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  let text: string;
  try {
    if (utf16) throw new Error("UTF-16");
    // Removes a UTF-8 byte-order mark; anything that is not UTF-8 (Windows-1252, Latin-1, UTF-16) fails.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { problem: { key: E + "encoding" } };
  }
  if (text.includes("\u0000")) return { problem: { key: E + "encoding" } };
  return { text };
}

type Parsed = { header: Map<CatalogueColumn, number>; records: string[][] } | { problem: FileProblem };

export function parseCatalogueCsv(text: string): Parsed {
  let records: string[][];
  try {
    // Reading stops just past the row limit, so an enormous file is refused without parsing it all.
    records = parse(text, { bom: true, relax_column_count: true, to: MAX_IMPORT_ROWS + 2 }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      return { problem: { key: E + "syntax", values: { line: line ?? "?" } } };
    }
    throw error;
  }
  const nonEmpty = records.filter((r) => r.some((cell) => cell.trim() !== ""));
  if (nonEmpty.length === 0) return { problem: { key: E + "empty" } };
  const names = records[0].map((cell) => cell.trim().toLowerCase());
  const header = new Map<CatalogueColumn, number>();
  const unknown: string[] = [];
  const duplicated: string[] = [];
  names.forEach((name, index) => {
    if (name === "") return;
    if (!(CATALOGUE_COLUMNS as readonly string[]).includes(name)) unknown.push(records[0][index].trim());
    else if (header.has(name as CatalogueColumn)) duplicated.push(name);
    else header.set(name as CatalogueColumn, index);
  });
  const expected = CATALOGUE_COLUMNS.join(", ");
  const missing = CATALOGUE_COLUMNS.filter((c) => !header.has(c));
  if (missing.length === CATALOGUE_COLUMNS.length) return { problem: { key: E + "noHeader", values: { expected } } };
  if (unknown.length) return { problem: { key: E + "headerUnknown", values: { columns: unknown.map((c) => c.slice(0, 40)).join(", "), expected } } };
  if (duplicated.length) return { problem: { key: E + "headerDuplicate", values: { columns: duplicated.join(", ") } } };
  if (missing.length) return { problem: { key: E + "headerMissing", values: { columns: missing.join(", "), expected } } };
  if (records.length - 1 > MAX_IMPORT_ROWS) return { problem: { key: E + "tooManyRows", values: { max: MAX_IMPORT_ROWS } } };
  if (records.length === 1) return { problem: { key: E + "noRows" } };
  return { header, records };
}

const FIELD_COLUMN: Partial<Record<ProductField, CatalogueColumn>> = {
  name: "name",
  description: "description",
  price: "price",
  discount: "discount",
  stock: "stock",
};
const CSV_FIELDS = ["name", "price", "discount", "stock", "description"] as const satisfies readonly ProductField[];

async function existingBySlug(db: Db, slugs: string[]): Promise<Map<string, ExistingProduct>> {
  const found = new Map<string, ExistingProduct>();
  for (let i = 0; i < slugs.length; i += BATCH) {
    const chunk = slugs.slice(i, i + BATCH);
    let query = db
      .selectFrom("products")
      .select([...FILE_COLUMNS, "slug"])
      .select(sql<number>`(select cast(count(*) as integer) from product_sizes s where s.product_id = products.id)`.as("size_count"))
      .where("slug", "in", chunk);
    // Inside the import's transaction on PostgreSQL, the rows are held until it commits.
    if (isPostgres(db) && db.isTransaction) query = query.forUpdate();
    for (const row of await query.execute()) found.set(row.slug, row);
  }
  return found;
}

async function taxonomyByName(db: Db, table: "brands" | "categories"): Promise<Map<string, { id: number; name: string }>> {
  const rows = await db.selectFrom(table).select(["id", "name"]).orderBy("id").execute();
  const map = new Map<string, { id: number; name: string }>();
  for (const row of rows) if (!map.has(row.name.trim().toLowerCase())) map.set(row.name.trim().toLowerCase(), row);
  return map;
}

interface Analysis {
  plan: ImportPlan;
  work: WorkRow[];
  brands: Map<string, { id: number; name: string }>;
  categories: Map<string, { id: number; name: string }>;
}

const fold = (name: string) => name.trim().toLowerCase();

function changedFields(row: WorkRow, brandId: number | undefined, categoryId: number | undefined): string[] {
  const e = row.existing;
  if (!e) return [];
  const fields: string[] = [];
  if (row.input.name !== e.name) fields.push("name");
  if (row.input.description !== e.description) fields.push("description");
  if (row.input.price !== e.price) fields.push("price");
  if (row.input.discount !== e.discount) fields.push("discount");
  if (row.input.stock !== e.stock) fields.push("stock");
  if (brandId !== e.brand_id) fields.push("brand");
  if (categoryId !== e.category_id) fields.push("category");
  if ((row.status === "archived") !== (e.archived_at !== null)) fields.push("status");
  return fields;
}

/** Checks every row of the file against the catalogue as it is now, writing nothing. */
export async function analyseImport(db: Db, text: string, options: { createMissing: boolean }): Promise<{ problem: FileProblem } | Analysis> {
  const parsed = parseCatalogueCsv(text);
  if ("problem" in parsed) return parsed;
  const { header, records } = parsed;
  const problems: RowProblem[] = [];
  const rows: WorkRow[] = [];
  const seenSlugs = new Map<string, number>();
  const width = records[0].length;
  let dataRows = 0;

  for (let index = 1; index < records.length; index++) {
    const record = records[index];
    const rowNumber = index + 1;
    if (record.every((cell) => cell.trim() === "")) continue;
    dataRows++;
    if (record.length > width && record.slice(width).some((cell) => cell.trim() !== "")) {
      problems.push({ row: rowNumber, column: null, key: E + "extraCells", values: { count: record.length, expected: width } });
      continue;
    }
    const cell = (column: CatalogueColumn) => restoreFormula(record[header.get(column)!] ?? "");
    const parsedFields = parseProductFields((field) => cell(FIELD_COLUMN[field]!), "create", CSV_FIELDS);
    const errors: ProductErrors = parsedFields.errors;
    for (const [field, key] of Object.entries(errors)) problems.push({ row: rowNumber, column: FIELD_COLUMN[field as ProductField]!, key });
    const input = parsedFields.input as Omit<ProductInput, "brandId" | "categoryId">;
    if (!errors.price && !errors.discount && input.discount !== null && input.discount >= input.price) {
      problems.push({ row: rowNumber, column: "discount", key: PRODUCT_E + "discountTooHigh" });
    }

    const slugText = cell("slug").trim();
    let slug: string | null = null;
    if (slugText !== "") {
      if (slugText.length > MAX_SLUG || !SLUG.test(slugText)) {
        problems.push({ row: rowNumber, column: "slug", key: E + "slug", values: { max: MAX_SLUG } });
      } else if (seenSlugs.has(slugText)) {
        problems.push({ row: rowNumber, column: "slug", key: E + "slugDuplicate", values: { slug: slugText, first: seenSlugs.get(slugText)! } });
      } else {
        slug = slugText;
        seenSlugs.set(slugText, rowNumber);
      }
    }

    const brand = cell("brand").trim();
    const category = cell("category").trim();
    if (!brand) problems.push({ row: rowNumber, column: "brand", key: PRODUCT_E + "brand" });
    else if (brand.length > MAX_TAXONOMY_NAME) problems.push({ row: rowNumber, column: "brand", key: E + "taxonomyTooLong", values: { max: MAX_TAXONOMY_NAME } });
    if (!category) problems.push({ row: rowNumber, column: "category", key: PRODUCT_E + "category" });
    else if (category.length > MAX_TAXONOMY_NAME) problems.push({ row: rowNumber, column: "category", key: E + "taxonomyTooLong", values: { max: MAX_TAXONOMY_NAME } });

    const statusText = cell("status").trim().toLowerCase();
    const status: Status | null = statusText === "" || statusText === "active" ? "active" : statusText === "archived" ? "archived" : null;
    if (!status) problems.push({ row: rowNumber, column: "status", key: E + "status" });

    rows.push({ row: rowNumber, slug, input, brand, category, status: status ?? "active", existing: null });
  }

  const [existing, brands, categories] = await Promise.all([
    existingBySlug(db, [...seenSlugs.keys()]),
    taxonomyByName(db, "brands"),
    taxonomyByName(db, "categories"),
  ]);
  const newBrands = new Map<string, string>();
  const newCategories = new Map<string, string>();
  for (const row of rows) {
    row.existing = row.slug ? (existing.get(row.slug) ?? null) : null;
    const e = row.existing;
    if (e && Number(e.size_count) > 1) {
      // A product in several sizes (docs/decisions/121): its prices and stock are per size, not one figure.
      for (const field of ["price", "discount", "stock"] as const) {
        if (row.input[field] !== undefined && row.input[field] !== e[field]) {
          problems.push({ row: row.row, column: field, key: E + "severalSizes", values: { name: e.name } });
        }
      }
    }
    if (row.brand && row.brand.length <= MAX_TAXONOMY_NAME && !brands.has(fold(row.brand))) {
      if (options.createMissing) {
        if (!newBrands.has(fold(row.brand))) newBrands.set(fold(row.brand), row.brand);
      } else problems.push({ row: row.row, column: "brand", key: E + "brandUnknown", values: { name: row.brand } });
    }
    if (row.category && row.category.length <= MAX_TAXONOMY_NAME && !categories.has(fold(row.category))) {
      if (options.createMissing) {
        if (!newCategories.has(fold(row.category))) newCategories.set(fold(row.category), row.category);
      } else problems.push({ row: row.row, column: "category", key: E + "categoryUnknown", values: { name: row.category } });
    }
  }

  problems.sort((a, b) => a.row - b.row || CATALOGUE_COLUMNS.indexOf(a.column ?? "name") - CATALOGUE_COLUMNS.indexOf(b.column ?? "name"));
  const counts = { create: 0, update: 0, unchanged: 0 };
  const changes: PlannedChange[] = [];
  for (const row of rows) {
    const fields = changedFields(row, brands.get(fold(row.brand))?.id, categories.get(fold(row.category))?.id);
    const action: ImportAction = !row.existing ? "create" : fields.length ? "update" : "unchanged";
    counts[action]++;
    if (changes.length < SHOWN_CHANGES && action !== "unchanged") {
      changes.push({ row: row.row, name: row.input.name ?? "", slug: row.slug, action, fields });
    }
  }
  return {
    plan: {
      rows: dataRows,
      ...counts,
      newBrands: [...newBrands.values()],
      newCategories: [...newCategories.values()],
      problemCount: problems.length,
      problems: problems.slice(0, SHOWN_PROBLEMS),
      changes,
    },
    work: rows,
    brands,
    categories,
  };
}

/** id is set when the file has no problems and waits for the owner's confirmation */
export type PreviewResult = { ok: true; id: string | null; fileName: string; plan: ImportPlan } | { ok: false; problem: FileProblem };

/**
 * Checks an uploaded file and keeps it for the owner's confirmation (even with problems, the plan is
 * shown; only a file without problems can be confirmed).
 */
export async function previewImport(
  db: Db,
  upload: { bytes: Uint8Array; fileName: string },
  options: { createMissing: boolean; userId: number },
): Promise<PreviewResult> {
  const decoded = decodeCsvFile(upload.bytes);
  if ("problem" in decoded) return { ok: false, problem: decoded.problem };
  const analysis = await analyseImport(db, decoded.text, options);
  if ("problem" in analysis) return { ok: false, problem: analysis.problem };
  const id = analysis.plan.problemCount === 0 ? randomBytes(18).toString("base64url") : null;
  const now = new Date();
  const fileName = [...upload.fileName].filter((c) => c >= " " && c !== "\u007f").join("").slice(0, 120) || "catalogue.csv";
  await db.deleteFrom("catalogue_imports").where("created_at", "<", new Date(now.getTime() - IMPORT_TTL_MS).toISOString()).execute();
  if (id) {
    await db
      .insertInto("catalogue_imports")
      .values({ id, user_id: options.userId, file_name: fileName, content: decoded.text, create_missing: options.createMissing ? 1 : 0, created_at: now.toISOString() })
      .execute();
  }
  return { ok: true, id, fileName, plan: analysis.plan };
}

export type ApplyResult =
  | { ok: true; created: number; updated: number; unchanged: number; fileName: string }
  | { ok: false; gone: true }
  | { ok: false; problem: FileProblem }
  | { ok: false; plan: ImportPlan; id: string; fileName: string };

/** Frees slugs: "oud-wood", then "oud-wood-2", ... against those already taken. */
function slugAllocator(taken: Set<string>, fallback: string) {
  return (name: string) => {
    const base = slugify(name) || fallback;
    for (let n = 1; ; n++) {
      const slug = n === 1 ? base : `${base}-${n}`;
      if (!taken.has(slug)) {
        taken.add(slug);
        return slug;
      }
    }
  };
}

async function createTaxonomy(db: Db, table: "brands" | "categories", names: string[], at: string, actorId: number) {
  if (!names.length) return [] as { id: number; name: string }[];
  const taken = new Set((await db.selectFrom(table).select("slug").execute()).map((r) => r.slug));
  const slugFor = slugAllocator(taken, table === "brands" ? "brand" : "category");
  const created: { id: number; name: string }[] = [];
  for (let i = 0; i < names.length; i += BATCH) {
    const rows = names.slice(i, i + BATCH).map((name) => ({ name, slug: slugFor(name), created_at: at }));
    created.push(...(await db.insertInto(table).values(rows).returning(["id", "name"]).execute()));
  }
  await insertAudit(
    db,
    created.map((c) => ({ actor_user_id: actorId, action: "create", entity: table === "brands" ? "brand" : "category", entity_id: c.id, summary: c.name, changes: null, created_at: at })),
  );
  return created;
}

type AuditRow = { actor_user_id: number; action: "create" | "update"; entity: "product" | "brand" | "category"; entity_id: number; summary: string; changes: string | null; created_at: string };

async function insertAudit(db: Db, rows: AuditRow[]) {
  for (let i = 0; i < rows.length; i += BATCH) await db.insertInto("audit_log").values(rows.slice(i, i + BATCH)).execute();
}

interface ProductUpdate extends FileFields {
  /** one-size products take the file's price, discount and stock on their size */
  oneSize: boolean;
}

/**
 * Writes the changed products. On PostgreSQL 400 rows go in one statement (UPDATE ... FROM VALUES), so
 * 10,000 changes are 25 round trips to the server; SQLite runs in-process, where one statement per
 * row costs next to nothing.
 */
async function updateProducts(db: Db, rows: ProductUpdate[], at: string): Promise<void> {
  // Price, discount and stock belong to the size (docs/decisions/121); the product's figures follow by
  // trigger. Products first, then their sizes: the lock order of every writer of sizes (on PostgreSQL
  // the rows are already held since the file was checked again in this transaction).
  const sized = rows.filter((r) => r.oneSize);
  if (!isPostgres(db)) {
    for (const { id, name, description, brand_id, category_id, archived_at } of rows) {
      await db.updateTable("products").set({ name, description, brand_id, category_id, archived_at, updated_at: at }).where("id", "=", id).execute();
    }
    for (const r of sized) {
      await db.updateTable("product_sizes").set({ price: r.price, discount: r.discount, stock: r.stock, updated_at: at }).where("product_id", "=", r.id).execute();
    }
    return;
  }
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = sql.join(
      rows
        .slice(i, i + BATCH)
        .map(
          (r) =>
            sql`(${r.id}::integer, ${r.name}::text, ${r.description}::text, ${r.brand_id}::integer, ${r.category_id}::integer, ${r.archived_at}::text)`,
        ),
    );
    await sql`
      update products as p set
        name = v.name, description = v.description,
        brand_id = v.brand_id, category_id = v.category_id, archived_at = v.archived_at, updated_at = ${at}
      from (values ${values}) as v(id, name, description, brand_id, category_id, archived_at)
      where p.id = v.id`.execute(db);
  }
  for (let i = 0; i < sized.length; i += BATCH) {
    const values = sql.join(sized.slice(i, i + BATCH).map((r) => sql`(${r.id}::integer, ${r.price}::bigint, ${r.discount}::bigint, ${r.stock}::integer)`));
    await sql`
      update product_sizes as s set price = v.price, discount = v.discount, stock = v.stock, updated_at = ${at}
      from (values ${values}) as v(id, price, discount, stock)
      where s.product_id = v.id`.execute(db);
  }
}

const shorten = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/**
 * Applies a checked file: the rows are checked again against the catalogue as it is now, and then
 * every one is written in one transaction, or none (a problem found now is shown like in the preview).
 */
export async function applyImport(db: Db, id: string, actorId: number): Promise<ApplyResult> {
  const result = await db.transaction().execute(async (trx): Promise<ApplyResult> => {
    let find = trx
      .selectFrom("catalogue_imports")
      .selectAll()
      .where("id", "=", id)
      .where("user_id", "=", actorId)
      .where("created_at", ">=", new Date(Date.now() - IMPORT_TTL_MS).toISOString());
    // A second confirmation of the same file waits here, then finds it gone.
    if (isPostgres(trx)) find = find.forUpdate();
    const pending = await find.executeTakeFirst();
    if (!pending) return { ok: false, gone: true };
    const analysis = await analyseImport(trx, pending.content, { createMissing: pending.create_missing === 1 });
    if ("problem" in analysis) return { ok: false, problem: analysis.problem };
    if (analysis.plan.problemCount > 0) return { ok: false, plan: analysis.plan, id, fileName: pending.file_name };

    const at = new Date().toISOString();
    const { brands, categories, work } = analysis;
    for (const b of await createTaxonomy(trx, "brands", analysis.plan.newBrands, at, actorId)) brands.set(fold(b.name), b);
    for (const c of await createTaxonomy(trx, "categories", analysis.plan.newCategories, at, actorId)) categories.set(fold(c.name), c);

    const audit: AuditRow[] = [];
    let unchanged = 0;
    const updates: ProductUpdate[] = [];
    const creates = work.filter((row) => !row.existing);
    for (const row of work) {
      const e = row.existing;
      if (!e) continue;
      const brand = brands.get(fold(row.brand))!;
      const category = categories.get(fold(row.category))!;
      const fields = changedFields(row, brand.id, category.id);
      if (!fields.length) {
        unchanged++;
        continue;
      }
      updates.push({
        id: e.id,
        oneSize: Number(e.size_count) === 1,
        name: row.input.name,
        description: row.input.description,
        price: row.input.price,
        discount: row.input.discount,
        stock: row.input.stock,
        brand_id: brand.id,
        category_id: category.id,
        archived_at: row.status === "archived" ? (e.archived_at ?? at) : null,
      });
      const changes: Record<string, [unknown, unknown]> = {};
      if (fields.includes("name")) changes.name = [e.name, row.input.name];
      if (fields.includes("description")) changes.description = [shorten(e.description), shorten(row.input.description)];
      if (fields.includes("price")) changes.price = [e.price, row.input.price];
      if (fields.includes("discount")) changes.discount = [e.discount, row.input.discount];
      if (fields.includes("stock")) changes.stock = [e.stock, row.input.stock];
      if (fields.includes("brand")) changes.brand = [e.brand_id, brand.name];
      if (fields.includes("category")) changes.category = [e.category_id, category.name];
      if (fields.includes("status")) changes.status = [e.archived_at ? "archived" : "active", row.status];
      audit.push({ actor_user_id: actorId, action: "update", entity: "product", entity_id: e.id, summary: row.input.name.slice(0, 300), changes: JSON.stringify(changes), created_at: at });
    }
    await updateProducts(trx, updates, at);
    const updated = updates.length;

    if (creates.length) {
      const needSlug = creates.some((row) => !row.slug);
      const taken = needSlug ? new Set((await trx.selectFrom("products").select("slug").execute()).map((r) => r.slug)) : new Set<string>();
      for (const row of work) if (row.slug) taken.add(row.slug);
      const slugFor = slugAllocator(taken, "perfume");
      for (let i = 0; i < creates.length; i += BATCH) {
        const values = creates.slice(i, i + BATCH).map((row) => ({
          slug: row.slug ?? slugFor(row.input.name),
          name: row.input.name,
          description: row.input.description,
          price: row.input.price,
          discount: row.input.discount,
          // Becomes the product's first size by trigger (docs/decisions/121).
          stock: row.input.stock,
          image: null,
          category_id: categories.get(fold(row.category))!.id,
          brand_id: brands.get(fold(row.brand))!.id,
          archived_at: row.status === "archived" ? at : null,
          created_at: at,
          updated_at: at,
        }));
        const inserted = await trx.insertInto("products").values(values).returning(["id", "slug", "name"]).execute();
        const bySlug = new Map(creates.slice(i, i + BATCH).map((row, n) => [values[n].slug, row.input]));
        for (const p of inserted) {
          const input = bySlug.get(p.slug)!;
          audit.push({
            actor_user_id: actorId,
            action: "create",
            entity: "product",
            entity_id: p.id,
            summary: p.name.slice(0, 300),
            changes: JSON.stringify({ price: [null, input.price], discount: [null, input.discount], stock: [null, input.stock] }),
            created_at: at,
          });
        }
      }
    }
    await insertAudit(trx, audit);
    await trx.deleteFrom("catalogue_imports").where("id", "=", id).execute();
    return { ok: true, created: creates.length, updated, unchanged, fileName: pending.file_name };
  });
  if (result.ok && result.created + result.updated > 0) catalogChanged();
  return result;
}
