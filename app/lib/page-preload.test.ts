import zlib from "node:zlib";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { cachedPage, PageCache } from "./page-cache.server";
import { AGAIN_AFTER_MS, IDS_AT_ONCE, PagePreload, type PreloadRenderer, STORE_SHARE } from "./page-preload.server";
import { PageStore } from "./page-store.server";

const stores: PageStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

const SHOP = "https://shop.test";
/** The key a visitor's ask of a product page is kept under (PageCache.keyFor). */
const keyOf = (id: number) => `en ${SHOP}/shop/${id}`;
const logger = { info: () => {}, error: () => {} };
/** A product whose render fails on the thread. */
const FAILING = 666;

/**
 * A render thread that is free only when told (`free`), and renders each product's page: its id
 * and the nonce it was rendered with in the HTML; a 404 for ids in `missing`.
 */
function thread(missing: number[] = []) {
  const waiting: ((free: boolean) => void)[] = [];
  const rendered: { url: string; headers: Headers }[] = [];
  let freeFor = 0;
  let dead = false;
  const renderer: PreloadRenderer = {
    whenFree: () => (dead ? Promise.resolve(false) : freeFor > 0 ? (freeFor--, Promise.resolve(true)) : new Promise((resolve) => waiting.push(resolve))),
    render: async (request, context) => {
      rendered.push({ url: request.url, headers: request.headers });
      const id = Number(new URL(request.url).pathname.split("/").pop());
      if (id === FAILING) throw new Error("render failed");
      if (missing.includes(id)) return new Response("gone", { status: 404, headers: { "content-type": "text/html" } });
      return new Response(`<html><p>product ${id}</p><p>${context?.cspNonce}</p>${"x".repeat(2_000)}</html>`, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  };
  return {
    renderer,
    rendered,
    /** lets the next `pages` waits for a free thread through */
    free(pages = Infinity) {
      freeFor = pages;
      while (freeFor > 0 && waiting.length) {
        freeFor--;
        waiting.shift()!(true);
      }
    },
    /** the thread can no longer run */
    die() {
      dead = true;
      for (const resolve of waiting.splice(0)) resolve(false);
    },
  };
}

function preloadOf(options: { ids: number[]; missing?: number[]; storeBytes?: number; now?: () => number }) {
  const store = new PageStore({ maxBytes: options.storeBytes ?? 8 * 1024 * 1024 });
  stores.push(store);
  const cache = new PageCache({ keepFromAsk: 2, store, ttlMs: 30 * 60_000, now: options.now });
  const fake = thread(options.missing);
  const asked: [number, number][] = [];
  const preload = new PagePreload({
    cache,
    renderer: fake.renderer,
    publicUrl: `${SHOP}/`,
    productIds: async (offset, limit) => {
      asked.push([offset, limit]);
      return options.ids.slice(offset, offset + limit);
    },
    loadContext: (nonce) => ({ cspNonce: nonce }) as AppLoadContext,
    logger,
    now: options.now,
  });
  return { cache, store, preload, asked, ...fake };
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) throw new Error("waited 5 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the page store's preload (docs/decisions/211)", () => {
  it("renders each product's page into the store in the order given, under the key a visitor's ask finds, compressed as the store keeps pages", async () => {
    const { cache, preload, rendered, free } = preloadOf({ ids: [7, 3, 9] });
    free();
    preload.wake();
    await until(() => !preload.stats().running);
    expect(rendered.map((r) => r.url)).toEqual([`${SHOP}/shop/7`, `${SHOP}/shop/3`, `${SHOP}/shop/9`]);
    // Asked as an anonymous visitor in the shop's default language, with no cookie.
    expect(rendered[0].headers.get("cookie")).toBeNull();
    expect(rendered[0].headers.get("accept-language")).toBeNull();
    expect(cache.keyFor({ method: "GET", url: "/shop/7", host: "shop.test", protocol: "https" })).toBe(keyOf(7));
    for (const id of [7, 3, 9]) {
      const page = cache.get(keyOf(id))!;
      expect(page.stored).toBe(true);
      expect(page.body.toString()).toContain(`<p>product ${id}</p>`);
      // Kept with the nonce it was rendered with, which every answer of it is sent with.
      expect(page.body.toString()).toContain(`<p>${page.nonce}</p>`);
      expect(zlib.brotliDecompressSync(page.encoded.br!)).toEqual(page.body);
    }
    expect(preload.stats()).toEqual({ passes: 1, rendered: 3, failed: 0, running: false });
  });

  it("renders only while the thread is free, one page at a time", async () => {
    const { preload, rendered, free } = preloadOf({ ids: [1, 2, 3] });
    preload.wake();
    await settled();
    expect(rendered).toHaveLength(0);
    free(1);
    await until(() => rendered.length === 1);
    await settled();
    expect(rendered).toHaveLength(1);
    free();
    await until(() => !preload.stats().running);
    expect(rendered).toHaveLength(3);
  });

  it("skips pages kept already, keeps no page that is not a 200, and reads the ids a page at a time", async () => {
    const ids = Array.from({ length: IDS_AT_ONCE + 5 }, (_, i) => i + 1);
    const { cache, preload, rendered, asked, free } = preloadOf({ ids, missing: [4] });
    cache.set(keyOf(2), cachedPage(200, new Headers({ "content-type": "text/html" }), Buffer.from("kept"), "n", Date.now()), cache.currentGeneration());
    free();
    preload.wake();
    await until(() => !preload.stats().running);
    expect(rendered.map((r) => r.url)).not.toContain(`${SHOP}/shop/2`);
    expect(rendered).toHaveLength(ids.length - 1);
    expect(cache.holds(keyOf(4))).toBe(false);
    expect(cache.holds(keyOf(ids.length))).toBe(true);
    expect(preload.stats().rendered).toBe(ids.length - 2);
    expect(asked).toEqual([
      [0, IDS_AT_ONCE],
      [IDS_AT_ONCE, IDS_AT_ONCE],
    ]);
  });

  it("goes on past a page whose render failed, leaving it to its first ask", async () => {
    const { cache, preload, rendered, free } = preloadOf({ ids: [1, FAILING, 3] });
    free();
    preload.wake();
    await until(() => !preload.stats().running);
    expect(rendered).toHaveLength(3);
    expect(preload.stats()).toMatchObject({ rendered: 2, failed: 1 });
    expect([cache.holds(keyOf(1)), cache.holds(keyOf(FAILING)), cache.holds(keyOf(3))]).toEqual([true, false, true]);
  });

  it("stops once the store holds its share, leaving the rest for the pages shoppers ask", async () => {
    const ids = Array.from({ length: 400 }, (_, i) => i + 1);
    const { cache, store, preload, rendered, free } = preloadOf({ ids, storeBytes: 64 * 1024 });
    free();
    preload.wake();
    await until(() => !preload.stats().running);
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(ids.length);
    expect(cache.storeUse()).toBeGreaterThanOrEqual(STORE_SHARE);
    expect(store.stats().bytes).toBeLessThan(STORE_SHARE * store.maxBytes + 1024);
  });

  it("stops at a catalogue change, keeps no page rendered across it, and starts again at the next wake", async () => {
    const { cache, preload, rendered, free } = preloadOf({ ids: [1, 2, 3] });
    free(1);
    preload.wake();
    await until(() => rendered.length === 1);
    // The thread is busy; the catalogue changes before the next page.
    cache.clear();
    free();
    await until(() => !preload.stats().running);
    expect(rendered).toHaveLength(1);
    preload.wake();
    await until(() => !preload.stats().running);
    expect(preload.stats().passes).toBe(2);
    for (const id of [1, 2, 3]) expect(cache.holds(keyOf(id))).toBe(true);
  });

  it("does not keep a page whose render the catalogue changed under", async () => {
    const { cache, preload, renderer } = preloadOf({ ids: [5] });
    const render = renderer.render;
    renderer.render = async (request, context) => {
      const answer = await render(request, context);
      cache.clear();
      return answer;
    };
    renderer.whenFree = async () => true;
    preload.wake();
    await until(() => !preload.stats().running);
    expect(cache.holds(keyOf(5))).toBe(false);
    expect(preload.stats().rendered).toBe(0);
  });

  it("goes on past an order's change, which lets go only its products' pages; a page rendered across it is not kept", async () => {
    const { cache, preload, rendered, renderer, free } = preloadOf({ ids: [1, 2, 3] });
    const render = renderer.render;
    renderer.render = async (request, context) => {
      const answer = await render(request, context);
      if (request.url.endsWith("/shop/2")) cache.forgetPagesOf([2]);
      return answer;
    };
    free();
    preload.wake();
    await until(() => !preload.stats().running);
    expect(rendered).toHaveLength(3);
    expect([cache.holds(keyOf(1)), cache.holds(keyOf(2)), cache.holds(keyOf(3))]).toEqual([true, false, true]);
    // A whole pass: the next request starts none.
    preload.wake();
    expect(preload.stats()).toMatchObject({ passes: 1, running: false });
  });

  it("starts one pass at a time, and after a whole pass none until its pages are due again", async () => {
    // Pages are kept with the time they were rendered (Date.now): the cache's clock starts there.
    let now = Date.now();
    const { preload, rendered, free } = preloadOf({ ids: [1, 2], now: () => now });
    preload.wake();
    preload.wake();
    free();
    await until(() => !preload.stats().running);
    expect(preload.stats().passes).toBe(1);
    preload.wake();
    expect(preload.stats().running).toBe(false);
    // The pages live 30 minutes (ttlMs above): due again a minute before.
    now += AGAIN_AFTER_MS;
    preload.wake();
    expect(preload.stats().running).toBe(false);
    now += 30 * 60_000 - AGAIN_AFTER_MS;
    preload.wake();
    await until(() => !preload.stats().running);
    expect(preload.stats().passes).toBe(2);
    expect(rendered).toHaveLength(4);
  });

  it("ends its pass when the thread cannot run, and renders nothing on the main thread", async () => {
    const { preload, rendered, die } = preloadOf({ ids: [1, 2] });
    preload.wake();
    await settled();
    die();
    await until(() => !preload.stats().running);
    expect(rendered).toHaveLength(0);
    preload.wake();
    expect(preload.stats().running).toBe(false);
  });
});
