import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { formatNaira } from "~/lib/money";
import { type RunningShop, startShop } from "../../scripts/support/shop-server";
import { makeProducts, setSize } from "../support/catalogue";
import { freePort } from "../support/free-port";

/**
 * PAGE_CACHE_TTL_S (docs/decisions/187): a change written to the database outside the shop sends no
 * notice, so a kept page shows it only once the page has expired, and the setting decides when; in
 * memory and in the page store alike (docs/decisions/203).
 */

const TTL_S = 2;
let shop: RunningShop;
let database: DatabaseHandle;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-ttl-"));
  shop = await startShop({ port: await freePort(), dataDir, env: { LOG_LEVEL: "error", SEED_DEMO: "false", PAGE_PRELOAD: "false", PAGE_CACHE_TTL_S: String(TTL_S) } });
  database = await openDatabase({ databaseUrl: null, sqlitePath: path.join(dataDir, "shop.db") });
});

test.afterAll(async () => {
  await shop?.stop();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a change made outside the shop reaches a kept page when PAGE_CACHE_TTL_S has passed, not before", async () => {
  const [id] = await makeProducts(database.db, [{ name: "Kept Oud", price: 4_500_000, stock: 5 }]);
  const page = () => fetch(`${shop.base}/shop/${id}`).then(async (r) => ({ cache: r.headers.get("x-page-cache"), html: await r.text() }));

  // Its first ask is rendered and kept in the page store; its second read from there and kept in
  // memory from then on (PAGE_CACHE_MIN_ASKS, docs/decisions/201, 203).
  const stored = Date.now();
  expect((await page()).cache).toBe("first");
  expect((await page()).cache).toBe("stored");
  await setSize(database.db, id, { price: 3_900_000 });
  const kept = await page();
  expect(kept.cache).toBe("hit");
  expect(kept.html).toContain(formatNaira(4_500_000));
  expect(Date.now() - stored).toBeLessThan(TTL_S * 1000);

  await new Promise((r) => setTimeout(r, TTL_S * 1000 + 200));
  // Past its time in memory and in the store; asked again since, it is kept again at once.
  const fresh = await page();
  expect(fresh.cache).toBe("miss");
  expect(fresh.html).toContain(formatNaira(3_900_000));
  expect(fresh.html).not.toContain(formatNaira(4_500_000));
});
