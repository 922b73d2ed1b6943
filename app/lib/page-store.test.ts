import { randomBytes } from "node:crypto";
import fs from "node:fs";
import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cachedPage, encodedBody, orderTiesOf, PageCache } from "./page-cache.server";
import { PageStore, type StoredPage } from "./page-store.server";

const stores: PageStore[] = [];
const openStore = (maxBytes = 1024 * 1024) => {
  const store = new PageStore({ maxBytes });
  stores.push(store);
  return store;
};
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

const storedPage = (text: string, storedAt = 1_000): StoredPage => ({
  status: 200,
  headers: [["content-type", "text/html; charset=utf-8"]],
  nonce: "n0nce",
  etag: `"${text.length}"`,
  storedAt,
  br: zlib.brotliCompressSync(Buffer.from(text)),
});

/** The files this process holds open that SQLite made for its temporary databases. */
const temporaryFiles = () =>
  fs
    .readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "";
      }
    })
    .filter((target) => target.includes("etilqs_"));

describe("the page store (docs/decisions/203)", () => {
  it("gives back a page as it was written, and nothing for a key it does not hold or a page written before `since`", () => {
    const store = openStore();
    const page = storedPage("<p>Oud Royale ₦45,000</p>", 5_000);
    store.put("en http://shop.test/shop/1", page);
    expect(store.get("en http://shop.test/shop/1", 4_000)).toEqual(page);
    expect(store.get("es http://shop.test/shop/1", 0)).toBeUndefined();
    expect(store.get("en http://shop.test/shop/1", 5_001)).toBeUndefined();
    expect(store.stats()).toMatchObject({ pages: 1, hits: 1, writes: 1 });
  });

  it("replaces a page written again, counting it once", () => {
    const store = openStore();
    store.put("k", storedPage("old", 1_000));
    const bytes = store.stats().bytes;
    store.put("k", storedPage("new", 2_000));
    expect(zlib.brotliDecompressSync(store.get("k", 0)!.br).toString()).toBe("new");
    expect(store.stats()).toMatchObject({ pages: 1, bytes });
  });

  it("stays within its bytes, the oldest written out first, and refuses a page an eighth of its bytes or more", () => {
    const store = openStore(64 * 1024);
    // About 2 KB a page.
    for (let i = 0; i < 200; i++) store.put(`page ${i}`, { ...storedPage(String(i)), br: randomBytes(2_000) });
    const { bytes, pages } = store.stats();
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(pages).toBeGreaterThan(10);
    expect(store.get("page 0", 0)).toBeUndefined();
    expect(store.get("page 199", 0)).toBeDefined();
    expect(store.get(`page ${200 - pages}`, 0)).toBeDefined();
    expect(store.get(`page ${199 - pages}`, 0)).toBeUndefined();

    const big = { ...storedPage(""), br: Buffer.alloc(8 * 1024, 1) };
    store.put("big", big);
    expect(store.get("big", 0)).toBeUndefined();
  });

  it("forgets the pages an order of some products changes, counting what is left", () => {
    const store = openStore();
    const product = (productId: number) => ({ productId, everyOrder: false });
    store.put("en http://shop.test/shop/1", storedPage("one"), product(1));
    store.put("en http://shop.test/shop/2", storedPage("two"), product(2));
    store.put("en http://shop.test/shop/3", storedPage("three"), product(3));
    store.put("en http://shop.test/shop", storedPage("listing"), { productId: null, everyOrder: false });
    store.put("en http://shop.test/shop?sort=best-selling", storedPage("best sellers"), { productId: null, everyOrder: true });
    const bytes = store.stats().bytes;
    store.forgetPagesOf([1, 3]);
    for (const key of ["en http://shop.test/shop/2", "en http://shop.test/shop"]) expect(store.get(key, 0)).toBeDefined();
    for (const key of ["en http://shop.test/shop/1", "en http://shop.test/shop/3", "en http://shop.test/shop?sort=best-selling"]) expect(store.get(key, 0)).toBeUndefined();
    expect(store.stats().pages).toBe(2);
    expect(store.stats().bytes).toBeLessThan(bytes / 2);
    store.forgetPagesOf([]);
    expect(store.stats().pages).toBe(2);
  });

  it("is emptied by clear, and keeps its file in no folder", () => {
    const before = temporaryFiles().length;
    const store = openStore(64 * 1024 * 1024);
    // Past its own small page cache, so SQLite writes the file.
    for (let i = 0; i < 400; i++) store.put(`page ${i}`, { ...storedPage(String(i)), br: Buffer.alloc(8 * 1024, i % 256) });
    const files = temporaryFiles();
    expect(files.length).toBe(before + 1);
    expect(files.at(-1)).toMatch(/ \(deleted\)$/);
    store.clear();
    expect(store.get("page 1", 0)).toBeUndefined();
    expect(store.stats()).toMatchObject({ pages: 0, bytes: 0 });
    store.close();
    expect(temporaryFiles().length).toBe(before);
  });
});

describe("the page cache with a page store", () => {
  const text = (i: number) => `<html><body><p>Perfume ${i}</p>${"<span>x</span>".repeat(200)}</body></html>`;
  const rendered = (i: number, storedAt = Date.now()) =>
    cachedPage(200, new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=0" }), Buffer.from(text(i)), `nonce${i}`, storedAt);

  /** A page as rendered for an asker who took brotli: with their quick copy (quality 1). Brotli shrinks it more at quality 6, as real pages. */
  const renderedWithQuickCopy = () => {
    const html = Array.from({ length: 400 }, (_, k) => `<li data-k="${k}">${["Oud", "Amber", "Musk", "Vetiver", "Rose"][k % 5]} ${(k * 7919) % 1000}</li>`).join("");
    const page = cachedPage(200, new Headers({ "Content-Type": "text/html; charset=utf-8" }), Buffer.from(html), "nonce1", Date.now());
    const quick = zlib.brotliCompressSync(page.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
    page.encoded.br = quick;
    return { html, page, quick };
  };

  it("writes a page memory lets go to the store, and reads it back as it was", () => {
    const store = openStore();
    const cache = new PageCache({ maxEntries: 2, store });
    const first = rendered(1);
    const etag = first.etag;
    cache.set("p1", first, cache.currentGeneration());
    cache.set("p2", rendered(2), cache.currentGeneration());
    expect(store.stats().pages).toBe(0);
    cache.set("p3", rendered(3), cache.currentGeneration());
    expect(store.stats().pages).toBe(1);

    const back = cache.get("p1")!;
    expect(back.stored).toBe(true);
    expect(back.body.toString()).toBe(text(1));
    expect(back.etag).toBe(etag);
    expect(back.nonce).toBe("nonce1");
    expect(back.headers).toEqual(first.headers);
    expect(zlib.brotliDecompressSync(back.encoded.br!).toString()).toBe(text(1));
  });

  it("keeps in the store a page rendered for its asker alone, with the asker's brotli copy, and not one rendered across a catalogue change", () => {
    const store = openStore();
    const cache = new PageCache({ keepFromAsk: 2, store });
    expect(cache.keepVerdict("p1")).toBe("first");
    const { page } = renderedWithQuickCopy();
    cache.keepStored("p1", page, cache.currentGeneration());
    expect(cache.stats().entries).toBe(0);
    const back = cache.get("p1")!;
    expect(back.stored).toBe(true);
    expect(back.encoded.br).toEqual(page.encoded.br);

    const generation = cache.currentGeneration();
    cache.clear();
    cache.keepStored("p2", rendered(2), generation);
    expect(cache.get("p2")).toBeUndefined();
    expect(cache.get("p1")).toBeUndefined();
  });

  it("keeps a page read from the store in memory once asked enough, and then answers it from memory with its own brotli copy", async () => {
    const store = openStore();
    const cache = new PageCache({ keepFromAsk: 2, maxEntries: 1, store });
    expect(cache.keepVerdict("p1")).toBe("first");
    const { html, page, quick } = renderedWithQuickCopy();
    cache.keepStored("p1", page, cache.currentGeneration());
    // Its second ask: read from the store, and kept in memory from now on.
    expect(cache.get("p1")!.stored).toBe(true);
    expect(cache.stats().entries).toBe(1);
    const kept = cache.get("p1")!;
    expect(kept.stored).toBeUndefined();
    expect(kept.body.toString()).toBe(html);
    // Sent as its first asker's quick copy until the thread pool has made the smaller one kept pages are sent as.
    await vi.waitFor(() => expect(kept.encoded.br!.length).toBeLessThan(quick.length));
    expect(zlib.brotliDecompressSync(encodedBody(kept, "br")).toString()).toBe(html);
    // Pushed out of memory later, it is not written to the store again: it is there.
    cache.set("p2", rendered(2), cache.currentGeneration());
    expect(store.stats()).toMatchObject({ pages: 1, writes: 1 });
    expect(cache.get("p1")!.stored).toBe(true);
  });

  it("forgets, after an order, only the pages it may have changed, in memory and in the store (docs/decisions/205)", () => {
    const store = openStore();
    const cache = new PageCache({ maxEntries: 4, store });
    const changed = ["en http://shop.test/shop/12", "es http://shop.test/shop/12.data?lng=es", "en http://shop.test/shop?sort=best-selling&page=2", "en http://shop.test/sitemap.xml"];
    const unchanged = ["en http://shop.test/shop/120", "en http://shop.test/shop/13.data", "en http://shop.test/shop?brand=3", "en http://shop.test/", "es https://shop.test/shop?q=12"];
    // Five in the store (pushed out of memory), four in memory, each kind in both.
    [changed[0], unchanged[0], changed[2], unchanged[2], unchanged[3], changed[1], unchanged[1], changed[3], unchanged[4]].forEach((key, i) => cache.set(key, rendered(i + 1), cache.currentGeneration()));
    expect(store.stats().pages).toBe(5);
    const rendering = cache.currentGeneration();

    cache.forgetPagesOf([12, 40]);
    expect(store.stats().pages).toBe(3);
    expect(cache.stats().entries).toBe(2);
    for (const key of changed) expect(cache.get(key)).toBeUndefined();
    for (const key of unchanged) expect(cache.get(key)).toBeDefined();
    expect(cache.get(unchanged[0])!.body.toString()).toBe(text(2));
    // A page rendered before the order is not kept after it.
    expect(cache.set("en http://shop.test/shop/77", rendered(8), rendering)).toBe(false);
    cache.keepStored("en http://shop.test/shop/78", rendered(9), rendering);
    expect(cache.get("en http://shop.test/shop/78")).toBeUndefined();
  });

  it("tells what an order may change of a page from its key's path and query, whatever its language or address", () => {
    const product = (productId: number) => ({ productId, everyOrder: false });
    expect(orderTiesOf("en http://shop.test/shop/12")).toEqual(product(12));
    expect(orderTiesOf("es https://shop.test:8443/shop/4096.data?lng=es")).toEqual(product(4096));
    expect(orderTiesOf("en http://shop.test/shop/12?sort=best-selling")).toEqual(product(12));
    for (const key of ["en http://shop.test/shop?sort=best-selling", "en http://shop.test/shop.data?q=oud&sort=newest&sort=best-selling", "es http://shop.test/sitemap.xml"]) {
      expect(orderTiesOf(key)).toEqual({ productId: null, everyOrder: true });
    }
    for (const key of ["en http://shop.test/shop", "en http://shop.test/shop?q=12", "en http://shop.test/shop?sort=price-asc", "en http://shop.test/?sort=best-selling", "en http://shop.test/", "en http://shop.test/_root.data", "en http://shop.test/about", "en http://shop.test/shop/12x"]) {
      expect(orderTiesOf(key)).toEqual({ productId: null, everyOrder: false });
    }
  });

  it("sends no page from the store past its time, and does not write one memory lets go past its time", () => {
    let now = 100_000;
    const store = openStore();
    const cache = new PageCache({ ttlMs: 1_000, maxEntries: 1, store, now: () => now });
    cache.keepStored("old", rendered(1, now), cache.currentGeneration());
    cache.set("kept", rendered(2, now), cache.currentGeneration());
    now += 1_001;
    expect(cache.get("old")).toBeUndefined();
    cache.set("next", rendered(3, now), cache.currentGeneration());
    expect(store.stats().pages).toBe(1);
    expect(cache.get("kept")).toBeUndefined();
  });
});
