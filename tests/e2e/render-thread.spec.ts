import http from "node:http";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { checkoutOnce, customerWithSession } from "../../scripts/support/shopper";
import { serveNodeArgs } from "../../scripts/support/shop-server";
import { makeProducts } from "../support/catalogue";
import { insertOrder } from "../support/orders";
import { askPage, cartBadge, cartCookie, shopForThisSpec } from "../support/own-shop";

/**
 * The render thread (docs/decisions/206), in the built shop started with `npm run serve`'s flags: it
 * starts at the first page rendered at the door, with a heap limit of its own, renders shoppers' cart
 * pages as theirs, and a catalogue change reaches what it keeps (here 'often bought together', kept a
 * minute) before its next render. It compresses the pages it renders as the client accepts
 * (docs/decisions/207).
 */

test.describe.configure({ mode: "serial" });

const own = shopForThisSpec("unboxed-render-thread-", { LOG_LEVEL: "info" }, serveNodeArgs());

/** The names of the perfumes this spec made on the cart page's lines (its table). */
const lineNames = (html: string) => [...(/<table[\s\S]*?<\/table>/.exec(html)?.[0] ?? "").matchAll(/>(Thread \w+)<\/a>/g)].map((m) => m[1]);

/** The server's "render thread ready" lines, as logged. */
const readyLines = () =>
  own.shop
    .log()
    .split("\n")
    .filter((line) => line.includes('"render thread ready"'))
    .map((line) => JSON.parse(line) as { heapLimitMb: number });

test("starts at the first page rendered at the door, with its own heap limit; renders each shopper's cart page as theirs", async () => {
  const [oud, rose] = await makeProducts(own.database.db, [
    { name: "Thread Oud", price: 4_500_000, stock: 5 },
    { name: "Thread Rose", price: 3_500_000, stock: 5 },
  ]);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(readyLines()).toHaveLength(0);

  const first = await askPage(`${own.shop.base}/shop/${oud}`);
  expect(first.via).toBe("first");
  expect(first.html).toContain("Thread Oud");
  await expect.poll(() => readyLines().length, { timeout: 10_000 }).toBe(1);
  // --max-old-space-size=160 is the main thread's: the thread keeps to its own limit.
  expect(readyLines()[0].heapLimitMb).toBeLessThan(100);

  // A shopper's cart page is rendered there too (docs/decisions/207), from their own cookies: two
  // shoppers in turn each see their own perfume and count, in a page no shared cache keeps.
  const oudCart = await cartCookie(own.shop.base, [oud]);
  const roseCart = await cartCookie(own.shop.base, [rose, oud]);
  for (let round = 0; round < 3; round++) {
    const [a, b] = await Promise.all([askPage(`${own.shop.base}/cart`, oudCart), askPage(`${own.shop.base}/cart`, roseCart)]);
    expect([cartBadge(a.html), cartBadge(b.html)]).toEqual(["1", "2"]);
    expect(lineNames(a.html)).toEqual(["Thread Oud"]);
    expect(lineNames(b.html).sort()).toEqual(["Thread Oud", "Thread Rose"]);
    expect([a.caching, b.caching]).toEqual(["private, no-store", "private, no-store"]);
  }
  expect(readyLines()).toHaveLength(1);
});

/** A page's answer as sent: its encoding and bytes, and the page they make. */
function rawPage(url: string, acceptEncoding: string): Promise<{ via: string | undefined; encoding: string | undefined; bytes: Buffer; html: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          const page = encoding === "br" ? zlib.brotliDecompressSync(bytes) : encoding === "gzip" ? zlib.gunzipSync(bytes) : bytes;
          resolve({ via: res.headers["x-page-cache"] as string | undefined, encoding, bytes, html: page.toString() });
        });
      })
      .on("error", reject);
  });
}

// render-thread.test.ts checks that the thread hands its copy over. Whether the page kept holds that
// copy or one made again at its first hit, the bytes sent are the same: here each decodes to the page.
test("compresses the pages it renders as the client accepts; a page kept is sent as its first asker got it", async () => {
  const { db } = own.database;
  const [amber, vetiver] = await makeProducts(db, [
    { name: "Squeezed Amber", price: 3_500_000, stock: 20 },
    { name: "Gzipped Vetiver", price: 2_500_000, stock: 20 },
  ]);
  await expect.poll(() => readyLines().length).toBeGreaterThan(0);
  const page = `${own.shop.base}/shop/${amber}`;
  const first = await rawPage(page, "gzip, deflate, br");
  expect([first.via, first.encoding]).toEqual(["first", "br"]);
  expect(first.html).toContain("Squeezed Amber");
  const gzipped = await rawPage(`${own.shop.base}/shop/${vetiver}`, "gzip");
  expect([gzipped.via, gzipped.encoding]).toEqual(["first", "gzip"]);
  expect(gzipped.html).toContain("Gzipped Vetiver");
  // Asked again: from the page store, as the thread's copy for its first asker.
  const stored = await rawPage(page, "br");
  expect(stored.via).toBe("stored");
  expect(stored.bytes.equals(first.bytes)).toBe(true);

  // An order of it empties its pages; asked often, it is rendered again and kept in memory, as its
  // asker was sent it.
  const cookie = await customerWithSession(db, `squeeze-${Date.now()}@example.com`, "Ada", "Squeeze");
  expect(await checkoutOnce(own.shop.base, { cookie }, amber)).toMatch(/^UB-\d+$/);
  const rendered = await rawPage(page, "gzip, deflate, br");
  expect([rendered.via, rendered.encoding]).toEqual(["miss", "br"]);
  expect(rendered.html).toContain("Squeezed Amber");
  const kept = await rawPage(page, "gzip, deflate, br");
  expect([kept.via, kept.encoding]).toEqual(["hit", "br"]);
  expect(kept.bytes.equals(rendered.bytes)).toBe(true);
  const plain = await rawPage(page, "identity");
  expect([plain.via, plain.encoding]).toEqual(["hit", undefined]);
  expect(plain.html).toBe(kept.html);
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
