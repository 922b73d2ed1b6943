import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { type RunningShop, startShop } from "../../scripts/support/shop-server";
import { freePort } from "./free-port";

/**
 * A spec's own production shop (its own port, data folder and SQLite file, no demo catalogue), started
 * before its tests and stopped after them, for settings the shared e2e shop does not run with.
 */
export function shopForThisSpec(folderPrefix: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const own = {} as { shop: RunningShop; database: DatabaseHandle; dataDir: string };
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    own.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix));
    own.shop = await startShop({ port: await freePort(), dataDir: own.dataDir, env: { LOG_LEVEL: "error", SEED_DEMO: "false", ...env }, nodeArgs });
    own.database = await openDatabase({ databaseUrl: null, sqlitePath: path.join(own.dataDir, "shop.db") });
  });
  test.afterAll(async () => {
    await own.shop?.stop();
    await own.database?.close();
    fs.rmSync(own.dataDir, { recursive: true, force: true });
  });
  return own;
}
