// npm run bench [-- --products 10000 --duration 10 --connections 10 --database-url postgres://... --no-page-cache
//                  --scenarios anonymous,cart,signed-in --mixed-connections 100 --mixed-duration 60 --mixed-warmup 10
//                  --no-mixed --no-pages --no-compression --orders-every 2 --mixed-shoppers 0.3 --mixed-signed-in 0.5
//                  --node-args="--max-old-space-size=256"]
// Seeds a scratch database with N products, starts the production server on it and loads it with
// autocannon, then prints every figure beside its budget (design.md, "Performance budgets") with PASS
// or SHORT:
// - each storefront page for three shoppers: anonymous (no cookie: the page cache serves them unless
//   --no-page-cache), with a cart (an anonymous cart cookie) and signed in (a session with a cart, and
//   a full "Recently viewed" row from products viewed before);
// - a mixed run (default 100 connections for 60 s, after 10 s of the same traffic at 10 connections): browsing, search and product pages, 30 % of requests
//   from shoppers with a cart, some of which change it; its p99, errors and the server's peak memory, and
//   its answers counted by how they were made (kept, kept on disk, filled in, rendered, other);
//   --mixed-shoppers and --mixed-signed-in change the share of requests from shoppers with a cart and
//   the share of those signed in (0.3 and 0.5: the budget's run), to tell what each kind of shopper costs;
//   With --orders-every S, a customer places an order (checkout, paid on delivery) every S seconds
//   during it, as a shop that sells does: each order changes the catalogue's stock;
// - the time to seed the catalogue and the server's idle memory;
// - beside each run, the server's CPU time per answer (all its threads, from Linux's /proc): the cost of
//   a page, which moves less than req/s and p99 with whatever else the machine is doing; with a
//   PostgreSQL on the same machine, its CPU time per answer too (all its processes).
// Every request asks for compression as browsers do (`Accept-Encoding: gzip, deflate, br`), so the cost
// of compressing the answers is measured too; --no-compression asks for none (autocannon's own way).
// Demo images are rendered once into a folder kept between runs, so seeding measures the catalogue.
import autocannon, { type Client as CannonClient, type Request as CannonRequest } from "autocannon";
import { sql } from "kysely";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type Db, type DatabaseHandle, openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { addDemoCopies } from "../app/db/seed-copies.server";
import { seedDemoCatalogue } from "../app/db/seed.server";
import { addLine, userCartId } from "../app/domain/cart.server";
import { serveEnvironment, serveNodeArgs } from "./support/shop-server";
import { checkoutOnce } from "./support/shopper";
import { recordView } from "../app/domain/recently-viewed.server";
import { createSession } from "../app/domain/sessions.server";
import type { Config } from "../app/lib/config.server";
import { RECENT_SHOWN } from "../app/lib/recently-viewed";
import { imagesDir } from "../app/lib/images.server";
import { freePort } from "../tests/support/free-port";

/** The mixed run's shares the budget is for: requests from shoppers with a cart, and of those, signed in. */
const BUDGET_SHARES = { shoppers: 0.3, signedIn: 0.5 };

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    "database-url": { type: "string" },
    "no-page-cache": { type: "boolean", default: false },
    scenarios: { type: "string", default: "anonymous,cart,signed-in" },
    "mixed-connections": { type: "string", default: "100" },
    "mixed-duration": { type: "string", default: "60" },
    "mixed-warmup": { type: "string", default: "10" },
    "no-mixed": { type: "boolean", default: false },
    "no-pages": { type: "boolean", default: false },
    "no-compression": { type: "boolean", default: false },
    "node-args": { type: "string" },
    "orders-every": { type: "string", default: "0" },
    "mixed-shoppers": { type: "string", default: String(BUDGET_SHARES.shoppers) },
    "mixed-signed-in": { type: "string", default: String(BUDGET_SHARES.signedIn) },
  },
});
const productCount = Math.max(432, Number(values.products));
const duration = Number(values.duration);
const connections = Number(values.connections);
const pageCache = !values["no-page-cache"];
const databaseUrl = values["database-url"] ?? null;
/** What every request asks for besides its shopper's cookie. */
const compressed = !values["no-compression"];
const ASKED: Record<string, string> = compressed ? { "accept-encoding": "gzip, deflate, br" } : {};
/** The mixed run's share of requests from shoppers with a cart, and the share of those signed in. */
const mixedShoppers = Number(values["mixed-shoppers"]);
const mixedSignedIn = Number(values["mixed-signed-in"]);
if (!(mixedShoppers >= 0 && mixedShoppers <= 1 && mixedSignedIn >= 0 && mixedSignedIn <= 1)) throw new Error("--mixed-shoppers and --mixed-signed-in are shares, from 0 to 1");
/** Seconds between two orders during the mixed run; 0: none. */
const ordersEvery = Number(values["orders-every"]);

const BUDGET = {
  /** storefront pages at 10 connections, for every shopper: served warm (10,000 products) or uncached (100,000) */
  pages: pageCache ? { rps: 2000, p99: 20 } : { rps: 150, p99: 50 },
  mixed: { p99: 100, peakMb: 250 },
  idleMb: 120,
  seedSeconds: 60,
};

/** Storefront pages to load; `{id}` is replaced by a real product id. */
const PAGES = ["/", "/shop", "/shop?brand=2&min=50000&max=300000", "/shop?q=eau&page=3", "/shop?q=inten", "/shop/{id}"];
const SEARCH_WORDS = ["eau", "intense", "parfum", "oud", "rose", "noir", "creme", "bleu", "sauv", "musk"];
const CART_POOL = 60;
const ACCOUNTS = 20;

type Scenario = "anonymous" | "cart" | "signed-in";

interface Shoppers {
  /** anonymous cart cookies, each cart with two lines */
  carts: { cookie: string; productIds: number[] }[];
  /** session cookies of signed-in customers, each with a cart of two lines */
  accounts: { cookie: string; productIds: number[] }[];
  /** session cookies of customers with an empty cart, each to place one order (--orders-every) */
  buyers: string[];
  /** products with stock to spare: an order of one bottle does not sell them out */
  inStock: number[];
  productIds: { min: number; max: number };
  categories: number[];
  brands: number[];
}

const cookieOf = (setCookie: string) => setCookie.split(";")[0];
const pickOne = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

/** The demo catalogue, then copies of it (new names, prices and dates, same images) up to N products. */
async function seedCatalogue(database: DatabaseHandle, dataDir: string): Promise<{ seconds: number; imageSeconds: number }> {
  const { db } = database;
  await migrateToLatest(db);
  const imageCache = path.join(os.tmpdir(), "unboxed-bench-images");
  const imageStart = Date.now();
  await seedDemoCatalogue(db, { imagesDir: imageCache, replace: true });
  fs.cpSync(imageCache, imagesDir(dataDir), { recursive: true });
  const rowsStart = Date.now();
  // The same bulk path as `npm run seed -- --products N` (numbered copies of the demo perfumes).
  await addDemoCopies(db, productCount);
  const end = Date.now();
  return { seconds: (end - rowsStart) / 1000, imageSeconds: (rowsStart - imageStart) / 1000 };
}

async function makeShoppers(db: Db): Promise<Shoppers> {
  const context = { db, config: { publicUrl: "http://127.0.0.1" } as Config };
  const inStock = await db.selectFrom("products").select("id").where("stock", ">", 20).orderBy("id", "desc").limit(200).execute();
  const twoProducts = (i: number) => [inStock[(2 * i) % inStock.length].id, inStock[(2 * i + 1) % inStock.length].id];
  const at = new Date().toISOString();
  const carts: Shoppers["carts"] = [];
  for (let i = 0; i < CART_POOL; i++) {
    const id = randomBytes(24).toString("base64url");
    await db.insertInto("carts").values({ id, user_id: null, created_at: at, updated_at: at }).execute();
    const productIds = twoProducts(i);
    for (const productId of productIds) await addLine(db, id, productId);
    carts.push({ cookie: `ub_cart=${id}`, productIds });
  }
  const accounts: Shoppers["accounts"] = [];
  // A customer (no password: signed in by a session made here) and their session cookie.
  const customer = async (name: string) => {
    const user = await db
      .insertInto("users")
      .values({ email: `${name.toLowerCase().replace(" ", "-")}-${randomBytes(4).toString("hex")}@example.com`, password_hash: "!", first_name: "Bench", last_name: name, role: "customer", created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { user, cookie: cookieOf(await createSession(context, user.id)) };
  };
  for (let i = 0; i < ACCOUNTS; i++) {
    const { user, cookie } = await customer(`Shopper ${i}`);
    const cartId = await userCartId(db, user.id);
    const productIds = twoProducts(CART_POOL + i);
    for (const productId of productIds) await addLine(db, cartId, productId);
    // A shopper who has browsed: a full "Recently viewed" row on every product page they open.
    for (let v = 1; v <= RECENT_SHOWN; v++) await recordView(db, user.id, inStock[(i + v) % inStock.length].id);
    accounts.push({ cookie, productIds });
  }
  const buyers: string[] = [];
  const buyersNeeded = ordersEvery > 0 ? Math.ceil(Number(values["mixed-duration"]) / ordersEvery) + 1 : 0;
  for (let i = 0; i < buyersNeeded; i++) buyers.push((await customer(`Buyer ${i}`)).cookie);
  const ids = await db.selectFrom("products").select((eb) => [eb.fn.min("id").as("min"), eb.fn.max("id").as("max")]).executeTakeFirstOrThrow();
  const categories = (await db.selectFrom("categories").select("id").execute()).map((r) => r.id);
  const brands = (await db.selectFrom("brands").select("id").execute()).map((r) => r.id);
  return { carts, accounts, buyers, inStock: inStock.map((row) => row.id), productIds: { min: Number(ids.min), max: Number(ids.max) }, categories, brands };
}

function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024);
}

/** Starts a new peak (VmHWM) for the process; Linux allows it for one's own processes. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Clock ticks a second, the unit of /proc's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();

/** A process's /proc stat fields after its name: state, ppid, ... (utime and stime are 11 and 12, its waited-for children's 13 and 14). */
function statFields(pid: number, thread?: number): string[] {
  const stat = fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
}

const ticksToMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS;

/**
 * The process's CPU time so far, user and system, in ms: all its threads, or its main thread alone (the
 * one JavaScript runs on: what a busy server runs out of first); null where there is no /proc.
 */
function cpuMs(pid: number, mainThread = false): number | null {
  try {
    const fields = statFields(pid, mainThread ? pid : undefined);
    return ticksToMs(Number(fields[11]) + Number(fields[12]));
  } catch {
    return null;
  }
}

/**
 * PostgreSQL's process (its postmaster) when it runs on this machine, from the PID of a backend the
 * seeding connection talks to; null for SQLite or a database elsewhere. Its CPU is then counted too:
 * on one machine the server, its database and autocannon share the cores.
 */
async function localPostgres(database: DatabaseHandle): Promise<number | null> {
  if (!databaseUrl) return null;
  try {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
    const backend = Number(rows[0].pid);
    const postmaster = Number(statFields(backend)[1]);
    const isPostgres = (pid: number) => fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
    return isPostgres(backend) && isPostgres(postmaster) ? postmaster : null;
  } catch {
    return null;
  }
}

/** PostgreSQL's CPU time so far, in ms: its postmaster's own and its ended processes', and every live process's it started. */
function databaseCpuMs(postmaster: number | null): number | null {
  if (postmaster === null) return null;
  try {
    const own = statFields(postmaster);
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = statFields(Number(entry));
        if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // The process ended between listing and reading: its time is now its parent's.
      }
    }
    return ticksToMs(ticks);
  } catch {
    return null;
  }
}

/** The server's CPU time per answer between two readings, as printed ("" where there is no /proc). */
function cpuPerAnswer(before: number | null, after: number | null, answers: number): number | string {
  return before === null || after === null || answers === 0 ? "" : Number(((after - before) / answers).toFixed(2));
}

const verdict = (ok: boolean) => (ok ? "PASS" : "SHORT");

/** Node's own flags for the server: those `npm run serve` gives it (its memory limits), unless --node-args says otherwise. */
function serverNodeArgs(): string[] {
  if (values["node-args"] !== undefined) return values["node-args"].split(/\s+/).filter(Boolean);
  return serveNodeArgs();
}

async function startServer(dataDir: string): Promise<{ server: ChildProcess; base: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, [...serverNodeArgs(), "build/server.js"], {
    env: {
      ...serveEnvironment(),
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      PAGE_CACHE: pageCache ? "true" : "false",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (tries > 300 || server.exitCode !== null) throw new Error("the server did not start (did `npm run build` run?)");
    await new Promise((r) => setTimeout(r, 100));
  }
  return { server, base };
}

async function benchPages(base: string, pid: number, postmaster: number | null, shoppers: Shoppers): Promise<Record<string, string | number>[]> {
  const scenarios = values.scenarios.split(",").map((s) => s.trim()) as Scenario[];
  const rows: Record<string, string | number>[] = [];
  const productId = shoppers.productIds.max;
  for (const scenario of scenarios) {
    const cookie = scenario === "cart" ? shoppers.carts[0].cookie : scenario === "signed-in" ? shoppers.accounts[0].cookie : undefined;
    for (const page of PAGES) {
      const url = base + page.replace("{id}", String(productId));
      const headers = { ...ASKED, ...(cookie ? { cookie } : {}) };
      // A short warm-up, so the figures are of a running server, not of its first requests.
      await autocannon({ url, connections, duration: 2, headers, setupClient: dropBodies });
      const cpuBefore = cpuMs(pid);
      const databaseBefore = databaseCpuMs(postmaster);
      const result = await autocannon({ url, connections, duration, headers, setupClient: dropBodies });
      const cpu = cpuPerAnswer(cpuBefore, cpuMs(pid), result.requests.total);
      const databaseCpu = cpuPerAnswer(databaseBefore, databaseCpuMs(postmaster), result.requests.total);
      const rps = Math.round(result.requests.average);
      const ok = rps >= BUDGET.pages.rps && result.latency.p99 <= BUDGET.pages.p99 && result.non2xx === 0 && result.errors === 0;
      rows.push({
        shopper: scenario,
        page,
        "req/s": rps,
        "p50 ms": result.latency.p50,
        "p99 ms": result.latency.p99,
        "CPU ms/answer": cpu,
        ...(postmaster === null ? {} : { "DB CPU ms/answer": databaseCpu }),
        "non-2xx": result.non2xx,
        errors: result.errors,
        budget: `>= ${BUDGET.pages.rps}/s, p99 <= ${BUDGET.pages.p99}`,
        verdict: verdict(ok),
      });
    }
  }
  return rows;
}

/** One request of the mixed run: `mixedShoppers` of them from shoppers with a cart (30 %), `mixedSignedIn` of those signed in (half; a tenth of their requests change the cart), the rest anonymous. */
function mixedRequest(base: string, shoppers: Shoppers): CannonRequest {
  const product = () => shoppers.productIds.min + Math.floor(Math.random() * (shoppers.productIds.max - shoppers.productIds.min + 1));
  const withCart = Math.random() < mixedShoppers;
  const shopper = withCart ? (Math.random() < mixedSignedIn ? pickOne(shoppers.accounts) : pickOne(shoppers.carts)) : null;
  const headers: Record<string, string> = shopper ? { ...ASKED, cookie: shopper.cookie } : { ...ASKED };
  const r = Math.random();
  if (shopper && r < 0.1) {
    const body = `intent=${Math.random() < 0.5 ? "increment" : "decrement"}&productId=${pickOne(shopper.productIds)}`;
    return { method: "POST", path: "/cart", body, headers: { ...headers, origin: base, "content-type": "application/x-www-form-urlencoded" } };
  }
  if (shopper && r < 0.2) return { method: "GET", path: "/cart", headers };
  const paths = [
    () => "/",
    () => "/shop",
    () => `/shop?page=${1 + Math.floor(Math.random() * 20)}`,
    () => `/shop?category=${pickOne(shoppers.categories)}`,
    () => `/shop?brand=${pickOne(shoppers.brands)}&min=50000&max=300000`,
    () => `/shop?q=${pickOne(SEARCH_WORDS)}`,
    () => `/shop?q=${pickOne(SEARCH_WORDS)}&page=2`,
    () => `/shop/${product()}`,
    () => `/shop/${product()}`,
    () => `/shop/${product()}`,
  ];
  return { method: "GET", path: pickOne(paths)(), headers };
}

/**
 * autocannon keeps each answer's body as a string (`body += chunk`, decoding its compressed bytes) for
 * hooks the bench does not use: about 40 % of the bench's own CPU, taken from the server on the machine
 * they share. The client's queue of answers then drops the bytes; they are still counted as they arrive,
 * and an answer still ends when its body does.
 */
function dropBodies(client: CannonClient) {
  const answers = (client as unknown as { pipelinedRequests?: { addBody?: (data: Buffer) => void } }).pipelinedRequests;
  if (!answers?.addBody) throw new Error("autocannon's client no longer keeps bodies in pipelinedRequests.addBody: see dropBodies in scripts/bench.ts");
  answers.addBody = () => {};
}

/** How an answer of the mixed run was made, told by its X-Page-Cache header (page-cache.server.ts). */
const ANSWER_KINDS: Record<string, string> = { hit: "kept page", stored: "kept on disk", personal: "filled in", miss: "rendered", bypass: "rendered", first: "rendered, first ask", outranked: "rendered, outranked" };

const STRETCH_MS = 10_000;

/** The p50 and p99 of these latencies (sorted in place), in whole ms. */
function quantiles(list: number[]): { "p50 ms": number; "p99 ms": number } {
  list.sort((a, b) => a - b);
  const at = (q: number) => Math.round(list[Math.min(list.length - 1, Math.floor(q * list.length))]);
  return { "p50 ms": at(0.5), "p99 ms": at(0.99) };
}

/**
 * Counts the mixed run's answers by how they were made, with their latency: a kept page, a page kept
 * on disk (docs/decisions/203), a shopper's page filled in (its anonymous page rendered first when not
 * kept), a page rendered, a page rendered for its asker alone as its first ask (docs/decisions/201), or
 * anything else
 * (the cart page, cart changes and their refusals). Tells where the run's time went, and how much of
 * the catalogue the page cache held; and the latency of each 10 s stretch of the run, which falls as
 * the page store fills.
 */
function answerTally() {
  const latencies = new Map<string, number[]>();
  const stretches: number[][] = [];
  let startedAt = 0;
  let runMs = 0;
  const setupClient = (client: CannonClient) => {
    dropBodies(client);
    let kind = "other";
    // autocannon's parser hands over its answer's head, the headers as names and values in turn.
    client.on("headers", (head) => {
      const { headers } = head as unknown as { headers: string[] };
      kind = "other";
      for (let i = 0; i < headers.length; i += 2) if (headers[i].toLowerCase() === "x-page-cache") kind = ANSWER_KINDS[headers[i + 1]] ?? "other";
    });
    client.on("response", (_status, _bytes, ms) => {
      let list = latencies.get(kind);
      if (!list) latencies.set(kind, (list = []));
      list.push(ms);
      (stretches[Math.floor(Math.min(Date.now() - startedAt, runMs - 1) / STRETCH_MS)] ??= []).push(ms);
    });
  };
  /** Stretches are counted from now, for a run of `seconds` (its last answers counted in its last stretch). */
  const start = (seconds: number) => {
    startedAt = Date.now();
    runMs = seconds * 1000;
  };
  const rows = () => {
    const total = [...latencies.values()].reduce((sum, list) => sum + list.length, 0);
    return [...latencies].map(([kind, list]) => ({ answers: kind, share: `${((100 * list.length) / total).toFixed(1)} %`, ...quantiles(list) }));
  };
  const byStretch = () =>
    [...stretches.entries()].filter(([, list]) => list).map(([i, list]) => ({ seconds: `${(i * STRETCH_MS) / 1000}–${Math.min((i + 1) * STRETCH_MS, runMs) / 1000}`, answers: list.length, ...quantiles(list) }));
  return { setupClient, start, rows, byStretch };
}

/**
 * With --orders-every S, one order every S seconds until stopped: a buyer of its own (each has one
 * order) checks out one bottle of a product with stock to spare, as a shopper without JavaScript does.
 * Resolves to the number of orders placed; an order refused fails the bench.
 */
function ordersDuring(base: string, shoppers: Shoppers): { stop: () => Promise<number> } {
  if (ordersEvery <= 0) return { stop: async () => 0 };
  let placed = 0;
  let next = 0;
  let refused: string | null = null;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    const cookie = shoppers.buyers[next++];
    if (!cookie || refused) return;
    running = running.then(async () => {
      const number = await checkoutOnce(base, { cookie }, pickOne(shoppers.inStock)).catch((error: Error) => error.message);
      if (number && /^UB-\d+$/.test(number)) placed++;
      else refused = String(number);
    });
  }, ordersEvery * 1000);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      if (refused) throw new Error(`an order during the mixed run was refused (${refused})`);
      return placed;
    },
  };
}

async function benchMixed(base: string, pid: number, postmaster: number | null, shoppers: Shoppers) {
  const mixedConnections = Number(values["mixed-connections"]);
  const mixedDuration = Number(values["mixed-duration"]);
  const mixedWarmup = Number(values["mixed-warmup"]);
  const tally = answerTally();
  const run = (connections: number, duration: number, setupClient?: ReturnType<typeof answerTally>["setupClient"]) =>
    autocannon({
      url: base,
      connections,
      duration,
      setupClient,
      // Each request is drawn anew, keeping autocannon's own headers (Host among them).
      requests: [
        {
          setupRequest: (request) => {
            const next = mixedRequest(base, shoppers);
            return { ...request, ...next, headers: { ...request.headers, ...next.headers } };
          },
        },
      ],
    });
  // The figures are of a running server, as the pages' are: a server just started compiles its code
  // while it answers, and 100 connections at once made its first requests wait seconds.
  if (mixedWarmup > 0) await run(10, mixedWarmup);
  const peakReset = resetPeak(pid);
  const cpuBefore = cpuMs(pid);
  const mainBefore = cpuMs(pid, true);
  const databaseBefore = databaseCpuMs(postmaster);
  const orders = ordersDuring(base, shoppers);
  tally.start(mixedDuration);
  const result = await run(mixedConnections, mixedDuration, tally.setupClient);
  const placed = await orders.stop();
  const cpu = cpuPerAnswer(cpuBefore, cpuMs(pid), result.requests.total);
  const mainCpu = cpuPerAnswer(mainBefore, cpuMs(pid, true), result.requests.total);
  const databaseCpu = cpuPerAnswer(databaseBefore, databaseCpuMs(postmaster), result.requests.total);
  const peakMb = memoryMb(pid, "VmHWM");
  const serverErrors = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => Number(code) >= 500)
    .reduce((sum, [, s]) => sum + (s as { count: number }).count, 0);
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}:${(s as { count: number }).count}`)
    .join(" ");
  return {
    figures: {
      connections: mixedConnections,
      seconds: mixedDuration,
      "req/s": Math.round(result.requests.average),
      "p50 ms": result.latency.p50,
      "CPU ms/answer": cpu,
      "main thread ms/answer": mainCpu,
      ...(postmaster === null ? {} : { "DB CPU ms/answer": databaseCpu }),
      statuses,
      "errors (timeouts among them)": result.errors,
      timeouts: result.timeouts,
      ...(ordersEvery > 0 ? { "orders placed": placed } : {}),
    },
    answers: tally.rows(),
    stretches: tally.byStretch(),
    checks: [
      { figure: `mixed p99${mixedShoppers === BUDGET_SHARES.shoppers && mixedSignedIn === BUDGET_SHARES.signedIn ? "" : " (not the budget's shares)"}`, value: `${result.latency.p99} ms`, budget: `<= ${BUDGET.mixed.p99} ms`, verdict: verdict(result.latency.p99 <= BUDGET.mixed.p99) },
      // autocannon counts a timeout among its errors too
      { figure: "mixed errors (connection, timeout, 5xx)", value: result.errors + serverErrors, budget: "0", verdict: verdict(result.errors + serverErrors === 0) },
      {
        figure: `mixed peak memory (RSS${peakReset ? "" : ", since start"})`,
        value: `${peakMb} MB`,
        budget: `<= ${BUDGET.mixed.peakMb} MB`,
        verdict: verdict(peakMb <= BUDGET.mixed.peakMb),
      },
    ],
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-bench-"));
  let server: ChildProcess | null = null;
  try {
    console.log(`Seeding ${productCount} products into ${databaseUrl ? "PostgreSQL" : "SQLite"} (${dataDir}) ...`);
    const database = await openDatabase({ databaseUrl, sqlitePath: path.join(dataDir, "shop.db") });
    let seed: { seconds: number; imageSeconds: number };
    let shoppers: Shoppers;
    let postmaster: number | null;
    try {
      seed = await seedCatalogue(database, dataDir);
      shoppers = await makeShoppers(database.db);
      postmaster = await localPostgres(database);
    } finally {
      await database.close();
    }
    const started = await startServer(dataDir);
    server = started.server;
    const { base } = started;
    const pid = server.pid!;
    await new Promise((r) => setTimeout(r, 2000));
    const idleMb = memoryMb(pid, "VmRSS");

    const heading = `${productCount} products, ${databaseUrl ? "PostgreSQL" : "SQLite"}, ${os.cpus().length} cores, page cache ${pageCache ? "on" : "off"}, ${compressed ? "compressed answers asked for" : "no compression asked for"}, node ${serverNodeArgs().join(" ") || "(no flags)"}${Object.entries(serveEnvironment()).filter(([name]) => name !== "NODE_ENV").map(([name, value]) => ` ${name}=${value}`).join("")}`;
    if (!values["no-pages"]) {
      const rows = await benchPages(base, pid, postmaster, shoppers);
      console.log(`\nPages: ${heading}, ${connections} connections, ${duration} s each, load ${os.loadavg()[0].toFixed(1)}`);
      console.table(rows);
    }
    const checks: Record<string, string | number>[] = [
      { figure: `seed ${productCount} products`, value: `${seed.seconds.toFixed(1)} s`, budget: `< ${BUDGET.seedSeconds} s`, verdict: verdict(seed.seconds < BUDGET.seedSeconds) },
      { figure: "idle memory (RSS after start)", value: `${idleMb} MB`, budget: `<= ${BUDGET.idleMb} MB`, verdict: verdict(idleMb <= BUDGET.idleMb) },
    ];
    if (!values["no-mixed"]) {
      const mixed = await benchMixed(base, pid, postmaster, shoppers);
      const shares = `${Math.round(100 * mixedShoppers)} % of requests from shoppers with a cart, ${Math.round(100 * mixedSignedIn)} % of them signed in`;
      console.log(`\nMixed: ${heading}, ${shares}, load ${os.loadavg()[0].toFixed(1)}`);
      console.table([mixed.figures]);
      console.table(mixed.answers);
      console.log("The mixed run's latency by 10 s stretch:");
      console.table(mixed.stretches);
      checks.push(...mixed.checks);
    }
    console.log(`\nBudgets (demo images ${seed.imageSeconds.toFixed(1)} s, rendered once and kept in ${path.join(os.tmpdir(), "unboxed-bench-images")}):`);
    console.table(checks);
  } finally {
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server!.once("exit", r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
