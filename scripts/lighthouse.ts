// npm run bench:lighthouse [-- --runs 3 --url http://127.0.0.1:3000 --port 4760]
// Starts the production server on a scratch data folder with the demo catalogue (or uses --url),
// then runs Lighthouse (mobile, default simulated throttling) on the home page, the shop, a product
// page, the sign-in page, and, as a signed-in customer with two perfumes in the cart, the cart, the
// checkout and the profile (the shopper is made in the scratch database; not with --url), and prints the performance score, LCP, CLS, TBT and the page's JavaScript: the
// gzip size (zlib level 6, as the server compresses) of every script the page loaded, and the bytes
// that actually went over the wire (gzip on plain http; browsers ask for brotli over https).
// With several runs each figure is its median over the runs: a page's LCP comes in two values run to
// run (a simulated render delay of about 0.4 or 1.3 s), which the median run by score did not tell apart.
// Exits with 1 when a page misses a budget: score >= 95, LCP <= 1.5 s, CLS <= 0.05, JS <= 120 KiB gzip.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { openDatabase } from "../app/db/client.server";
import { addLine, userCartId } from "../app/domain/shopper/cart.server";
import { createSession } from "~/http/session.server";
import type { Config } from "../app/platform/config.server";
import { freePort } from "../tests/support/free-port";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    url: { type: "string" },
    // The scratch server's port (default: any free one); Chromium's debugging port is the next one.
    port: { type: "string" },
  },
});
const runs = Math.max(1, Number(values.runs) || 1);

const BUDGET = { score: 95, lcpMs: 1500, cls: 0.05, jsKiB: 120 };
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

async function startServer(): Promise<{ base: string; server: ChildProcess; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-lighthouse-"));
  const port = values.port ? Number(values.port) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let tries = 0; ; tries++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    if (tries > 600 || server.exitCode !== null) throw new Error("the server did not start (did `npm run build` run?)");
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, server, dataDir };
}

/** gzip size of a built script, as the server's compression sends it to a gzip-only client. */
function gzipSize(url: string): number {
  const file = path.join("build/client", new URL(url).pathname);
  if (!fs.existsSync(file)) return 0;
  return zlib.gzipSync(fs.readFileSync(file), { level: 6 }).length;
}

interface Row {
  page: string;
  score: number;
  "LCP s": number;
  CLS: number;
  "TBT ms": number;
  "JS KiB gzip": number;
  "JS KiB sent": number;
  scripts: number;
}

/** A signed-in customer with two perfumes in the cart, made straight in the scratch shop's database; returns the Cookie header. */
async function signedInShopper(dataDir: string): Promise<string> {
  const database = await openDatabase({ databaseUrl: null, sqlitePath: path.join(dataDir, "shop.db") });
  try {
    const { db } = database;
    const at = new Date().toISOString();
    const user = await db
      .insertInto("users")
      .values({ email: `lighthouse-${Date.now()}@example.com`, password_hash: "!", first_name: "Ada", last_name: "Lighthouse", role: "customer", created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const cookie = (await createSession({ db, config: { publicUrl: "http://127.0.0.1" } as Config }, user.id)).split(";")[0];
    const cartId = await userCartId(db, user.id);
    const products = await db.selectFrom("products").select("id").where("stock", ">", 2).where("archived_at", "is", null).orderBy("id").limit(2).execute();
    for (const product of products) await addLine(db, cartId, product.id);
    return cookie;
  } finally {
    await database.close();
  }
}

// A signed-in page is measured in a tab whose browser holds the session cookie: Chromium no longer
// sends a Cookie header given as an extra header, so such pages were measured as the sign-in form.
async function measure(url: string, port: number, cookie?: string): Promise<Row> {
  let browser: Browser | undefined;
  let page: Page | undefined;
  if (cookie) {
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });
    const [name, ...value] = cookie.split("=");
    await browser.setCookie({ name, value: value.join("="), domain: new URL(url).hostname, path: "/", httpOnly: true, sameSite: "Lax" });
    page = await browser.newPage();
  }
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: ["performance"] }, undefined, page).finally(async () => {
    await page?.close();
    await browser?.disconnect();
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  // A page that sent the browser elsewhere (a signed-in page to the sign-in form) is not the page asked for.
  if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`${url} ended on ${lhr.finalDisplayedUrl}`);
  const requests = (lhr.audits["network-requests"].details as { items: { url: string; resourceType?: string; transferSize?: number }[] }).items;
  const scripts = requests.filter((r) => r.resourceType === "Script" && r.url.startsWith(new URL(url).origin));
  const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return {
    page: new URL(url).pathname + (cookie ? " (signed in)" : ""),
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    "LCP s": Math.round(lhr.audits["largest-contentful-paint"].numericValue ?? 0) / 1000,
    CLS: Math.round((lhr.audits["cumulative-layout-shift"].numericValue ?? 0) * 1000) / 1000,
    "TBT ms": Math.round(lhr.audits["total-blocking-time"].numericValue ?? 0),
    "JS KiB gzip": kib(scripts.reduce((sum, r) => sum + gzipSize(r.url), 0)),
    "JS KiB sent": kib(scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0)),
    scripts: scripts.length,
  };
}

/** Each figure's median over the runs of one page. */
function medianRow(results: Row[]): Row {
  const median = (figure: (row: Row) => number) => results.map(figure).sort((a, b) => a - b)[Math.floor(results.length / 2)];
  return {
    ...results[0],
    score: median((r) => r.score),
    "LCP s": median((r) => r["LCP s"]),
    CLS: median((r) => r.CLS),
    "TBT ms": median((r) => r["TBT ms"]),
    "JS KiB gzip": median((r) => r["JS KiB gzip"]),
    "JS KiB sent": median((r) => r["JS KiB sent"]),
    scripts: median((r) => r.scripts),
  };
}

/** Lighthouse now and then fails to record a trace on a busy machine; such a run is repeated. */
async function measureWithRetries(url: string, port: number, cookie?: string): Promise<Row> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, port, cookie);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`${(error as Error).message} (retrying)`);
    }
  }
}

async function main() {
  const started = values.url ? null : await startServer();
  const base = values.url ?? started!.base;
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium", chromeFlags: CHROME_FLAGS, ...(values.port ? { port: Number(values.port) + 1 } : {}) });
  try {
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
    const product = sitemap.match(/<loc>[^<]*?(\/shop\/\d+)<\/loc>/)?.[1];
    if (!product) throw new Error("no product in the sitemap");
    const cookie = started ? await signedInShopper(started.dataDir) : undefined;
    const pages: { path: string; cookie?: string }[] = [
      { path: "/" },
      { path: "/shop" },
      { path: product },
      { path: "/auth" },
      ...(cookie ? ["/cart", "/checkout", "/profile"].map((path) => ({ path, cookie })) : []),
    ];
    // Warm up: the first request of each page renders it; the next ones are served as shoppers get them.
    for (const page of pages) {
      const response = await fetch(base + page.path, { headers: page.cookie ? { Cookie: page.cookie } : {}, redirect: "manual" });
      if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}, not 200`);
    }

    const rows: Row[] = [];
    for (const page of pages) {
      const results: Row[] = [];
      for (let i = 0; i < runs; i++) results.push(await measureWithRetries(base + page.path, chrome.port, page.cookie));
      rows.push(medianRow(results));
    }
    console.log(`\nLighthouse ${runs > 1 ? `(median of ${runs} runs) ` : ""}mobile, simulated throttling, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
    console.table(rows);
    const misses = rows.flatMap((r) => [
      r.score < BUDGET.score ? `${r.page}: score ${r.score} < ${BUDGET.score}` : [],
      r["LCP s"] * 1000 > BUDGET.lcpMs ? `${r.page}: LCP ${r["LCP s"]} s > ${BUDGET.lcpMs / 1000} s` : [],
      r.CLS > BUDGET.cls ? `${r.page}: CLS ${r.CLS} > ${BUDGET.cls}` : [],
      r["JS KiB gzip"] > BUDGET.jsKiB ? `${r.page}: JS ${r["JS KiB gzip"]} KiB > ${BUDGET.jsKiB} KiB` : [],
    ]).flat();
    if (misses.length) {
      console.log(`Over budget:\n  ${misses.join("\n  ")}`);
      process.exitCode = 1;
    } else {
      console.log("Every page is within budget.");
    }
  } finally {
    await chrome.kill();
    if (started) {
      started.server.kill("SIGTERM");
      await new Promise((r) => started.server.once("exit", r));
      fs.rmSync(started.dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
