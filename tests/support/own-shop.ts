import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { type RunningShop, startShop } from "../../scripts/support/shop-server";
import { freePort } from "./free-port";

/**
 * A spec's own production shop (its own port, data folder and SQLite file, no demo catalogue), started
 * before its tests and stopped after them, for settings the shared e2e shop does not run with. Without
 * the page store's preload unless `env` asks for it, as the shared shop: the specs check how pages are
 * rendered at their asks.
 */
export function shopForThisSpec(folderPrefix: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const own = {} as { shop: RunningShop; database: DatabaseHandle; dataDir: string };
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    own.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix));
    own.shop = await startShop({ port: await freePort(), dataDir: own.dataDir, env: { LOG_LEVEL: "error", SEED_DEMO: "false", PAGE_PRELOAD: "false", ...env }, nodeArgs });
    own.database = await openDatabase({ databaseUrl: null, sqlitePath: path.join(own.dataDir, "shop.db") });
  });
  test.afterAll(async () => {
    await own.shop?.stop();
    await own.database?.close();
    fs.rmSync(own.dataDir, { recursive: true, force: true });
  });
  return own;
}

/** A storefront page as a shopper gets it: how it was made (X-Page-Cache), its Cache-Control, and its HTML without nonces. */
export const askPage = (url: string, cookie?: string) =>
  fetch(url, { headers: cookie ? { cookie } : {} }).then(async (r) => ({
    via: r.headers.get("x-page-cache"),
    caching: r.headers.get("cache-control"),
    html: (await r.text()).replace(/nonce="[^"]*"/g, ""),
  }));

/** The number in the header's cart badge. */
export const cartBadge = (html: string) => html.match(/data-testid="cart-count"[^>]*>(\d+)</)?.[1] ?? null;

/** The ub_cart cookie of a new cart holding one of each product, added as the shop's form does. */
export async function cartCookie(base: string, productIds: number[]): Promise<string> {
  let cookie = "";
  for (const productId of productIds) {
    const added = await fetch(`${base}/cart`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body: `intent=add&productId=${productId}`,
    });
    expect(added.status).toBe(303);
    cookie ||= added.headers.getSetCookie().find((c) => c.startsWith("ub_cart="))!.split(";")[0];
  }
  return cookie;
}
