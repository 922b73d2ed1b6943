import { expect, test } from "@playwright/test";
import { checkoutOnce, customerWithSession } from "../../scripts/support/shopper";
import { serveNodeArgs } from "../../scripts/support/shop-server";
import { makeProducts } from "../support/catalogue";
import { insertOrder } from "../support/orders";
import { askPage, cartCookie, shopForThisSpec } from "../support/own-shop";

/**
 * The render thread (docs/decisions/206), in the built shop started with `npm run serve`'s flags: it
 * starts at the first anonymous page rendered, with a heap limit of its own, and a catalogue change
 * reaches what it keeps (here 'often bought together', kept a minute) before its next render.
 */

test.describe.configure({ mode: "serial" });

const own = shopForThisSpec("unboxed-render-thread-", { LOG_LEVEL: "info" }, serveNodeArgs());

/** The server's "render thread ready" lines, as logged. */
const readyLines = () =>
  own.shop
    .log()
    .split("\n")
    .filter((line) => line.includes('"render thread ready"'))
    .map((line) => JSON.parse(line) as { heapLimitMb: number });

test("starts at the first anonymous page rendered, not for a shopper's page, with its own heap limit", async () => {
  const [perfume] = await makeProducts(own.database.db, [{ name: "Thread Oud", price: 4_500_000, stock: 5 }]);
  const cart = await cartCookie(own.shop.base, [perfume]);
  // A shopper's pages are theirs: rendered on the main thread.
  expect((await askPage(`${own.shop.base}/cart`, cart)).html).toContain("Thread Oud");
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(readyLines()).toHaveLength(0);

  const first = await askPage(`${own.shop.base}/shop/${perfume}`);
  expect(first.via).toBe("first");
  expect(first.html).toContain("Thread Oud");
  await expect.poll(() => readyLines().length, { timeout: 10_000 }).toBe(1);
  // --max-old-space-size=160 is the main thread's: the thread keeps to its own limit.
  expect(readyLines()[0].heapLimitMb).toBeLessThan(100);
});

test("hears of a catalogue change before its next render", async () => {
  const { db } = own.database;
  const [oud, rose, musk] = await makeProducts(db, [
    { name: "Paired Oud", price: 4_000_000, stock: 20 },
    { name: "Paired Rose", price: 3_000_000, stock: 20 },
    { name: "Lone Musk", price: 2_000_000, stock: 20 },
  ]);
  await expect.poll(() => readyLines().length).toBeGreaterThan(0);
  // The thread reads the rose's 'often bought together' (none yet), and keeps that a minute.
  const data = await fetch(`${own.shop.base}/shop/${rose}.data`);
  expect(data.status).toBe(200);
  // Two orders hold both perfumes, written straight to the database: no change is announced.
  for (let i = 0; i < 2; i++) await insertOrder(db, { channel: "checkout", status: "delivered", items: [{ productId: oud, quantity: 1 }, { productId: rose, quantity: 1 }] });
  // A page of the rose not rendered before (another address) is made from what the thread kept.
  const kept = await askPage(`${own.shop.base}/shop/${rose}?from=thread-test`);
  expect(kept.via).toBe("first");
  expect(kept.html).not.toContain("Often bought together");

  // An order in the shop announces a change (of another perfume's stock).
  const cookie = await customerWithSession(db, `thread-${Date.now()}@example.com`, "Tolu", "Thread");
  expect(await checkoutOnce(own.shop.base, { cookie }, musk)).toMatch(/^UB-\d+$/);
  const fresh = await askPage(`${own.shop.base}/shop/${rose}`);
  expect(fresh.via).toBe("first");
  // The row, up to the end of its section (the related row after it shows the oud too, until now).
  const row = /Often bought together<\/h2>[\s\S]*?<\/section>/.exec(fresh.html)?.[0] ?? "";
  expect(row).toContain("Paired Oud");
});
