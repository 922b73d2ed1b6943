// npm run bench [-- --products 10000 --shoppers 50 --warmup 10 --duration 30 --database-url postgres://... | --postgres
//                  --baseline-rps N --profile --fixed-urls --port N]
// Seeds a fresh data folder with N products (the demo perfumes and numbered copies of them, sharing
// their images), starts the shop cold as `npm run serve` starts it (its environment and Node flags,
// read from package.json), and sends it realistic shoppers: each a new browser with its own cookies,
// landing on /, paging through the shop, searching, opening random products of the whole catalogue,
// adding one to the cart with the page's own form, opening the cart and browsing on, then leaving for
// a new one. Prints answers/s, latency, errors, the server's peak memory and CPU time per answer
// beside their budgets (design.md, "Performance budgets") with PASS or SHORT.
// --postgres runs on a throwaway PostgreSQL cluster of this machine; --database-url on an empty database.
// --profile writes the server's V8 CPU profile (node --cpu-prof) and prints where its time went.
// --fixed-urls adds a second table: each storefront page alone, loaded by autocannon.
// --port serves the shop on that port of 127.0.0.1 (by default any free one).
import autocannon, { type Client as CannonClient } from "autocannon";
import { sql } from "kysely";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type DatabaseHandle, openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { addDemoCopies } from "../app/db/seed-copies.server";
import { seedDemoCatalogue } from "../app/db/seed.server";
import { imagesDir } from "../app/platform/images.server";
import { SHOP_PAGE_SIZE } from "../app/lib/shop-url";
import { freePort } from "../tests/support/free-port";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../tests/support/postgres";
import { type Answer, addToCartForm, Browser } from "./support/browser";
import { monotonicUs, summariseProfile } from "./support/cpu-profile";
import { cpuMs, cpuMsByThread, localPostmaster, memoryMb, postgresCpuMs } from "./support/process-stats";
import { type RunningShop, serveEnvironment, serveNodeArgs, startShop } from "./support/shop-server";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    shoppers: { type: "string", default: "50" },
    warmup: { type: "string", default: "10" },
    duration: { type: "string", default: "30" },
    "database-url": { type: "string" },
    postgres: { type: "boolean", default: false },
    "baseline-rps": { type: "string" },
    profile: { type: "boolean", default: false },
    "fixed-urls": { type: "boolean", default: false },
    port: { type: "string" },
  },
});
const productCount = Math.max(432, Number(values.products));
const shopperCount = Number(values.shoppers);
const warmupSeconds = Number(values.warmup);
const durationSeconds = Number(values.duration);

const BUDGET = { rps: 450, p99Ms: 200, peakMb: 200, cpuMsPerAnswer: 2.2, largeCatalogueShare: 0.8 };
const verdict = (ok: boolean) => (ok ? "PASS" : "SHORT");

/** What the shoppers draw from: the catalogue's product ids, its last listing page and search words. */
interface Catalogue {
  firstId: number;
  lastId: number;
  lastPage: number;
  words: string[];
}

/** The demo catalogue, then numbered copies of it (same images) up to N products, by multi-row inserts. */
async function seedCatalogue(database: DatabaseHandle, dataDir: string): Promise<Catalogue & { seconds: number }> {
  const { db } = database;
  await migrateToLatest(db);
  // Demo images are rendered once into a folder kept between runs, so seeding measures the catalogue.
  const imageCache = path.join(os.tmpdir(), "unboxed-bench-images");
  await seedDemoCatalogue(db, { imagesDir: imageCache, replace: true });
  fs.cpSync(imageCache, imagesDir(dataDir), { recursive: true });
  const started = Date.now();
  await addDemoCopies(db, productCount);
  const seconds = (Date.now() - started) / 1000;
  const ids = await db.selectFrom("products").select((eb) => [eb.fn.min("id").as("min"), eb.fn.max("id").as("max"), eb.fn.countAll().as("count")]).executeTakeFirstOrThrow();
  const brands = await db.selectFrom("brands").select("name").execute();
  const names = await db.selectFrom("products").select("name").orderBy("id").limit(432).execute();
  // Words shoppers type: brand names and the words of real product names.
  const words = new Set<string>();
  for (const { name } of [...brands, ...names]) for (const word of name.toLowerCase().split(/[^\p{L}]+/u)) if (word.length >= 4) words.add(word);
  return { firstId: Number(ids.min), lastId: Number(ids.max), lastPage: Math.ceil(Number(ids.count) / SHOP_PAGE_SIZE), words: [...words], seconds };
}

const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const pickOne = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

/** The run's answers: latencies of those ended in the measured window, and what went wrong. */
class Tally {
  latencies: number[] = [];
  status4xx = 0;
  status5xx = 0;
  failures = 0;
  failureKinds = new Map<string, number>();
  encodings = new Map<string, number>();
  statuses = new Map<number, number>();
  journeys = 0;
  measuring = false;
  /** latencies and failures by kind of page, to tell which pages are slow */
  byKind = new Map<string, { latencies: number[]; failures: number }>();

  private kind(kind: string) {
    let entry = this.byKind.get(kind);
    if (!entry) this.byKind.set(kind, (entry = { latencies: [], failures: 0 }));
    return entry;
  }

  answer(answer: Answer, kind: string) {
    if (!this.measuring) return;
    this.latencies.push(answer.ms);
    this.kind(kind).latencies.push(answer.ms);
    this.encodings.set(answer.encoding, (this.encodings.get(answer.encoding) ?? 0) + 1);
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    if (answer.status >= 500 || answer.status < 200) this.status5xx++;
    else if (answer.status >= 400) this.status4xx++;
  }

  failure(error: Error, kind: string) {
    if (!this.measuring) return;
    this.failures++;
    this.kind(kind).failures++;
    this.failureKinds.set(error.message, (this.failureKinds.get(error.message) ?? 0) + 1);
  }
}

class Stopped extends Error {}

/** One shopper's visit, from landing to leaving, in a new browser. */
async function journey(base: string, catalogue: Catalogue, tally: Tally, running: () => boolean) {
  const browser = new Browser(base);
  const product = () => `/shop/${randomInt(catalogue.firstId, catalogue.lastId)}`;
  let kind = "";
  const get = async (path: string, pageKind: string, keepBody = false) => {
    if (!running()) throw new Stopped();
    kind = pageKind;
    const answer = await browser.get(path, { keepBody });
    tally.answer(answer, kind);
    return answer;
  };
  try {
    await get("/", "home");
    await get("/shop", "shop, page 1-2");
    await get("/shop?page=2", "shop, page 1-2");
    await get(`/shop?page=${randomInt(3, catalogue.lastPage)}`, "shop, any page");
    await get(`/shop?q=${encodeURIComponent(pickOne(catalogue.words))}`, "search");
    await get(product(), "product");
    await get(product(), "product");
    // The product the shopper adds: its page is the one page read, for its form's fields (a sold-out
    // product's button is disabled: the shopper opens another).
    for (let tries = 0; tries < 5; tries++) {
      const path = product();
      const form = addToCartForm((await get(path, "product", true)).body ?? "");
      if (!form) continue;
      if (!running()) throw new Stopped();
      kind = "add to cart (POST)";
      const added = await browser.postForm("/cart", form, path);
      tally.answer(added, kind);
      if (added.status === 303 && added.location) await get(new URL(added.location, base).pathname + new URL(added.location, base).search, "product, after adding");
      break;
    }
    await get("/cart", "cart");
    await get(product(), "product");
    await get(product(), "product");
    if (tally.measuring) tally.journeys++;
  } catch (error) {
    if (!(error instanceof Stopped)) tally.failure(error as Error, kind);
  } finally {
    browser.close();
  }
}

/** Closed-loop shoppers: `shopperCount` at once, each followed by a new one when it leaves. */
async function shopperRun(base: string, pid: number, catalogue: Catalogue, postmaster: number | null) {
  const tally = new Tally();
  let running = true;
  // The shoppers arrive over the first second, as they would, not in one step.
  const loops = Array.from({ length: shopperCount }, async (_, i) => {
    await new Promise((r) => setTimeout(r, (i * 1000) / shopperCount));
    while (running) await journey(base, catalogue, tally, () => running);
  });
  await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
  const before = { cpu: cpuMs(pid), threads: cpuMsByThread(pid), db: postgresCpuMs(postmaster), at: performance.now(), ownCpu: process.cpuUsage() };
  tally.measuring = true;
  const fromUs = monotonicUs();
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryMb(pid).rss)), 250);
  await new Promise((r) => setTimeout(r, durationSeconds * 1000));
  tally.measuring = false;
  const window = { fromUs, toUs: monotonicUs() };
  clearInterval(sampler);
  const seconds = (performance.now() - before.at) / 1000;
  const after = { cpu: cpuMs(pid), threads: cpuMsByThread(pid), db: postgresCpuMs(postmaster), ownCpu: process.cpuUsage(before.ownCpu) };
  running = false;
  await Promise.all(loops);
  const answers = tally.latencies.length;
  const perAnswer = (from: number | null, to: number | null) => (from === null || to === null || answers === 0 ? null : (to - from) / answers);
  return {
    tally,
    window,
    answers,
    rps: answers / seconds,
    cpuMs: perAnswer(before.cpu, after.cpu),
    byThread: Object.entries(after.threads).map(([kind, ms]) => [kind, perAnswer(before.threads[kind] ?? 0, ms)] as const),
    dbCpuMs: perAnswer(before.db, after.db),
    clientCpuMs: (after.ownCpu.user + after.ownCpu.system) / 1000 / Math.max(1, answers),
    peakRss,
    ...quantiles(tally.latencies),
  };
}

function quantiles(list: number[]) {
  const sorted = Float64Array.from(list).sort();
  const at = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** The optional second table: each anonymous storefront page alone, 10 connections for 10 s (autocannon). */
async function fixedUrls(base: string, pid: number, catalogue: Catalogue) {
  const pages = ["/", "/shop", "/shop?page=3", `/shop?q=${catalogue.words[0]}`, `/shop/${catalogue.lastId}`, "/cart"];
  // autocannon keeps each body as a decoded string; the bench drops them so the client costs less.
  const dropBodies = (client: CannonClient) => {
    const answers = (client as unknown as { pipelinedRequests?: { addBody?: (data: Buffer) => void } }).pipelinedRequests;
    if (answers?.addBody) answers.addBody = () => {};
  };
  const rows = [];
  for (const page of pages) {
    const options = { url: base + page, connections: 10, headers: { "accept-encoding": "gzip, br" }, setupClient: dropBodies };
    await autocannon({ ...options, duration: 2 });
    const cpuBefore = cpuMs(pid);
    const result = await autocannon({ ...options, duration: 10 });
    const cpuAfter = cpuMs(pid);
    const cpu = cpuBefore === null || cpuAfter === null ? "" : ((cpuAfter - cpuBefore) / result.requests.total).toFixed(2);
    rows.push({ page, "answers/s": Math.round(result.requests.average), "p50 ms": result.latency.p50, "p99 ms": result.latency.p99, "CPU ms/answer": cpu, "non-2xx": result.non2xx, errors: result.errors });
  }
  return rows;
}

const ms = (value: number | null, digits = 1) => (value === null || Number.isNaN(value) ? "n/a" : `${value.toFixed(digits)} ms`);

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-bench-"));
  const profileDir = values.profile ? fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-bench-profile-")) : null;
  let postgres: ThrowawayPostgres | null = null;
  let shop: RunningShop | null = null;
  try {
    if (values.postgres) postgres = await startThrowawayPostgres();
    const databaseUrl = postgres?.url ?? values["database-url"] ?? null;
    const databaseName = databaseUrl ? "PostgreSQL" : "SQLite";
    console.log(`Seeding ${productCount} products into ${databaseName} (${dataDir}) ...`);
    const database = await openDatabase({ databaseUrl, sqlitePath: path.join(dataDir, "shop.db") });
    let catalogue: Awaited<ReturnType<typeof seedCatalogue>>;
    let postmaster: number | null = null;
    try {
      catalogue = await seedCatalogue(database, dataDir);
      if (databaseUrl) {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
        postmaster = localPostmaster(Number(rows[0].pid));
      }
    } finally {
      await database.close();
    }

    const nodeArgs = [...serveNodeArgs(), ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])];
    const env = { ...serveEnvironment(), SEED_DEMO: "false" };
    const startedAt = performance.now();
    shop = await startShop({ port: values.port ? Number(values.port) : await freePort(), dataDir, databaseUrl, env, nodeArgs });
    const startMs = performance.now() - startedAt;
    const idle = memoryMb(shop.pid);
    const load = os.loadavg()[0];
    const run = await shopperRun(shop.base, shop.pid, catalogue, postmaster);
    const peakMb = Math.max(run.peakRss, memoryMb(shop.pid).peak);
    const t = run.tally;

    console.log(
      `\nShoppers: ${productCount} products (seeded in ${catalogue.seconds.toFixed(1)} s), ${databaseName}, ${os.cpus().length} cores, ` +
        `started cold as npm run serve (${Object.entries(serveEnvironment()).map(([k, v]) => `${k}=${v} `).join("")}node ${serveNodeArgs().join(" ")}${profileDir ? " --cpu-prof" : ""}) in ${Math.round(startMs)} ms, ` +
        `idle ${idle.rss} MB; ${shopperCount} shoppers at once, ${warmupSeconds} s warm-up, ${durationSeconds} s measured; load average ${load.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after`,
    );
    const errors = t.status5xx + t.failures;
    const checks: Record<string, string>[] = [
      { figure: "answers/s", value: run.rps.toFixed(0), budget: `>= ${BUDGET.rps}`, verdict: verdict(run.rps >= BUDGET.rps) },
      { figure: "p50 / p95 latency", value: `${ms(run.p50)} / ${ms(run.p95)}`, budget: "", verdict: "" },
      { figure: "p99 latency", value: ms(run.p99), budget: `<= ${BUDGET.p99Ms} ms`, verdict: verdict(run.p99 <= BUDGET.p99Ms) },
      { figure: "errors (5xx, failed requests)", value: `${errors} (${t.status5xx} + ${t.failures})`, budget: "0", verdict: verdict(errors === 0) },
      { figure: "4xx answers", value: String(t.status4xx), budget: "", verdict: "" },
      { figure: "server peak memory (RSS, since start)", value: `${peakMb} MB`, budget: `<= ${BUDGET.peakMb} MB`, verdict: verdict(peakMb <= BUDGET.peakMb) },
      { figure: "server CPU per answer (all threads)", value: ms(run.cpuMs, 2), budget: `about ${BUDGET.cpuMsPerAnswer} ms`, verdict: run.cpuMs === null ? "" : verdict(run.cpuMs <= BUDGET.cpuMsPerAnswer * 1.05) },
      ...run.byThread.map(([kind, value]) => ({ figure: `  of which ${kind}`, value: ms(value, 2), budget: "", verdict: "" })),
    ];
    if (postmaster !== null) checks.push({ figure: "PostgreSQL CPU per answer", value: ms(run.dbCpuMs, 2), budget: "", verdict: "" });
    checks.push({ figure: "bench client CPU per answer", value: ms(run.clientCpuMs, 2), budget: "", verdict: "" });
    const baseline = Number(values["baseline-rps"]);
    if (baseline > 0) {
      const share = run.rps / baseline;
      checks.push({ figure: `answers/s against ${baseline}/s`, value: `${(100 * share).toFixed(0)} %`, budget: `>= ${100 * BUDGET.largeCatalogueShare} %`, verdict: verdict(share >= BUDGET.largeCatalogueShare) });
    }
    console.table(checks);
    const counts = (map: Map<string | number, number>) => [...map].map(([name, n]) => `${name} ×${n}`).join(", ");
    console.log(`${run.answers} answers in ${t.journeys} whole journeys; statuses ${counts(t.statuses)}; encodings ${counts(t.encodings)}${t.failureKinds.size ? `; failures: ${[...t.failureKinds].map(([m, n]) => `${m} ×${n}`).join(", ")}` : ""}`);

    const byKind = [...t.byKind].map(([page, { latencies, failures }]) => {
      const q = quantiles(latencies);
      return { page, answers: latencies.length, "p50 ms": Math.round(q.p50), "p95 ms": Math.round(q.p95), "p99 ms": Math.round(q.p99), failures };
    });
    console.table(byKind);

    if (values["fixed-urls"]) {
      console.log("\nEach page alone (anonymous, 10 connections, 10 s after 2 s):");
      console.table(await fixedUrls(shop.base, shop.pid, catalogue));
    }
    await shop.stop();
    shop = null;
    if (profileDir) {
      const file = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
      if (!file) throw new Error(`The server wrote no CPU profile into ${profileDir}`);
      const summary = summariseProfile(path.join(profileDir, file), run.window);
      console.log(`\nServer CPU profile of the measured window (main thread): ${path.join(profileDir, file)}; ${summary.busyMs} ms busy, ${summary.idleMs} ms idle`);
      console.table(summary.modules);
      console.table(summary.functions);
    }
  } finally {
    await shop?.stop();
    await postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
