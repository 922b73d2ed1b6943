import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { type RunningShop, startShop } from "../../scripts/support/shop-server";
import { makeProducts } from "../support/catalogue";
import { freePort } from "../support/free-port";

/**
 * PAGE_CACHE_MIN_ASKS (docs/decisions/201), at its default: a page is kept in memory from its second
 * ask. Its first is rendered for its asker alone, a shopper's with their own parts, and never reaches
 * anyone else. Memory alone here (no page store, PAGE_STORE_MB=0); with the store, which keeps first
 * asks on disk, see page-store.spec.ts.
 */

let shop: RunningShop;
let database: DatabaseHandle;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-asks-"));
  shop = await startShop({ port: await freePort(), dataDir, env: { LOG_LEVEL: "error", SEED_DEMO: "false", PAGE_STORE_MB: "0" } });
  database = await openDatabase({ databaseUrl: null, sqlitePath: path.join(dataDir, "shop.db") });
});

test.afterAll(async () => {
  await shop?.stop();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ask = (url: string, cookie?: string) =>
  fetch(url, { headers: cookie ? { cookie } : {} }).then(async (r) => ({
    via: r.headers.get("x-page-cache"),
    caching: r.headers.get("cache-control"),
    html: (await r.text()).replace(/nonce="[^"]*"/g, ""),
  }));

/** The number in the header's cart badge. */
const badge = (html: string) => html.match(/data-testid="cart-count"[^>]*>(\d+)</)?.[1] ?? null;

test("a page is kept from its second ask, and its first asker's page is theirs alone", async () => {
  const [kept, wanted] = await makeProducts(database.db, [
    { name: "Asked Oud", price: 4_500_000, stock: 5 },
    { name: "Wanted Musk", price: 3_000_000, stock: 5 },
  ]);
  const visitor = await ask(`${shop.base}/shop/${kept}`);
  expect(visitor.via).toBe("first");
  const second = await ask(`${shop.base}/shop/${kept}`);
  expect(second.via).toBe("miss");
  const third = await ask(`${shop.base}/shop/${kept}`);
  expect(third.via).toBe("hit");
  expect(second.html).toBe(visitor.html);
  expect(third.html).toBe(visitor.html);
  // A page's data for a client-side navigation too.
  expect((await ask(`${shop.base}/shop/${kept}.data`)).via).toBe("first");
  expect((await ask(`${shop.base}/shop/${kept}.data`)).via).toBe("miss");
  expect((await ask(`${shop.base}/shop/${kept}.data`)).via).toBe("hit");

  // A shopper with a cart asks first for a page nobody asked for yet: rendered in full for them.
  const added = await fetch(`${shop.base}/cart`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: shop.base, "content-type": "application/x-www-form-urlencoded" },
    body: `intent=add&productId=${kept}`,
  });
  expect(added.status).toBe(303);
  const cart = added.headers.getSetCookie().find((c) => c.startsWith("ub_cart="))!.split(";")[0];
  const own = await ask(`${shop.base}/shop/${wanted}`, cart);
  expect(own.via).toBe("first");
  expect(own.caching).toBe("private, no-cache");
  expect(badge(own.html)).toBe("1");
  // The next visitor's ask is the page's second: rendered for them and kept, with no cart in it.
  const next = await ask(`${shop.base}/shop/${wanted}`);
  expect(next.via).toBe("miss");
  expect(badge(next.html)).toBe("0");
  // The shopper's page is now made from the kept one, their parts filled in.
  const filled = await ask(`${shop.base}/shop/${wanted}`, cart);
  expect(filled.via).toBe("personal");
  expect(badge(filled.html)).toBe("1");
  expect(filled.html).toBe(own.html);
});
