import { type Db, isPostgres } from "~/db/client.server";
import { formatNaira } from "~/lib/money";
import { MAX_ML, MAX_SIZE_LABEL, MAX_SIZES, MAX_SKU, type SizeRowErrors, type SizeRowValues } from "~/lib/sizes";

export { MAX_ML, MAX_SIZE_LABEL, MAX_SIZES, MAX_SKU, type SizeRowErrors, type SizeRowValues };
import { recordAudit } from "../backoffice/audit.server";
import { parseProductFields } from "./admin-products.server";
import { catalogChanged } from "./catalog.server";
import { listSizes, type ProductSize } from "./product-sizes.server";

/**
 * The owner's sizes form (docs/decisions/121): a product's sizes as rows (label, ml, SKU, price,
 * discount), edited, added and removed together. The stock is not on the form: a new size starts at
 * 0 and stock moves only by adjustments (docs/decisions/118). Every row is checked before anything is
 * written; then the whole form is saved in one transaction with one audit entry, or nothing is.
 */

const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const E = "admin.sizes.errors.";


export interface SizeRowInput {
  /** null for a new size */
  id: number | null;
  label: string;
  ml: number | null;
  sku: string | null;
  /** kobo */
  price: number;
  discount: number | null;
  remove: boolean;
}


export interface ParsedSizes {
  rows: SizeRowInput[] | null;
  /** per row, in the form's order */
  errors: SizeRowErrors[];
  /** a problem of the whole form */
  formError: string | null;
  values: SizeRowValues[];
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/**
 * Reads the rows of the sizes form (fields `id-N`, `label-N`, `ml-N`, `sku-N`, `price-N`, `discount-N`,
 * `remove-N` for N from 0). A new row left blank is ignored. Labels and SKUs must differ within the
 * form (SKUs are compared with the other products' in `saveSizes`).
 */
export function parseSizesForm(form: FormData): ParsedSizes {
  const values: SizeRowValues[] = [];
  for (let i = 0; i < MAX_SIZES + 1; i++) {
    if (!form.has(`label-${i}`) && !form.has(`id-${i}`)) continue;
    const row: SizeRowValues = {
      id: text(form, `id-${i}`).trim(),
      label: text(form, `label-${i}`).trim().slice(0, MAX_SIZE_LABEL + 20),
      ml: text(form, `ml-${i}`).trim().slice(0, 20),
      sku: text(form, `sku-${i}`).trim().slice(0, MAX_SKU + 20),
      price: text(form, `price-${i}`).trim().slice(0, 40),
      discount: text(form, `discount-${i}`).trim().slice(0, 40),
      remove: form.get(`remove-${i}`) === "on",
    };
    if (!row.id && !row.label && !row.ml && !row.sku && !row.price && !row.discount) continue;
    values.push(row);
  }
  const errors: SizeRowErrors[] = values.map(() => ({}));
  const rows: SizeRowInput[] = [];
  let formError: string | null = null;
  const labels = new Set<string>();
  const skus = new Set<string>();
  values.forEach((v, i) => {
    const e = errors[i];
    const id = v.id === "" ? null : /^[1-9]\d{0,9}$/.test(v.id) && Number(v.id) <= 2_147_483_647 ? Number(v.id) : Number.NaN;
    if (Number.isNaN(id)) formError = E + "badRequest";
    if (v.remove) {
      rows.push({ id, label: v.label, ml: null, sku: null, price: 0, discount: null, remove: true });
      return;
    }
    if (!v.label) e.label = E + "label";
    else if (v.label.length > MAX_SIZE_LABEL) e.label = E + "labelTooLong";
    else if (labels.has(v.label.toLowerCase())) e.label = E + "labelDuplicate";
    labels.add(v.label.toLowerCase());
    let ml: number | null = null;
    if (v.ml) {
      if (!/^\d{1,5}$/.test(v.ml) || Number(v.ml) < 1 || Number(v.ml) > MAX_ML) e.ml = E + "ml";
      else ml = Number(v.ml);
    }
    let sku: string | null = null;
    if (v.sku) {
      if (v.sku.length > MAX_SKU || !SKU.test(v.sku)) e.sku = E + "sku";
      else if (skus.has(v.sku.toUpperCase())) e.sku = E + "skuDuplicate";
      else sku = v.sku.toUpperCase();
      skus.add(v.sku.toUpperCase());
    }
    const money = parseProductFields((field) => (field === "price" ? v.price : v.discount), "create", ["price", "discount"]);
    if (money.errors.price) e.price = money.errors.price;
    if (money.errors.discount) e.discount = money.errors.discount;
    const price = money.input.price ?? 0;
    const discount = money.input.discount ?? null;
    if (!e.price && !e.discount && discount !== null && discount >= price) e.discount = "admin.products.errors.discountTooHigh";
    rows.push({ id, label: v.label, ml, sku, price, discount, remove: false });
  });
  if (!formError && !rows.some((r) => !r.remove)) formError = E + "atLeastOne";
  if (!formError && rows.filter((r) => !r.remove).length > MAX_SIZES) formError = E + "tooMany";
  const ok = !formError && errors.every((e) => Object.keys(e).length === 0);
  return { rows: ok ? rows : null, errors, formError, values };
}

export type SaveSizesResult =
  | { ok: true; name: string; changed: boolean }
  | { ok: false; notFound: true }
  | { ok: false; errors: SizeRowErrors[]; formError: string | null };

const describe = (sizes: Pick<ProductSize, "label" | "sku" | "price" | "discount" | "ml">[]) =>
  sizes.map((s) => `${s.label}${s.sku ? ` [${s.sku}]` : ""} ${formatNaira(s.price)}${s.discount ? ` (-${formatNaira(s.discount)})` : ""}`).join("; ");

/**
 * Saves the sizes form in one transaction: removed sizes go (refused while they hold stock or sit in an
 * order still being handled), changed ones are updated, new ones are added with no stock, in the form's
 * order. The product's price, discount and stock summaries follow by trigger.
 */
export async function saveSizes(db: Db, productId: number, rows: SizeRowInput[], actorId: number): Promise<SaveSizesResult> {
  const result = await db.transaction().execute(async (trx): Promise<SaveSizesResult> => {
    let find = trx.selectFrom("products").select(["id", "name"]).where("id", "=", productId);
    // The product's row first, then its sizes, as every writer of sizes does; one save at a time per
    // product. On SQLite the write lock is taken first, so reading before writing cannot fail.
    if (isPostgres(trx)) find = find.forUpdate();
    else await trx.updateTable("products").set({ updated_at: new Date().toISOString() }).where("id", "=", productId).execute();
    const product = await find.executeTakeFirst();
    if (!product) return { ok: false, notFound: true };
    const before = await listSizes(trx, productId);
    const byId = new Map(before.map((s) => [s.id, s]));
    const errors: SizeRowErrors[] = rows.map(() => ({}));
    // A row naming a size that is not this product's: a stale or hand-made form.
    if (rows.some((r) => r.id !== null && !byId.has(r.id))) return { ok: false, errors, formError: E + "stale" };
    // Sizes not on the form at all are kept (the form was made before they were added).
    const listed = new Set(rows.map((r) => r.id));
    const kept = before.filter((s) => !listed.has(s.id));

    const removing = rows.filter((r) => r.remove && r.id !== null);
    for (const [i, row] of rows.entries()) {
      if (!row.remove || row.id === null) continue;
      if (byId.get(row.id)!.stock > 0) errors[i].remove = E + "removeStock";
    }
    if (removing.length) {
      const open = await trx
        .selectFrom("order_items as i")
        .innerJoin("orders as o", "o.id", "i.order_id")
        .select("i.size_id")
        .where(
          "i.size_id",
          "in",
          removing.map((r) => r.id!),
        )
        .where("o.status", "in", ["pending", "confirmed", "shipped"])
        .execute();
      const inOpenOrders = new Set(open.map((r) => r.size_id));
      for (const [i, row] of rows.entries()) if (row.remove && row.id !== null && inOpenOrders.has(row.id) && !errors[i].remove) errors[i].remove = E + "removeOrdered";
    }
    const skus = rows.filter((r) => !r.remove && r.sku).map((r) => r.sku!);
    if (skus.length) {
      const taken = await trx.selectFrom("product_sizes").select("sku").where("sku", "in", skus).where("product_id", "!=", productId).execute();
      const takenSet = new Set(taken.map((r) => r.sku));
      for (const [i, row] of rows.entries()) if (!row.remove && row.sku && takenSet.has(row.sku)) errors[i].sku = E + "skuTaken";
    }
    // Labels and SKUs of sizes kept off the form count too.
    for (const [i, row] of rows.entries()) {
      if (row.remove) continue;
      if (kept.some((s) => s.label.toLowerCase() === row.label.toLowerCase())) errors[i].label = E + "labelDuplicate";
      if (row.sku && kept.some((s) => s.sku === row.sku)) errors[i].sku = E + "skuDuplicate";
    }
    if (errors.some((e) => Object.keys(e).length)) return { ok: false, errors, formError: null };

    const at = new Date().toISOString();
    for (const row of removing) await trx.deleteFrom("product_sizes").where("id", "=", row.id!).execute();
    const staying = rows.filter((r) => !r.remove);
    // Labels and SKUs may trade places between rows: clear them first so the unique indexes never see two at once.
    const updates = staying.filter((r) => r.id !== null);
    for (const row of updates) {
      const was = byId.get(row.id!)!;
      if (was.label !== row.label || was.sku !== row.sku) {
        await trx.updateTable("product_sizes").set({ label: `(renaming ${row.id} ${at})`, sku: null }).where("id", "=", row.id!).execute();
      }
    }
    for (const [position, row] of staying.entries()) {
      const values = { label: row.label, ml: row.ml, sku: row.sku, price: row.price, discount: row.discount, position, updated_at: at };
      if (row.id !== null) {
        const was = byId.get(row.id)!;
        const same = was.label === row.label && was.ml === row.ml && was.sku === row.sku && was.price === row.price && was.discount === row.discount && was.position === position;
        if (!same) await trx.updateTable("product_sizes").set(values).where("id", "=", row.id).execute();
      } else {
        await trx.insertInto("product_sizes").values({ ...values, product_id: productId, stock: 0, created_at: at }).execute();
      }
    }
    const after = await listSizes(trx, productId);
    const changed = describe(before) !== describe(after) || before.length !== after.length || before.some((s, i) => s.position !== after[i]?.position);
    if (changed) {
      await trx.updateTable("products").set({ updated_at: at }).where("id", "=", productId).execute();
      await recordAudit(trx, { actorId, action: "update", entity: "product", entityId: productId, summary: product.name, changes: { sizes: [describe(before), describe(after)] } });
    }
    return { ok: true, name: product.name, changed };
  });
  if (result.ok && result.changed) catalogChanged();
  return result;
}
