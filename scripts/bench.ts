// npm run bench [-- --products 10000 --duration 10 --connections 10 --database-url postgres://... --no-page-cache]
// Seeds a scratch database with N products, starts the production server on it, loads each
// storefront page with autocannon and prints req/s, p50 and p99 per page and the server's peak memory.
// Requests carry no cookies, like a first visit, so they are served from the anonymous page cache
// (docs/decisions/011) unless --no-page-cache renders every one of them.
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { seedDemoCatalogue } from "../app/db/seed.server";
import { imagesDir } from "../app/lib/images.server";
import { freePort } from "../tests/support/free-port";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    "database-url": { type: "string" },
    "no-page-cache": { type: "boolean", default: false },
  },
});
const productCount = Number(values.products);
const duration = Number(values.duration);
const connections = Number(values.connections);

/** Storefront pages to load; `{id}` is replaced by a real product id. */
const PAGES = ["/", "/shop", "/shop?brand=2&min=50000&max=300000", "/shop?q=eau&page=3", "/shop/{id}"];

/** The demo catalogue, then copies of it (new names, prices and dates, same images) up to N products. */
async function seedScratch(dataDir: string, databaseUrl: string | null): Promise<number> {
  const database = await openDatabase({ databaseUrl, sqlitePath: path.join(dataDir, "shop.db") });
  try {
    await migrateToLatest(database.db);
    await seedDemoCatalogue(database.db, { imagesDir: imagesDir(dataDir), replace: true });
    const demo = await database.db.selectFrom("products").selectAll().execute();
    const start = Date.now() - 400 * 24 * 3600_000;
    const rows = [];
    for (let i = demo.length; i < productCount; i++) {
      const source = demo[i % demo.length];
      const at = new Date(start + i * 60_000).toISOString();
      rows.push({
        ...source,
        id: undefined,
        slug: `${source.slug}-${i}`,
        name: `${source.name} #${i}`,
        price: source.price + (i % 97) * 100,
        created_at: at,
        updated_at: at,
      });
    }
    for (let i = 0; i < rows.length; i += 500) {
      await database.db.insertInto("products").values(rows.slice(i, i + 500).map(({ id: _id, ...r }) => r)).execute();
    }
    const last = await database.db.selectFrom("products").select("id").orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
    return last.id;
  } finally {
    await database.close();
  }
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-bench-"));
  const databaseUrl = values["database-url"] ?? null;
  console.log(`Seeding ${productCount} products into ${databaseUrl ? "PostgreSQL" : "SQLite"} (${dataDir}) ...`);
  const productId = await seedScratch(dataDir, databaseUrl);

  const port = await freePort();
  const server = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      PAGE_CACHE: values["no-page-cache"] ? "false" : "true",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries++) {
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (tries > 300 || server.exitCode !== null) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows: Record<string, string | number>[] = [];
    for (const page of PAGES) {
      const url = base + page.replace("{id}", String(productId));
      // A short warm-up, so the figures are of a running server, not of its first requests.
      await autocannon({ url, connections, duration: 2 });
      const result = await autocannon({ url, connections, duration });
      rows.push({
        page,
        "req/s": Math.round(result.requests.average),
        "p50 ms": result.latency.p50,
        "p99 ms": result.latency.p99,
        "non-2xx": result.non2xx,
        errors: result.errors,
      });
    }
    const cache = values["no-page-cache"] ? "page cache off" : "page cache on";
    console.log(`\n${productCount} products, ${connections} connections, ${duration} s per page, ${os.cpus().length} cores, ${cache}, load ${os.loadavg()[0].toFixed(1)}`);
    console.table(rows);
    console.log(`server peak memory (RSS): ${peakRssMb(server.pid!)} MB`);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
