import { sql } from "kysely";
import type { Db } from "~/db/client.server";
import type { OrderStatus, SaleKind } from "~/db/schema";
import { type AuditChanges, recordAudit } from "../backoffice/audit.server";
import { isoToLagosInput, lagosInputToIso, naira, parseTargets } from "./admin.server";
import type { PromotionTarget } from "./codes.server";
import { type ClockRun, runSalesClock, wakeSalesClock } from "./sales-clock.server";

/**
 * The owner's side of automatic sales (docs/decisions/225): the form checked into a sale, creating,
 * changing, pausing and resuming one (each with its audit entry in the same transaction, then a run of
 * the sales clock, so a sale that should be running is in the prices when the owner's page comes back),
 * deleting one, the list, and what a sale sold.
 */

const E = "promotions.sales.errors.";
const CODE_E = "promotions.admin.errors.";
const KINDS: SaleKind[] = ["percent", "fixed"];
const MAX_NAME = 80;

export interface Sale {
  id: number;
  name: string;
  kind: SaleKind;
  /** whole per cent (1-99) for 'percent', kobo for 'fixed' */
  value: number;
  startsAt: string | null;
  endsAt: string;
  pausedAt: string | null;
  targets: PromotionTarget[];
}

export interface SaleInput {
  name: string;
  kind: SaleKind;
  value: number;
  startsAt: string | null;
  endsAt: string;
  targets: PromotionTarget[];
}

export type SaleFields = Record<"name" | "kind" | "value" | "startsAt" | "endsAt" | "productIds", string> & { categoryIds: string[]; brandIds: string[] };
export type SaleErrors = Partial<Record<keyof SaleFields, string>>;

/** The sale form's fields as sent (every value text, lists for the two selects). */
export function saleFormFields(form: FormData): SaleFields {
  const list = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string").slice(0, 200);
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.slice(0, 2000) : "";
  };
  return {
    name: text("name"),
    kind: text("kind"),
    value: text("value"),
    startsAt: text("startsAt"),
    endsAt: text("endsAt"),
    productIds: text("productIds"),
    categoryIds: list("categoryIds"),
    brandIds: list("brandIds"),
  };
}

/** Checks the form; the errors are translation keys per field. */
export async function parseSale(db: Db, fields: SaleFields): Promise<{ ok: true; input: SaleInput } | { ok: false; errors: SaleErrors; values?: Record<string, string> }> {
  const errors: SaleErrors = {};
  const name = fields.name.trim().replace(/\s+/g, " ");
  if (name === "" || name.length > MAX_NAME) errors.name = `${E}name`;
  const kind = KINDS.find((k) => k === fields.kind);
  if (!kind) errors.kind = `${CODE_E}kind`;
  let value = 0;
  if (kind === "percent") {
    const n = fields.value.trim().replace(/%$/, "");
    if (/^\d{1,2}$/.test(n) && Number(n) >= 1 && Number(n) <= 99) value = Number(n);
    else errors.value = `${E}percent`;
  } else if (kind === "fixed") {
    const kobo = naira(fields.value);
    if (kobo === null || Number.isNaN(kobo) || kobo <= 0) errors.value = `${CODE_E}amount`;
    else value = kobo;
  }
  const startsAt = lagosInputToIso(fields.startsAt);
  if (startsAt === "invalid") errors.startsAt = `${CODE_E}date`;
  const endsAt = lagosInputToIso(fields.endsAt);
  if (endsAt === null) errors.endsAt = `${E}endsAt`;
  else if (endsAt === "invalid") errors.endsAt = `${E}endsAt`;
  else if (startsAt && startsAt !== "invalid" && endsAt <= startsAt) errors.endsAt = `${CODE_E}endsBeforeStart`;
  const scope = await parseTargets(db, fields);
  Object.assign(errors, scope.errors);
  if (Object.keys(errors).length > 0 || !kind || !endsAt) return { ok: false, errors, values: scope.values };
  return { ok: true, input: { name, kind, value, startsAt: startsAt as string | null, endsAt, targets: scope.targets } };
}

const COLUMNS = ["id", "name", "kind", "value", "starts_at", "ends_at", "paused_at"] as const;

type SaleRow = { id: number; name: string; kind: SaleKind; value: number; starts_at: string | null; ends_at: string; paused_at: string | null };

function saleFromRow(row: SaleRow, targets: PromotionTarget[]): Sale {
  return { id: row.id, name: row.name, kind: row.kind, value: Number(row.value), startsAt: row.starts_at, endsAt: row.ends_at, pausedAt: row.paused_at, targets };
}

export async function findSale(db: Db, id: number): Promise<Sale | null> {
  const row = await db.selectFrom("sales").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const targets = await db.selectFrom("sale_targets").select(["kind", "target_id"]).where("sale_id", "=", id).execute();
  return saleFromRow(row, targets.map((t) => ({ kind: t.kind, targetId: t.target_id })));
}

/** The fields as the audit log shows them (language-independent). */
function summaryOf(s: SaleInput | Sale): Record<string, unknown> {
  return {
    name: s.name,
    kind: s.kind,
    value: s.value,
    startsAt: s.startsAt,
    endsAt: s.endsAt,
    targets: s.targets.map((t) => `${t.kind}:${t.targetId}`).sort().join(", ") || null,
  };
}

function describe(before: Sale | null, after: SaleInput): AuditChanges {
  const a = before ? summaryOf(before) : {};
  const changes: AuditChanges = {};
  for (const [key, value] of Object.entries(summaryOf(after))) {
    const old = before ? a[key] : null;
    if (JSON.stringify(old) !== JSON.stringify(value) && !(before === null && value === null)) changes[key] = [old ?? null, value];
  }
  return changes;
}

async function writeTargets(trx: Db, saleId: number, targets: PromotionTarget[]): Promise<void> {
  await trx.deleteFrom("sale_targets").where("sale_id", "=", saleId).execute();
  if (targets.length) await trx.insertInto("sale_targets").values(targets.map((t) => ({ sale_id: saleId, kind: t.kind, target_id: t.targetId }))).execute();
}

/** After a sale is saved: the clock runs now (the prices follow before the owner's page comes back) and looks again for its next moment. */
async function clockAfterSave(db: Db): Promise<ClockRun> {
  const run = await runSalesClock(db);
  wakeSalesClock();
  return run;
}

export async function createSale(db: Db, actorId: number, input: SaleInput): Promise<{ id: number; clock: ClockRun }> {
  const id = await db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const row = await trx
      .insertInto("sales")
      .values({ name: input.name, kind: input.kind, value: input.value, starts_at: input.startsAt, ends_at: input.endsAt, paused_at: null, created_at: at, updated_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await writeTargets(trx, row.id, input.targets);
    await recordAudit(trx, { actorId, action: "create", entity: "sale", entityId: row.id, summary: input.name, changes: describe(null, input) });
    return row.id;
  });
  return { id, clock: await clockAfterSave(db) };
}

/** Null when there is no such sale. */
export async function updateSale(db: Db, actorId: number, id: number, input: SaleInput): Promise<{ clock: ClockRun } | null> {
  const before = await findSale(db, id);
  if (!before) return null;
  const changes = describe(before, input);
  if (Object.keys(changes).length > 0) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("sales")
        .set({ name: input.name, kind: input.kind, value: input.value, starts_at: input.startsAt, ends_at: input.endsAt, updated_at: new Date().toISOString() })
        .where("id", "=", id)
        .execute();
      await writeTargets(trx, id, input.targets);
      await recordAudit(trx, { actorId, action: "update", entity: "sale", entityId: id, summary: input.name, changes });
    });
  }
  return { clock: await clockAfterSave(db) };
}

/** Pauses (the prices go back) or resumes a sale. Null when there is no such sale. */
export async function setSalePaused(db: Db, actorId: number, id: number, paused: boolean): Promise<{ name: string; changed: boolean; clock: ClockRun } | null> {
  const outcome = await db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const row = await trx.selectFrom("sales").select(["name"]).where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    const moved = await trx
      .updateTable("sales")
      .set({ paused_at: paused ? at : null, updated_at: at })
      .where("id", "=", id)
      .where("paused_at", paused ? "is" : "is not", null)
      .executeTakeFirst();
    const changed = Number(moved.numUpdatedRows) === 1;
    if (changed) await recordAudit(trx, { actorId, action: "update", entity: "sale", entityId: id, summary: row.name, changes: { paused: [!paused, paused] } });
    return { name: row.name, changed };
  });
  if (!outcome) return null;
  return { ...outcome, clock: await clockAfterSave(db) };
}

/**
 * Deletes a sale. It is paused first, so the clock puts back the prices of the sizes it holds (a price
 * the owner set by hand during the sale stays); then, under the clock's lock, it goes with what it
 * covered and held, provided it holds no size any more. Orders keep what they were charged. Null when
 * there is no such sale; "holding" when it still holds a size (it is left paused, its prices back).
 */
export async function deleteSale(db: Db, actorId: number, id: number): Promise<{ ok: true; name: string } | { ok: false; reason: "holding" } | null> {
  if (!(await setSalePaused(db, actorId, id, true))) return null;
  return db.transaction().execute(async (trx) => {
    // The clock's row first, as a run takes it: no run can hand the sale a size meanwhile.
    await trx.updateTable("sale_clock").set({ ran_at: new Date().toISOString() }).where("id", "=", 1).execute();
    const row = await trx.selectFrom("sales").select("name").where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    const held = await trx.selectFrom("sale_sizes").select("id").where("sale_id", "=", id).where("ended_at", "is", null).executeTakeFirst();
    if (held) return { ok: false as const, reason: "holding" as const };
    await trx.deleteFrom("sale_sizes").where("sale_id", "=", id).execute();
    await trx.deleteFrom("sale_targets").where("sale_id", "=", id).execute();
    await trx.deleteFrom("sales").where("id", "=", id).execute();
    await recordAudit(trx, { actorId, action: "delete", entity: "sale", entityId: id, summary: row.name });
    return { ok: true as const, name: row.name };
  });
}

export type SaleState = "running" | "paused" | "scheduled" | "ended";

export function saleState(s: Pick<Sale, "pausedAt" | "startsAt" | "endsAt">, at = new Date().toISOString()): SaleState {
  if (s.pausedAt !== null) return "paused";
  if (at >= s.endsAt) return "ended";
  if (s.startsAt !== null && at < s.startsAt) return "scheduled";
  return "running";
}

export interface SaleListRow {
  id: number;
  name: string;
  kind: SaleKind;
  value: number;
  startsAt: string | null;
  endsAt: string;
  state: SaleState;
  /** sizes it holds now */
  sizes: number;
}

export async function listSales(db: Db): Promise<SaleListRow[]> {
  const rows = await db
    .selectFrom("sales as s")
    .select([...COLUMNS.map((c) => `s.${c}` as const)])
    .select((eb) =>
      eb
        .selectFrom("sale_sizes as z")
        .select((z) => z.fn.countAll<number>().as("n"))
        .whereRef("z.sale_id", "=", "s.id")
        .where("z.ended_at", "is", null)
        .where("z.owner_priced_at", "is", null)
        .as("sizes"),
    )
    .orderBy("s.id", "desc")
    .limit(500)
    .execute();
  return rows.map((r) => {
    const sale = saleFromRow(r, []);
    return { id: sale.id, name: sale.name, kind: sale.kind, value: sale.value, startsAt: sale.startsAt, endsAt: sale.endsAt, state: saleState(sale), sizes: Number(r.sizes ?? 0) };
  });
}

export interface SaleResults {
  /** sizes it holds now */
  sizesNow: number;
  /** orders not cancelled that bought a size at this sale's price while the sale held it */
  orders: number;
  bottles: number;
  /** kobo those bottles came to at the sale price */
  revenue: number;
  /** kobo below the prices before the sale */
  markdown: number;
  latest: { number: string; createdAt: string; status: OrderStatus; bottles: number; revenue: number }[];
}

/**
 * What a sale sold: order lines of sizes it held, at the price it set, placed while it held them (read
 * from `sale_sizes`, which keeps each hold's start and end). Cancelled orders are left out of the sums.
 */
export async function saleResults(db: Db, id: number): Promise<SaleResults> {
  const sold = () =>
    db
      .selectFrom("sale_sizes as z")
      .innerJoin("order_items as i", (join) => join.onRef("i.size_id", "=", "z.size_id").onRef("i.unit_price", "=", "z.sale_price"))
      .innerJoin("orders as o", "o.id", "i.order_id")
      .where("z.sale_id", "=", id)
      .whereRef("o.created_at", ">=", "z.applied_at")
      .where((eb) => eb.or([eb("z.ended_at", "is", null), eb("o.created_at", "<", eb.ref("z.ended_at"))]));
  const [sums, latest, now] = await Promise.all([
    sold()
      .where("o.status", "!=", "cancelled")
      .select((eb) => [
        eb.fn.count<number>("o.id").distinct().as("orders"),
        eb.fn.sum<number>("i.quantity").as("bottles"),
        eb.fn.sum<number>(sql`i.unit_price * i.quantity`).as("revenue"),
        eb.fn.sum<number>(sql`(z.price_before - z.sale_price) * i.quantity`).as("markdown"),
      ])
      .executeTakeFirstOrThrow(),
    sold()
      .select((eb) => ["o.number", "o.created_at", "o.status", eb.fn.sum<number>("i.quantity").as("bottles"), eb.fn.sum<number>(sql`i.unit_price * i.quantity`).as("revenue")])
      .groupBy(["o.id", "o.number", "o.created_at", "o.status"])
      .orderBy("o.id", "desc")
      .limit(50)
      .execute(),
    db
      .selectFrom("sale_sizes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("sale_id", "=", id)
      .where("ended_at", "is", null)
      .where("owner_priced_at", "is", null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    sizesNow: Number(now.n),
    orders: Number(sums.orders ?? 0),
    bottles: Number(sums.bottles ?? 0),
    revenue: Number(sums.revenue ?? 0),
    markdown: Number(sums.markdown ?? 0),
    latest: latest.map((r) => ({ number: r.number, createdAt: r.created_at, status: r.status, bottles: Number(r.bottles), revenue: Number(r.revenue) })),
  };
}

/** The sale as the edit form's fields. */
export function saleFields(s: Sale): SaleFields {
  return {
    name: s.name,
    kind: s.kind,
    value: s.kind === "percent" ? String(s.value) : (s.value / 100).toFixed(2),
    startsAt: isoToLagosInput(s.startsAt),
    endsAt: isoToLagosInput(s.endsAt),
    productIds: s.targets.filter((t) => t.kind === "product").map((t) => t.targetId).join(", "),
    categoryIds: s.targets.filter((t) => t.kind === "category").map((t) => String(t.targetId)),
    brandIds: s.targets.filter((t) => t.kind === "brand").map((t) => String(t.targetId)),
  };
}
