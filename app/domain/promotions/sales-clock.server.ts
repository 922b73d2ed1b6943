import { sql } from "kysely";
import { type Db, isPostgres } from "~/db/client.server";
import type { PromotionTargetKind, SaleKind } from "~/db/schema";
import { catalogChanged } from "../catalogue/catalog.server";
import { outboxWakers } from "../operations/outbox-loop.server";

/**
 * The sales clock (docs/decisions/225): it puts automatic sales into the sizes' own price pair when they
 * start and takes them out when they end, are paused or change, so that every page, the cart, the
 * checkout and the order read the sale price from the one place they already read prices from.
 *
 * A run compares what should be (for each size, the best of the sales running now that cover it) with
 * what is (the sizes each sale holds, `sale_sizes`), and writes the difference in one transaction:
 * - a size a sale should hold gets the sale price, computed from its regular price (price + discount),
 *   only when that is below its price now (a sale never raises a price), and its pair before is kept;
 * - a size no sale should hold any more gets its pair before back, unless its pair is no longer the one
 *   the sale set: then the owner priced it by hand during the sale, and the owner's price stays (such a
 *   size is left alone by every sale until the sale holding it ends);
 * - two sales covering one size: the lower price wins (on a tie, the sale holding it, then the older).
 * Every run locks the one `sale_clock` row first, so runs on several instances queue and the second
 * finds nothing left to do; on PostgreSQL the products are then locked in id order before their sizes,
 * as every writer of sizes does (docs/decisions/121).
 */

export interface RunningSale {
  id: number;
  kind: SaleKind;
  value: number;
  endsAt: string;
  targets: { kind: PromotionTargetKind; targetId: number }[];
}

/** The sale price of a size whose regular price is `regular` (kobo), or null when the sale would leave nothing to pay. */
export function salePrice(regular: number, sale: Pick<RunningSale, "kind" | "value">): number | null {
  const price = sale.kind === "percent" ? regular - Math.floor((regular * Math.min(sale.value, 99) + 50) / 100) : regular - sale.value;
  return price >= 1 ? price : null;
}

/**
 * A sale's end as cards and the product page show it: Lagos time (UTC+1 all year), "2026-12-06 23:59",
 * the same in every language, written by the clock so the browser needs no date formatting (the
 * storefront's JavaScript budget, docs/decisions/158).
 */
export function saleEndShown(iso: string): string {
  return new Date(Date.parse(iso) + 3_600_000).toISOString().slice(0, 16).replace("T", " ");
}

/** The sale that gives the lowest price below `ceiling` (the price now), preferring the `holder` and then the older sale on a tie. */
export function bestOffer(offers: readonly RunningSale[], regular: number, ceiling: number, holder: number | null = null): { sale: RunningSale; price: number } | null {
  let best: { sale: RunningSale; price: number } | null = null;
  const rank = (id: number) => (id === holder ? -1 : id);
  for (const sale of offers) {
    const price = salePrice(regular, sale);
    if (price === null || price >= ceiling) continue;
    if (!best || price < best.price || (price === best.price && rank(sale.id) < rank(best.sale.id))) best = { sale, price };
  }
  return best;
}

/** The sales running at `at` (not paused, started, not ended), with what they cover. */
export async function runningSales(db: Db, at: string): Promise<RunningSale[]> {
  const rows = await db
    .selectFrom("sales")
    .select(["id", "kind", "value", "ends_at"])
    .where("paused_at", "is", null)
    .where((eb) => eb.or([eb("starts_at", "is", null), eb("starts_at", "<=", at)]))
    .where("ends_at", ">", at)
    .orderBy("id")
    .execute();
  if (rows.length === 0) return [];
  const targets = await db
    .selectFrom("sale_targets")
    .select(["sale_id", "kind", "target_id"])
    .where(
      "sale_id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    value: Number(r.value),
    endsAt: r.ends_at,
    targets: targets.filter((t) => t.sale_id === r.id).map((t) => ({ kind: t.kind, targetId: t.target_id })),
  }));
}

interface SizeNow {
  productId: number;
  price: number;
  discount: number;
  /** the discount as written: null and 0 are put back as they were */
  discountAsWritten: number | null;
  saleEndsAt: string | null;
  offers: RunningSale[];
}

/** The sizes of products in the shop that a sale covers, with their price pair now. */
async function sizesCovered(db: Db, sale: RunningSale): Promise<{ id: number; product_id: number; price: number; discount: number | null; sale_ends_at: string | null }[]> {
  const ids = (kind: PromotionTargetKind) => sale.targets.filter((t) => t.kind === kind).map((t) => t.targetId);
  const [categories, brands, products] = [ids("category"), ids("brand"), ids("product")];
  return db
    .selectFrom("product_sizes as s")
    .innerJoin("products as p", "p.id", "s.product_id")
    .select(["s.id", "s.product_id", "s.price", "s.discount", "s.sale_ends_at"])
    .where("p.archived_at", "is", null)
    .$if(sale.targets.length > 0, (qb) =>
      qb.where((eb) =>
        eb.or([
          ...(categories.length ? [eb("p.category_id", "in", categories)] : []),
          ...(brands.length ? [eb("p.brand_id", "in", brands)] : []),
          ...(products.length ? [eb("p.id", "in", products)] : []),
        ]),
      ),
    )
    .execute();
}

type Step =
  | { kind: "apply"; sizeId: number; productId: number; saleId: number; priceBefore: number; discountBefore: number | null; price: number; discount: number; endsAt: string }
  | { kind: "move"; rowId: number; sizeId: number; productId: number; saleId: number; priceBefore: number; discountBefore: number | null; price: number; discount: number; endsAt: string }
  | { kind: "restore"; rowId: number; sizeId: number; productId: number; priceBefore: number; discountBefore: number | null }
  | { kind: "ownerPriced"; rowId: number; sizeId: number; productId: number }
  | { kind: "release"; rowId: number; productId: number }
  | { kind: "refresh"; sizeId: number; productId: number; endsAt: string | null };

/** What a run should change now, read from the database. */
async function plan(db: Db, at: string): Promise<Step[]> {
  const sales = await runningSales(db, at);
  const sizes = new Map<number, SizeNow>();
  for (const sale of sales) {
    for (const r of await sizesCovered(db, sale)) {
      let size = sizes.get(r.id);
      if (!size) sizes.set(r.id, (size = { productId: r.product_id, price: Number(r.price), discount: Number(r.discount ?? 0), discountAsWritten: r.discount === null ? null : Number(r.discount), saleEndsAt: r.sale_ends_at, offers: [] }));
      size.offers.push(sale);
    }
  }
  const live = await db
    .selectFrom("sale_sizes as ss")
    .innerJoin("product_sizes as s", "s.id", "ss.size_id")
    .select(["ss.id", "ss.sale_id", "ss.size_id", "ss.product_id", "ss.price_before", "ss.discount_before", "ss.sale_price", "ss.sale_discount", "ss.owner_priced_at", "s.price", "s.discount", "s.sale_ends_at"])
    .where("ss.ended_at", "is", null)
    .execute();
  const steps: Step[] = [];
  const held = new Set<number>();
  for (const row of live) {
    held.add(row.size_id);
    const offers = sizes.get(row.size_id)?.offers ?? [];
    const base = { rowId: row.id, sizeId: row.size_id, productId: row.product_id };
    if (row.owner_priced_at !== null) {
      if (!offers.some((o) => o.id === row.sale_id)) steps.push({ kind: "release", rowId: row.id, productId: row.product_id });
      continue;
    }
    if (Number(row.price) !== Number(row.sale_price) || Number(row.discount ?? 0) !== Number(row.sale_discount)) {
      steps.push({ kind: "ownerPriced", ...base });
      continue;
    }
    const priceBefore = Number(row.price_before);
    const discountBefore = row.discount_before === null ? null : Number(row.discount_before);
    const regular = priceBefore + (discountBefore ?? 0);
    const best = bestOffer(offers, regular, priceBefore, row.sale_id);
    if (!best) steps.push({ kind: "restore", ...base, priceBefore, discountBefore });
    else if (best.sale.id !== row.sale_id || best.price !== Number(row.sale_price))
      steps.push({ kind: "move", ...base, saleId: best.sale.id, priceBefore, discountBefore, price: best.price, discount: regular - best.price, endsAt: saleEndShown(best.sale.endsAt) });
    else if (row.sale_ends_at !== saleEndShown(best.sale.endsAt)) steps.push({ kind: "refresh", sizeId: row.size_id, productId: row.product_id, endsAt: saleEndShown(best.sale.endsAt) });
  }
  for (const [sizeId, size] of sizes) {
    if (held.has(sizeId)) continue;
    const regular = size.price + size.discount;
    const best = bestOffer(size.offers, regular, size.price);
    if (best) {
      steps.push({
        kind: "apply",
        sizeId,
        productId: size.productId,
        saleId: best.sale.id,
        priceBefore: size.price,
        discountBefore: size.discountAsWritten,
        price: best.price,
        discount: regular - best.price,
        endsAt: saleEndShown(best.sale.endsAt),
      });
    }
  }
  return steps;
}

export interface ClockRun {
  /** sizes put on sale (or moved to a better sale) */
  applied: number;
  /** sizes given their price before back */
  restored: number;
  /** sizes the owner priced by hand during a sale, now theirs */
  ownerPriced: number;
  /** products whose price pair or sale end changed */
  products: number[];
}

const NOTHING: ClockRun = { applied: 0, restored: 0, ownerPriced: 0, products: [] };

/**
 * One run of the clock at `at`: reads what should change, and when something should, writes it in one
 * transaction under the clock's lock (reading it again there). Tells the catalogue's listeners after
 * the commit. Safe to run on several instances at once, and as often as wanted.
 */
export async function runSalesClock(db: Db, at = new Date().toISOString()): Promise<ClockRun> {
  // Most runs find nothing to do: they take no lock.
  if ((await plan(db, at)).length === 0) return NOTHING;
  const pg = isPostgres(db);
  const run = await db.transaction().execute(async (trx): Promise<ClockRun> => {
    // The clock's row first: a run on another instance waits here, then reads what this one wrote.
    await trx.updateTable("sale_clock").set({ ran_at: at }).where("id", "=", 1).execute();
    let steps = await plan(trx, at);
    if (pg) {
      // The products' rows before their sizes', in id order, as every writer of sizes does; then the plan
      // is read again, since an owner may have saved a size before the lock.
      const locked = new Set<number>();
      for (let round = 0; round < 3; round++) {
        const missing = [...new Set(steps.map((s) => s.productId))].filter((id) => !locked.has(id)).sort((a, b) => a - b);
        if (missing.length === 0) break;
        await trx.selectFrom("products").select("id").where("id", "in", missing).orderBy("id").forUpdate().execute();
        for (const id of missing) locked.add(id);
        steps = await plan(trx, at);
      }
    }
    if (steps.length === 0) return NOTHING;
    const result: ClockRun = { applied: 0, restored: 0, ownerPriced: 0, products: [] };
    const products = new Set<number>();
    const record = async (s: Extract<Step, { kind: "apply" | "move" }>) => {
      await trx
        .insertInto("sale_sizes")
        .values({
          sale_id: s.saleId,
          size_id: s.sizeId,
          product_id: s.productId,
          price_before: s.priceBefore,
          discount_before: s.discountBefore,
          sale_price: s.price,
          sale_discount: s.discount,
          applied_at: at,
        })
        .execute();
      await trx.updateTable("product_sizes").set({ price: s.price, discount: s.discount, sale_ends_at: s.endsAt }).where("id", "=", s.sizeId).execute();
    };
    const orderedSteps = [...steps].sort((a, b) => a.productId - b.productId);
    for (const step of orderedSteps) {
      products.add(step.productId);
      switch (step.kind) {
        case "apply":
          await record(step);
          result.applied++;
          break;
        case "move":
          await trx.updateTable("sale_sizes").set({ ended_at: at }).where("id", "=", step.rowId).execute();
          await record(step);
          result.applied++;
          break;
        case "restore":
          await trx.updateTable("sale_sizes").set({ ended_at: at }).where("id", "=", step.rowId).execute();
          await trx.updateTable("product_sizes").set({ price: step.priceBefore, discount: step.discountBefore, sale_ends_at: null }).where("id", "=", step.sizeId).execute();
          result.restored++;
          break;
        case "ownerPriced":
          await trx.updateTable("sale_sizes").set({ owner_priced_at: at }).where("id", "=", step.rowId).execute();
          await trx.updateTable("product_sizes").set({ sale_ends_at: null }).where("id", "=", step.sizeId).execute();
          result.ownerPriced++;
          break;
        case "release":
          await trx.updateTable("sale_sizes").set({ ended_at: at }).where("id", "=", step.rowId).execute();
          break;
        case "refresh":
          await trx.updateTable("product_sizes").set({ sale_ends_at: step.endsAt }).where("id", "=", step.sizeId).execute();
          break;
      }
    }
    const ids = [...products].sort((a, b) => a - b);
    // A card shows the cheapest size's pair (the product's summary, kept by triggers): its sale's end with it.
    await trx
      .updateTable("products")
      .set({
        sale_ends_at: sql<string | null>`(select s.sale_ends_at from product_sizes s where s.product_id = products.id order by s.price, s.position, s.id limit 1)`,
      })
      .where("id", "in", ids)
      .execute();
    // Cached listing counts and facets carry this number (docs/decisions/130).
    await trx.updateTable("catalog_version").set((eb) => ({ version: eb("version", "+", 1) })).where("id", "=", 1).execute();
    result.products = ids;
    return result;
  });
  if (run.products.length) catalogChanged("here", "anything");
  return run;
}

/** When the next sale starts or ends after `at` (ISO), or null when none is due. */
export async function nextSaleMoment(db: Db, at = new Date().toISOString()): Promise<string | null> {
  const row = await db
    .selectFrom("sales")
    .select((eb) => [eb.fn.min<string>("starts_at").filterWhere("starts_at", ">", at).as("start"), eb.fn.min<string>("ends_at").as("end")])
    .where("paused_at", "is", null)
    .where("ends_at", ">", at)
    .executeTakeFirst();
  const moments = [row?.start, row?.end].filter((m): m is string => typeof m === "string" && m > at);
  return moments.length ? moments.sort()[0] : null;
}

// ---------------------------------------------------------------------------------------------
// The clock in the server

const wakers = () => outboxWakers("salesClock");

/** A sale was saved or paused: the clock in this process looks again at once (its next moment may have moved). */
export function wakeSalesClock(): void {
  for (const wake of wakers()) wake(0);
}

export interface SalesClockLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface SalesClock {
  run(): Promise<ClockRun>;
  stop(): Promise<void>;
}

/**
 * Runs the clock at start, at every sale's start and end (to the second), every `pollMs` in between
 * (a product added to a category on sale, a run another instance left undone), and when woken.
 */
export function startSalesClock(options: { db: Db; logger?: SalesClockLogger; pollMs?: number }): SalesClock {
  const { db, logger } = options;
  const pollMs = options.pollMs ?? 60_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<ClockRun> | null = null;
  let again = false;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(), Math.max(0, delayMs));
    timer.unref();
  };
  const run = (): Promise<ClockRun> => {
    if (running) {
      again = true;
      return running;
    }
    running = runSalesClock(db)
      .then((result) => {
        if (result.products.length) logger?.info({ event: "sales_clock", applied: result.applied, restored: result.restored, ownerPriced: result.ownerPriced, products: result.products.length }, "sale prices changed");
        return result;
      })
      .catch((error: unknown) => {
        logger?.error({ event: "sales_clock_failed", err: String((error as Error).message ?? error) }, "the sales clock failed");
        return NOTHING;
      })
      .finally(async () => {
        running = null;
        if (again) {
          again = false;
          schedule(0);
          return;
        }
        const next = await nextSaleMoment(db).catch(() => null);
        // A moment is acted on just after it passes (a sale ends at its end, not before).
        schedule(next ? Math.min(pollMs, Date.parse(next) - Date.now() + 50) : pollMs);
      });
    return running;
  };
  const wake = () => schedule(0);
  wakers().add(wake);
  schedule(0);
  return {
    run,
    async stop() {
      stopped = true;
      wakers().delete(wake);
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
