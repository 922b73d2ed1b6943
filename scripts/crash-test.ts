// npm run test:crash [-- --cycles 10 --shoppers 8 --postgres | --database-url postgres://(an empty database)]
// Starts the built production server on a scratch shop, has several signed-in shoppers check out over
// and over (add to cart, open the checkout, place the order), kills the server with SIGKILL at a random
// moment, starts it again, and repeats. At the end it lets the server deliver its outbox and compares the
// orders the shop acknowledged (a 303 to /orders/UB-...) with the confirmation e-mails in the outbox,
// and counts empty or half-written .eml files. It prints the figures and fails if an acknowledged order
// has no confirmation or an .eml file is empty. Bounded: every phase has a time limit.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { seedDemoCatalogue } from "../app/db/seed.server";
import { imagesDir } from "../app/platform/images.server";
import { outboxDir } from "../app/platform/mail.server";
import { freePort } from "../tests/support/free-port";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../tests/support/postgres";
import { checkoutOnce, customerWithSession } from "./support/shopper";

const { values } = parseArgs({
  options: {
    cycles: { type: "string", default: "10" },
    shoppers: { type: "string", default: "8" },
    "database-url": { type: "string" },
    /** run on a throwaway PostgreSQL cluster (the test suite's) */
    postgres: { type: "boolean", default: false },
    /** a cycle runs this long (random, in ms) before the kill */
    "min-run": { type: "string", default: "1500" },
    "max-run": { type: "string", default: "4000" },
  },
});
const cycles = Number(values.cycles);
const shopperCount = Number(values.shoppers);
let databaseUrl = values["database-url"] ?? null;
const minRun = Number(values["min-run"]);
const maxRun = Number(values["max-run"]);

const POOL_PER_SHOPPER = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Shopper {
  email: string;
  cookie: string;
}

async function prepareShop(dataDir: string): Promise<{ shoppers: Shopper[]; productIds: number[] }> {
  const database = await openDatabase({ databaseUrl, sqlitePath: path.join(dataDir, "shop.db") });
  try {
    await migrateToLatest(database.db);
    await seedDemoCatalogue(database.db, { imagesDir: imagesDir(dataDir), replace: true });
    // Plenty of stock: the test is about crashes, not about selling out.
    await database.db.updateTable("products").set({ stock: 1_000_000 }).execute();
    const productIds = (await database.db.selectFrom("products").select("id").where("archived_at", "is", null).execute()).map((p) => p.id);
    const shoppers: Shopper[] = [];
    // An account may hold only a few unpaid orders at once (docs/decisions/062): shoppers take the next
    // account of the pool when theirs is full.
    for (let i = 0; i < shopperCount * POOL_PER_SHOPPER; i++) {
      const email = `crash-shopper-${i}@example.com`;
      shoppers.push({ email, cookie: await customerWithSession(database.db, email, `Shopper${i}`) });
    }
    return { shoppers, productIds };
  } finally {
    await database.close();
  }
}

function startServer(dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: "false",
      LOG_LEVEL: "error",
      SMTP_URL: "",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function waitUntilUp(base: string, server: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (server.exitCode !== null) throw new Error("the server exited while starting");
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error("the server did not start within 60 s");
}

async function killHard(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGKILL");
  await exited;
}

async function main() {
  let postgres: ThrowawayPostgres | null = null;
  if (values.postgres && !databaseUrl) {
    postgres = await startThrowawayPostgres();
    databaseUrl = postgres.url;
  }
  try {
    await run();
  } finally {
    await postgres?.stop();
  }
}

async function run() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-crash-"));
  console.log(`Crash test: ${cycles} kill -9 cycles, ${shopperCount} shoppers at once, ${databaseUrl ? "PostgreSQL" : "SQLite"} (${dataDir})`);
  const { shoppers, productIds } = await prepareShop(dataDir);
  const acknowledged = new Set<string>();
  let attempts = 0;
  let nextShopper = 0;
  let failedRequests = 0;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  const deadline = Date.now() + 15 * 60_000;

  try {
    for (let cycle = 1; cycle <= cycles; cycle++) {
      server = startServer(dataDir, port);
      await waitUntilUp(base, server);
      let running = true;
      const loops = Array.from({ length: shopperCount }, async () => {
        let shopper = shoppers[nextShopper++];
        while (running && shopper) {
          attempts++;
          try {
            const number = await checkoutOnce(base, shopper, productIds[Math.floor(Math.random() * productIds.length)]);
            if (number === "full") shopper = shoppers[nextShopper++];
            else if (number) acknowledged.add(number);
          } catch {
            // The server died under this request: not acknowledged.
            failedRequests++;
            await sleep(20);
          }
        }
      });
      await sleep(minRun + Math.random() * (maxRun - minRun));
      await killHard(server);
      running = false;
      await Promise.all(loops);
      process.stdout.write(`  cycle ${cycle}: killed; ${acknowledged.size} orders acknowledged so far\n`);
      if (Date.now() > deadline) throw new Error("the crash test ran past its 15-minute limit");
    }

    // A last start, with nobody shopping: the outbox worker delivers what is left (rows claimed by a
    // killed server wait for their lease to end).
    server = startServer(dataDir, port);
    await waitUntilUp(base, server);
    const database = await openDatabase({ databaseUrl, sqlitePath: path.join(dataDir, "shop.db") });
    let pending = -1;
    const drainStarted = Date.now();
    try {
      for (; Date.now() - drainStarted < 180_000; ) {
        const row = await database.db
          .selectFrom("mail_outbox")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "=", "pending")
          .executeTakeFirstOrThrow();
        pending = Number(row.n);
        if (pending === 0) break;
        await sleep(500);
      }
      const orders = await database.db.selectFrom("orders").select("number").execute();
      const outboxRows = await database.db
        .selectFrom("mail_outbox")
        .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
        .groupBy("status")
        .execute();

      const dir = outboxDir(dataDir);
      const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
      const emls = names.filter((n) => n.endsWith(".eml"));
      const leftovers = names.filter((n) => !n.endsWith(".eml"));
      let zeroByte = 0;
      const confirmations = new Map<string, number>();
      for (const name of emls) {
        const raw = fs.readFileSync(path.join(dir, name), "utf8");
        if (raw.length === 0) zeroByte++;
        const number = raw.match(/^Subject: Your Unboxed order (UB-\d+)\s*$/m)?.[1];
        if (number) confirmations.set(number, (confirmations.get(number) ?? 0) + 1);
      }
      const missing = [...acknowledged].filter((n) => !confirmations.has(n));
      const committedWithout = orders.filter((o) => !confirmations.has(o.number)).length;
      const duplicates = [...confirmations.values()].filter((c) => c > 1).length;

      console.log("\nResults");
      console.table({
        "checkout attempts": attempts,
        "requests cut by a kill": failedRequests,
        "orders acknowledged (303 to the order)": acknowledged.size,
        "orders in the database": orders.length,
        "confirmation e-mails delivered (distinct orders)": confirmations.size,
        "acknowledged orders without a confirmation": missing.length,
        "orders in the database without a confirmation": committedWithout,
        "orders confirmed more than once": duplicates,
        ".eml files": emls.length,
        "zero-byte .eml files": zeroByte,
        "temporary files left": leftovers.length,
        "outbox still pending": pending,
        "outbox by status": outboxRows.map((r) => `${r.status}=${r.n}`).join(" "),
        "seconds to drain after the last start": Math.round((Date.now() - drainStarted) / 1000),
      });
      if (acknowledged.size === 0) {
        console.error("FAILED: no order was acknowledged, so nothing was tested");
        process.exitCode = 1;
      } else if (missing.length || zeroByte || pending !== 0) {
        console.error(`FAILED: ${missing.length} acknowledged orders without a confirmation (${missing.slice(0, 10).join(", ")}), ${zeroByte} zero-byte files, ${pending} pending`);
        process.exitCode = 1;
      } else {
        console.log("OK: every acknowledged order has its confirmation, and no .eml file is empty.");
      }
    } finally {
      await database.close();
    }
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once("exit", r));
      server.kill("SIGTERM");
      await Promise.race([exited, sleep(15_000)]);
      if (server.exitCode === null) await killHard(server);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
