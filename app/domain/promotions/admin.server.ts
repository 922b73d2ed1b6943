import type { Db } from "~/db/client.server";
import type { OrderStatus, PromotionKind, PromotionTargetKind } from "~/db/schema";
import { type AuditChanges, recordAudit } from "../backoffice/audit.server";
import { codeKey, type Promotion, promotionFromRow, type PromotionTarget } from "./codes.server";

/**
 * The owner's side of discount codes (docs/decisions/219): the form's fields checked into a promotion,
 * creating, changing and pausing one (each with its audit entry in the same transaction), the list,
 * and a promotion's orders with the discount it gave and the revenue it brought.
 */

const E = "promotions.admin.errors.";
const KINDS: PromotionKind[] = ["percent", "fixed", "free_delivery"];
/** ₦100,000,000: far above any perfume order, far below where kobo in an integer column would overflow. */
const MAX_NAIRA = 100_000_000;
const MAX_COUNT = 1_000_000;
const MAX_TARGETS = 200;

export interface PromotionInput {
  code: string;
  kind: PromotionKind;
  value: number;
  minSubtotal: number | null;
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  combinesWithSale: boolean;
  targets: PromotionTarget[];
}

export type PromotionFields = Record<
  "code" | "kind" | "value" | "minSubtotal" | "startsAt" | "endsAt" | "usageLimit" | "perCustomerLimit" | "combinesWithSale" | "productIds",
  string
> & { categoryIds: string[]; brandIds: string[] };

/** The promotion form's fields as sent (every value text, lists for the two selects). */
export function promotionFormFields(form: FormData): PromotionFields {
  const list = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string").slice(0, MAX_TARGETS);
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.slice(0, 2000) : "";
  };
  return {
    code: text("code"),
    kind: text("kind"),
    value: text("value"),
    minSubtotal: text("minSubtotal"),
    startsAt: text("startsAt"),
    endsAt: text("endsAt"),
    usageLimit: text("usageLimit"),
    perCustomerLimit: text("perCustomerLimit"),
    combinesWithSale: text("combinesWithSale"),
    productIds: text("productIds"),
    categoryIds: list("categoryIds"),
    brandIds: list("brandIds"),
  };
}

export type PromotionErrors = Partial<Record<keyof PromotionFields, string>>;

/** "₦15,000.50" → kobo; null for empty; NaN for anything else. */
export function naira(text: string): number | null {
  const cleaned = text.trim().replace(/^₦/, "").replace(/[,\s]/g, "");
  if (cleaned === "") return null;
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return Number.NaN;
  const value = Number(cleaned);
  return value > MAX_NAIRA ? Number.NaN : Math.round(value * 100);
}

function count(text: string): number | null {
  const cleaned = text.trim();
  if (cleaned === "") return null;
  return /^\d{1,7}$/.test(cleaned) && Number(cleaned) >= 1 && Number(cleaned) <= MAX_COUNT ? Number(cleaned) : Number.NaN;
}

/** A datetime-local value ("2026-12-04T18:00"), read as Lagos time (UTC+1, no summer time), to ISO UTC. */
export function lagosInputToIso(text: string): string | null {
  const cleaned = text.trim();
  if (cleaned === "") return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/.exec(cleaned);
  if (!m) return "invalid";
  const at = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00+01:00`);
  return Number.isNaN(at.getTime()) ? "invalid" : at.toISOString();
}

/** An ISO UTC time as a datetime-local value in Lagos time, for the edit form. */
export function isoToLagosInput(iso: string | null): string {
  if (!iso) return "";
  return new Date(Date.parse(iso) + 3_600_000).toISOString().slice(0, 16);
}

/** Ids from a form (digits only; empty values skipped; duplicates dropped); null when one is not a number. */
export function ids(values: string[]): number[] | null {
  const out: number[] = [];
  for (const v of values) {
    if (v.trim() === "") continue;
    if (!/^\d{1,9}$/.test(v.trim())) return null;
    out.push(Number(v.trim()));
  }
  return [...new Set(out)].slice(0, MAX_TARGETS);
}

/**
 * What a promotion or a sale is restricted to, from the form's two selects and its list of product ids:
 * unknown categories, brands and products are refused (errors are translation keys per field).
 */
export async function parseTargets(
  db: Db,
  fields: { categoryIds: string[]; brandIds: string[]; productIds: string },
): Promise<{ targets: PromotionTarget[]; errors: Partial<Record<"categoryIds" | "brandIds" | "productIds", string>>; values: Record<string, string> }> {
  const errors: Partial<Record<"categoryIds" | "brandIds" | "productIds", string>> = {};
  const categoryIds = ids(fields.categoryIds);
  const brandIds = ids(fields.brandIds);
  const productIds = ids(fields.productIds.split(/[,\s]+/));
  if (!categoryIds) errors.categoryIds = `${E}ids`;
  if (!brandIds) errors.brandIds = `${E}ids`;
  if (!productIds) errors.productIds = `${E}productIds`;
  const values: Record<string, string> = {};
  if (categoryIds?.length) {
    const found = await db.selectFrom("categories").select("id").where("id", "in", categoryIds).execute();
    if (found.length !== categoryIds.length) errors.categoryIds = `${E}ids`;
  }
  if (brandIds?.length) {
    const found = await db.selectFrom("brands").select("id").where("id", "in", brandIds).execute();
    if (found.length !== brandIds.length) errors.brandIds = `${E}ids`;
  }
  if (productIds?.length) {
    const found = new Set((await db.selectFrom("products").select("id").where("id", "in", productIds).execute()).map((r) => r.id));
    const missing = productIds.find((id) => !found.has(id));
    if (missing !== undefined) {
      errors.productIds = `${E}unknownProduct`;
      values.id = String(missing);
    }
  }
  const targets: PromotionTarget[] = [
    ...(categoryIds ?? []).map((targetId) => ({ kind: "category" as const, targetId })),
    ...(brandIds ?? []).map((targetId) => ({ kind: "brand" as const, targetId })),
    ...(productIds ?? []).map((targetId) => ({ kind: "product" as const, targetId })),
  ];
  return { targets, errors, values };
}

/** Checks the form; the errors are translation keys per field. Unknown categories, brands and products are refused too. */
export async function parsePromotion(db: Db, fields: PromotionFields): Promise<{ ok: true; input: PromotionInput } | { ok: false; errors: PromotionErrors; values?: Record<string, string> }> {
  const errors: PromotionErrors = {};
  const code = fields.code.trim();
  if (!codeKey(code)) errors.code = `${E}code`;
  const kind = KINDS.find((k) => k === fields.kind);
  if (!kind) errors.kind = `${E}kind`;
  let value = 0;
  if (kind === "percent") {
    const n = fields.value.trim();
    if (/^\d{1,3}$/.test(n) && Number(n) >= 1 && Number(n) <= 100) value = Number(n);
    else errors.value = `${E}percent`;
  } else if (kind === "fixed") {
    const kobo = naira(fields.value);
    if (kobo === null || Number.isNaN(kobo) || kobo <= 0) errors.value = `${E}amount`;
    else value = kobo;
  }
  const minSubtotal = naira(fields.minSubtotal);
  if (minSubtotal !== null && Number.isNaN(minSubtotal)) errors.minSubtotal = `${E}money`;
  const usageLimit = count(fields.usageLimit);
  if (usageLimit !== null && Number.isNaN(usageLimit)) errors.usageLimit = `${E}count`;
  const perCustomerLimit = count(fields.perCustomerLimit);
  if (perCustomerLimit !== null && Number.isNaN(perCustomerLimit)) errors.perCustomerLimit = `${E}count`;
  const startsAt = lagosInputToIso(fields.startsAt);
  if (startsAt === "invalid") errors.startsAt = `${E}date`;
  const endsAt = lagosInputToIso(fields.endsAt);
  if (endsAt === "invalid") errors.endsAt = `${E}date`;
  else if (endsAt && startsAt && startsAt !== "invalid" && endsAt <= startsAt) errors.endsAt = `${E}endsBeforeStart`;

  const scope = await parseTargets(db, fields);
  Object.assign(errors, scope.errors);
  const values = scope.values;
  if (Object.keys(errors).length > 0 || !kind) return { ok: false, errors, values };
  const targets = scope.targets;
  return {
    ok: true,
    input: {
      code,
      kind,
      value,
      minSubtotal,
      startsAt: startsAt as string | null,
      endsAt: endsAt as string | null,
      usageLimit,
      perCustomerLimit,
      combinesWithSale: fields.combinesWithSale === "on",
      targets,
    },
  };
}

const COLUMNS = ["id", "code", "kind", "value", "min_subtotal", "starts_at", "ends_at", "usage_limit", "per_customer_limit", "combines_with_sale", "uses", "paused_at"] as const;

function rowValues(input: PromotionInput) {
  return {
    code: input.code,
    code_key: input.code.toLowerCase(),
    kind: input.kind,
    value: input.value,
    min_subtotal: input.minSubtotal,
    starts_at: input.startsAt,
    ends_at: input.endsAt,
    usage_limit: input.usageLimit,
    per_customer_limit: input.perCustomerLimit,
    combines_with_sale: input.combinesWithSale ? 1 : 0,
  };
}

async function codeTaken(db: Db, code: string, except: number | null): Promise<boolean> {
  const row = await db
    .selectFrom("promotions")
    .select("id")
    .where("code_key", "=", code.toLowerCase())
    .$if(except !== null, (qb) => qb.where("id", "!=", except!))
    .executeTakeFirst();
  return !!row;
}

async function writeTargets(trx: Db, promotionId: number, targets: PromotionTarget[]): Promise<void> {
  await trx.deleteFrom("promotion_targets").where("promotion_id", "=", promotionId).execute();
  if (targets.length) await trx.insertInto("promotion_targets").values(targets.map((t) => ({ promotion_id: promotionId, kind: t.kind, target_id: t.targetId }))).execute();
}

export type SaveResult = { ok: true; id: number; code: string } | { ok: false; errors: PromotionErrors };

export async function createPromotion(db: Db, actorId: number, input: PromotionInput): Promise<SaveResult> {
  if (await codeTaken(db, input.code, null)) return { ok: false, errors: { code: `${E}codeTaken` } };
  try {
    const id = await db.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      const row = await trx
        .insertInto("promotions")
        .values({ ...rowValues(input), paused_at: null, created_at: at, updated_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeTargets(trx, row.id, input.targets);
      await recordAudit(trx, { actorId, action: "create", entity: "promotion", entityId: row.id, summary: input.code, changes: describe(null, input) });
      return row.id;
    });
    return { ok: true, id, code: input.code };
  } catch (error) {
    // Two owners creating the same code at once: the unique index lets one through.
    if (await codeTaken(db, input.code, null)) return { ok: false, errors: { code: `${E}codeTaken` } };
    throw error;
  }
}

/** The fields as the audit log shows them (language-independent). */
function summaryOf(p: PromotionInput | Promotion): Record<string, unknown> {
  return {
    code: p.code,
    kind: p.kind,
    value: p.value,
    minSubtotal: p.minSubtotal,
    startsAt: p.startsAt,
    endsAt: p.endsAt,
    usageLimit: p.usageLimit,
    perCustomerLimit: p.perCustomerLimit,
    combinesWithSale: p.combinesWithSale,
    targets: p.targets.map((t) => `${t.kind}:${t.targetId}`).sort().join(", ") || null,
  };
}

function describe(before: PromotionInput | Promotion | null, after: PromotionInput | Promotion): AuditChanges {
  const a = before ? summaryOf(before) : {};
  const b = summaryOf(after);
  const changes: AuditChanges = {};
  for (const [key, value] of Object.entries(b)) {
    const old = before ? a[key] : null;
    if (JSON.stringify(old) !== JSON.stringify(value) && !(before === null && value === null)) changes[key] = [old ?? null, value];
  }
  return changes;
}

export async function updatePromotion(db: Db, actorId: number, id: number, input: PromotionInput): Promise<SaveResult | null> {
  const before = await findPromotion(db, id);
  if (!before) return null;
  if (await codeTaken(db, input.code, id)) return { ok: false, errors: { code: `${E}codeTaken` } };
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("promotions").set({ ...rowValues(input), updated_at: new Date().toISOString() }).where("id", "=", id).execute();
    await writeTargets(trx, id, input.targets);
    await recordAudit(trx, { actorId, action: "update", entity: "promotion", entityId: id, summary: input.code, changes: describe(before, input) });
  });
  return { ok: true, id, code: input.code };
}

/** Pauses or resumes a code; a paused code applies nowhere and takes no new use. Null when there is no such promotion. */
export async function setPromotionPaused(db: Db, actorId: number, id: number, paused: boolean): Promise<{ code: string; changed: boolean } | null> {
  return db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const row = await trx.selectFrom("promotions").select(["code", "paused_at"]).where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    const moved = await trx
      .updateTable("promotions")
      .set({ paused_at: paused ? at : null, updated_at: at })
      .where("id", "=", id)
      .where("paused_at", paused ? "is" : "is not", null)
      .executeTakeFirst();
    const changed = Number(moved.numUpdatedRows) === 1;
    if (changed) await recordAudit(trx, { actorId, action: "update", entity: "promotion", entityId: id, summary: row.code, changes: { paused: [!paused, paused] } });
    return { code: row.code, changed };
  });
}

export async function findPromotion(db: Db, id: number): Promise<Promotion | null> {
  const row = await db.selectFrom("promotions").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const targets = await db.selectFrom("promotion_targets").select(["kind", "target_id"]).where("promotion_id", "=", id).execute();
  return promotionFromRow(row, targets.map((t) => ({ kind: t.kind as PromotionTargetKind, targetId: t.target_id })));
}

export type PromotionState = "active" | "paused" | "scheduled" | "ended" | "usedUp";

export function promotionState(p: Pick<Promotion, "pausedAt" | "startsAt" | "endsAt" | "usageLimit" | "uses">, at = new Date().toISOString()): PromotionState {
  if (p.pausedAt !== null) return "paused";
  if (p.endsAt !== null && at >= p.endsAt) return "ended";
  if (p.usageLimit !== null && p.uses >= p.usageLimit) return "usedUp";
  if (p.startsAt !== null && at < p.startsAt) return "scheduled";
  return "active";
}

export interface PromotionListRow {
  id: number;
  code: string;
  kind: PromotionKind;
  value: number;
  startsAt: string | null;
  endsAt: string | null;
  uses: number;
  usageLimit: number | null;
  state: PromotionState;
}

export async function listPromotions(db: Db): Promise<PromotionListRow[]> {
  const rows = await db.selectFrom("promotions").select(COLUMNS).orderBy("id", "desc").limit(500).execute();
  return rows.map((r) => {
    const p = promotionFromRow(r, []);
    return { id: p.id, code: p.code, kind: p.kind, value: p.value, startsAt: p.startsAt, endsAt: p.endsAt, uses: p.uses, usageLimit: p.usageLimit, state: promotionState(p) };
  });
}

export interface PromotionResults {
  /** orders placed with the code that were not cancelled */
  orders: number;
  /** kobo of discount they were given */
  discount: number;
  /** kobo those orders came to (after the discount, delivery included) */
  revenue: number;
  latest: { number: string; createdAt: string; status: OrderStatus; discount: number; total: number }[];
}

/** What a promotion brought: its orders (cancelled ones left out of the sums), the discount given and the revenue. */
export async function promotionResults(db: Db, id: number): Promise<PromotionResults> {
  const [sums, latest] = await Promise.all([
    db
      .selectFrom("promotion_uses as u")
      .innerJoin("orders as o", "o.id", "u.order_id")
      .select((eb) => [eb.fn.countAll<number>().as("orders"), eb.fn.sum<number>("o.discount").as("discount"), eb.fn.sum<number>("o.total").as("revenue")])
      .where("u.promotion_id", "=", id)
      .where("o.status", "!=", "cancelled")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("promotion_uses as u")
      .innerJoin("orders as o", "o.id", "u.order_id")
      .select(["o.number", "o.created_at", "o.status", "o.discount", "o.total"])
      .where("u.promotion_id", "=", id)
      .orderBy("o.id", "desc")
      .limit(50)
      .execute(),
  ]);
  return {
    orders: Number(sums.orders ?? 0),
    discount: Number(sums.discount ?? 0),
    revenue: Number(sums.revenue ?? 0),
    latest: latest.map((r) => ({ number: r.number, createdAt: r.created_at, status: r.status, discount: Number(r.discount), total: Number(r.total) })),
  };
}

/** The categories and brands the form offers. */
export async function promotionChoices(db: Db): Promise<{ categories: { id: number; name: string }[]; brands: { id: number; name: string }[] }> {
  const [categories, brands] = await Promise.all([
    db.selectFrom("categories").select(["id", "name"]).orderBy("name").execute(),
    db.selectFrom("brands").select(["id", "name"]).orderBy("name").execute(),
  ]);
  return { categories, brands };
}

/** The promotion as the edit form's fields. */
export function promotionFields(p: Promotion): PromotionFields {
  return {
    code: p.code,
    kind: p.kind,
    value: p.kind === "percent" ? String(p.value) : p.kind === "fixed" ? (p.value / 100).toFixed(2) : "",
    minSubtotal: p.minSubtotal === null ? "" : (p.minSubtotal / 100).toFixed(2),
    startsAt: isoToLagosInput(p.startsAt),
    endsAt: isoToLagosInput(p.endsAt),
    usageLimit: p.usageLimit === null ? "" : String(p.usageLimit),
    perCustomerLimit: p.perCustomerLimit === null ? "" : String(p.perCustomerLimit),
    combinesWithSale: p.combinesWithSale ? "on" : "",
    productIds: p.targets.filter((t) => t.kind === "product").map((t) => t.targetId).join(", "),
    categoryIds: p.targets.filter((t) => t.kind === "category").map((t) => String(t.targetId)),
    brandIds: p.targets.filter((t) => t.kind === "brand").map((t) => String(t.targetId)),
  };
}
