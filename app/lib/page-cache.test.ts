import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { cachedPage, encodedBody, isAnsweredInOrder, isCompressedWhole, PageCache } from "./page-cache.server";

const request = (url: string, extra: { method?: string; cookie?: string; acceptLanguage?: string } = {}) => ({
  method: extra.method ?? "GET",
  url,
  host: "shop.test",
  protocol: "https",
  cookie: extra.cookie,
  acceptLanguage: extra.acceptLanguage,
});

const page = (text: string, storedAt = Date.now()) => cachedPage(200, new Headers({ "Content-Type": "text/html" }), Buffer.from(text), "nonce", storedAt);

describe("the anonymous page cache", () => {
  it("shares only GETs of storefront pages by visitors without our cookies, keyed by URL and language", () => {
    const cache = new PageCache();
    expect(cache.keyFor(request("/shop?brand=2"))).toBe("en https://shop.test/shop?brand=2");
    for (const path of ["/", "/shop", "/shop/12", "/shop/12.data", "/shop.data?page=2", "/_root.data", "/about", "/faq", "/contact", "/returns-refunds", "/sitemap.xml", "/robots.txt"]) {
      expect(cache.keyFor(request(path)), path).not.toBeNull();
    }
    for (const path of ["/cart", "/auth", "/auth/reset-password?token=x", "/profile", "/admin", "/admin/products", "/shop/abc", "/shop/1/edit", "/checkout"]) {
      expect(cache.keyFor(request(path)), path).toBeNull();
    }
    expect(cache.keyFor(request("/shop", { method: "POST" }))).toBeNull();
    expect(cache.keyFor(request("/shop", { method: "HEAD" }))).toBeNull();
    for (const cookie of ["ub_session=abc", "__Host-ub_session=abc", "lng=es; ub_cart=xyz", "ub_toast=1", "a=1;ub_anything=2"]) {
      expect(cache.keyFor(request("/shop", { cookie })), cookie).toBeNull();
    }
    expect(cache.keyFor(request(`/shop?q=${"x".repeat(3000)}`))).toBeNull();
  });

  it("gives a shopper with only a session or a cart the anonymous page's key, to fill in their parts", () => {
    const cache = new PageCache();
    const anonymous = cache.keyFor(request("/shop?brand=2", { cookie: "lng=es" }));
    expect(anonymous).toBe("es https://shop.test/shop?brand=2");
    expect(cache.sharedKeyFor(request("/shop?brand=2", { cookie: "ub_session=a; lng=es; ub_cart=b" }))).toBe(anonymous);
    // The session's cookie under https (sessions.server.ts) is one of ours too.
    expect(cache.sharedKeyFor(request("/shop?brand=2", { cookie: "__Host-ub_session=a; lng=es; ub_cart=b" }))).toBe(anonymous);
    expect(cache.sharedKeyFor(request("/shop/12", { cookie: "ub_cart=b" }))).toBe("en https://shop.test/shop/12");
    for (const path of ["/", "/shop", "/about", "/faq", "/contact", "/returns-refunds"]) {
      expect(cache.sharedKeyFor(request(path, { cookie: "ub_session=a" })), path).not.toBeNull();
    }
    // A signed-in shopper's product page too (docs/decisions/150): their forms and row are filled in.
    expect(cache.sharedKeyFor(request("/shop/12", { cookie: "ub_session=a" }))).toBe("en https://shop.test/shop/12");
    expect(cache.sharedKeyFor(request("/shop/12?reviews=2", { cookie: "ub_cart=b; ub_session=a; lng=es" }))).toBe("es https://shop.test/shop/12?reviews=2");
    // Rendered in full: a one-time message, an unknown cookie of ours, a language chosen in the URL,
    // client-side data requests, other pages.
    for (const cookie of ["ub_session=a; ub_toast=t", "ub_cart=b; ub_other=1", "lng=es", ""]) {
      expect(cache.sharedKeyFor(request("/shop", { cookie })), cookie).toBeNull();
    }
    for (const path of ["/shop?lng=es", "/shop.data", "/_root.data", "/cart", "/profile", "/checkout", "/sitemap.xml", "/shop/12.data", "/shop/12?lng=es", "/shop/12/edit"]) {
      expect(cache.sharedKeyFor(request(path, { cookie: "ub_session=a" })), path).toBeNull();
    }
    expect(cache.sharedKeyFor(request("/shop", { method: "POST", cookie: "ub_cart=b" }))).toBeNull();
    expect(cache.sharedKeyFor(request("/shop/12", { method: "POST", cookie: "ub_session=a" }))).toBeNull();
    expect(cache.sharedKeyFor(request("/shop/12", { cookie: "ub_session=a; ub_toast=t" }))).toBeNull();
  });

  it("keys by the shopper's language: ?lng=, then the cookie, then Accept-Language", () => {
    const cache = new PageCache();
    expect(cache.keyFor(request("/shop", { cookie: "lng=es; other=1" }))).toBe("es https://shop.test/shop");
    expect(cache.keyFor(request("/shop", { acceptLanguage: "es-ES,es;q=0.9" }))).toBe("es https://shop.test/shop");
    expect(cache.keyFor(request("/shop?lng=en", { cookie: "lng=es" }))).toBe("en https://shop.test/shop?lng=en");
    expect(cache.keyFor(request("/shop", { cookie: "lng=zz", acceptLanguage: "de" }))).toBe("en https://shop.test/shop");
  });

  it("stores a page with an ETag, makes each compressed copy once when first asked, and forgets everything when the catalogue changes", async () => {
    const cache = new PageCache();
    const text = `<html>${"hello ".repeat(500)}</html>`;
    const entry = page(text);
    expect(entry.etag).toMatch(/^"[\w-]{27}"$/);
    expect(entry.headers).toEqual([["content-type", "text/html"]]);
    const generation = cache.currentGeneration();
    expect(cache.set("a", entry, generation)).toBe(true);
    expect(cache.get("a")).toBe(entry);
    expect(entry.encoded).toEqual({});
    expect(cache.stats().bytes).toBe(text.length);
    const br = encodedBody(entry, "br");
    expect(zlib.brotliDecompressSync(br).toString()).toBe(text);
    expect(encodedBody(entry, "br")).toBe(br);
    const gzip = encodedBody(entry, "gzip");
    expect(zlib.gunzipSync(gzip).toString()).toBe(text);
    expect(cache.stats().bytes).toBe(text.length + br.length + gzip.length);
    // What is counted is what is held: each copy owns exactly its bytes.
    expect([br.buffer.byteLength, gzip.buffer.byteLength]).toEqual([br.length, gzip.length]);
    cache.clear();
    expect(cache.get("a")).toBeUndefined();
    // A page rendered before the change is not stored after it.
    expect(cache.set("a", entry, generation)).toBe(false);
    expect(cache.set("a", entry, cache.currentGeneration())).toBe(true);
  });

  it("keeps a page ten minutes unless told otherwise (docs/decisions/187)", () => {
    let now = 0;
    const cache = new PageCache({ now: () => now });
    cache.set("a", page("a", 0), cache.currentGeneration());
    now = 599_999;
    expect(cache.get("a")).toBeDefined();
    now = 600_001;
    expect(cache.get("a")).toBeUndefined();
  });

  it("keeps a page from its first ask unless told otherwise, and from its Nth when told, counting asks over one to two TTLs", () => {
    expect(new PageCache().keepVerdict("en http://shop/shop/1")).toBe("keep");
    let now = 1_000_000;
    const cache = new PageCache({ keepFromAsk: 2, ttlMs: 60_000, now: () => now });
    // The same page, whoever asks (an anonymous visitor, or a shopper whose page is made from it).
    expect(cache.keepVerdict("en http://shop/shop/1")).toBe("first");
    expect(cache.keepVerdict("es http://shop/shop/1")).toBe("first");
    expect(cache.keepVerdict("en http://shop/shop/1")).toBe("keep");
    expect(cache.keepVerdict("en http://shop/shop/1")).toBe("keep");
    // An ask of the last period still counts; one two periods back is forgotten.
    now += 61_000;
    expect(cache.keepVerdict("es http://shop/shop/1")).toBe("keep");
    expect(cache.keepVerdict("en http://shop/shop/2")).toBe("first");
    now += 61_000;
    now += 61_000;
    expect(cache.keepVerdict("en http://shop/shop/2")).toBe("first");
    const thrice = new PageCache({ keepFromAsk: 3 });
    expect([1, 2, 3, 4].map(() => thrice.keepVerdict("en http://shop/faq"))).toEqual(["first", "first", "keep", "keep"]);
  });

  it("once full, keeps a page only if asked more often than the page it would push out (docs/decisions/202)", () => {
    let now = 1_000_000;
    const cache = new PageCache({ keepFromAsk: 2, maxEntries: 2, ttlMs: 60_000, now: () => now });
    const keep = (key: string) => {
      const verdict = cache.keepVerdict(key);
      if (verdict === "keep") cache.set(key, page(key, now), cache.currentGeneration());
      return verdict;
    };
    const asked = (key: string, times: number) => Array.from({ length: times }, () => cache.get(key) ?? keep(key)).at(-1);
    // Not full: kept from the second ask, as before.
    expect(asked("home", 2)).toBe("keep");
    expect(asked("shop/1", 2)).toBe("keep");
    // Full: shop/1 would go next (home asked since), asked twice as shop/2 now is: not kept.
    expect(cache.get("home")).toBeDefined();
    expect(asked("shop/2", 2)).toBe("outranked");
    // Asked a third time, shop/2 outranks shop/1, which goes; home, asked three times, stays.
    expect(keep("shop/2")).toBe("keep");
    expect(cache.get("shop/1")).toBeUndefined();
    expect(cache.get("home")).toBeDefined();
    expect(cache.get("shop/2")).toBeDefined();
    // A page whose time is up counts for nothing: the next page asked enough takes its place.
    now += 60_001;
    expect(asked("shop/3", 2)).toBe("keep");
    // Every page kept from its first ask (PAGE_CACHE_MIN_ASKS=1): nothing counted, nothing outranked.
    const always = new PageCache({ maxEntries: 1 });
    always.set("a", page("a"), always.currentGeneration());
    expect(always.keepVerdict("b")).toBe("keep");
  });

  it("remembers a bounded number of asks a period: a crawler's many pages push out the oldest", () => {
    const cache = new PageCache({ keepFromAsk: 2 });
    cache.keepVerdict("en http://shop/shop/1");
    for (let id = 2; id <= 40_001; id++) cache.keepVerdict(`en http://shop/shop/${id}`);
    // Two full periods later, the first ask is forgotten; the last period's are not.
    expect(cache.keepVerdict("en http://shop/shop/1")).toBe("first");
    expect(cache.keepVerdict("en http://shop/shop/40001")).toBe("keep");
  });

  it("expires entries after the TTL and keeps within its entry and byte bounds, least recently used out first", async () => {
    let now = 0;
    const cache = new PageCache({ maxEntries: 2, ttlMs: 1000, now: () => now });
    const g = cache.currentGeneration();
    cache.set("a", page("a", 0), g);
    cache.set("b", page("b", 0), g);
    expect(cache.get("a")).toBeDefined(); // a is now the most recently used
    cache.set("c", page("c", 0), g);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.get("c")).toBeDefined();
    now = 1001;
    expect(cache.get("a")).toBeUndefined();

    const small = new PageCache({ maxBytes: 64 * 1024 });
    const big = page("x".repeat(6 * 1024));
    expect(small.set("big", big, small.currentGeneration())).toBe(true);
    const huge = page(Array.from({ length: 20_000 }, (_, i) => i.toString(36)).join(""));
    expect(small.set("huge", huge, small.currentGeneration())).toBe(false); // larger than an eighth of the cache
    for (let i = 0; i < 20; i++) small.set(`p${i}`, page(`${i}`.repeat(3000)), small.currentGeneration());
    expect(small.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    // A compressed copy made later counts too: the oldest pages leave to keep the bound.
    const tight = new PageCache({ maxBytes: 64 * 1024 });
    const noise = (seed: number) => page(Array.from({ length: 2_700 }, (_, i) => ((i * 7_919 + seed * 104_729) % 46_656).toString(36).padStart(3, "0")).join(""));
    const pages = Array.from({ length: 8 }, (_, i) => noise(i + 1));
    pages.forEach((p, i) => tight.set(`n${i}`, p, tight.currentGeneration()));
    expect(tight.stats()).toMatchObject({ entries: 8, bytes: 8 * 8_100 });
    encodedBody(pages[7], "br");
    expect(tight.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    expect(tight.get("n0")).toBeUndefined();
    expect(tight.get("n7")).toBe(pages[7]);
  });

  it("counts what a page keeps after it is stored (its filled-in pages' gzip runs) until the page leaves", () => {
    let now = 0;
    const cache = new PageCache({ maxEntries: 3, ttlMs: 1000, now: () => now });
    const stored = (text: string) => {
      const entry = page(text, now);
      cache.set(text, entry, cache.currentGeneration());
      return entry;
    };
    const a = stored("a".repeat(100));
    // What SplicedGzip reports of each run it keeps for the page's shoppers.
    a.grew!(500);
    a.grew!(250);
    expect(cache.stats().bytes).toBe(850);
    expect(a.bytes).toBe(850);
    // Replaced, pushed out or expired, the page takes all its bytes with it.
    stored("a".repeat(100));
    expect(cache.stats().bytes).toBe(100);
    const b = stored("b".repeat(100));
    b.grew!(400);
    stored("c".repeat(100));
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 700 });
    stored("d".repeat(100)); // pushes out a
    stored("e".repeat(100)); // pushes out b, with its run
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 300 });
    cache.get("e".repeat(100))!.grew!(50);
    now = 2000;
    expect(cache.get("e".repeat(100))).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 200 });
  });
});

describe("a filled-in page's compression, when brotli is accepted", () => {
  it("is brotli whole for a page mostly the shopper's own, and spliced when that is shared pieces and the server is busy", () => {
    // A listing with a name and a cart: spliced.
    expect(isCompressedWhole({ own: 0.02, compressed: 0.02 }, false)).toBe(false);
    // A product page with a recently viewed row of kept cards: fewer bytes while the server has time,
    // a quarter less of its time when it has not (docs/decisions/194).
    expect(isCompressedWhole({ own: 0.34, compressed: 0.05 }, false)).toBe(true);
    expect(isCompressedWhole({ own: 0.34, compressed: 0.05 }, true)).toBe(false);
    // Splicing would compress most of it per request anyway: whole, busy or not.
    expect(isCompressedWhole({ own: 0.34, compressed: 0.3 }, true)).toBe(true);
  });
});

describe("requests answered in the order asked", () => {
  it("are the storefront's pages and data and the cart page, read with GET, never a request with a body", () => {
    for (const path of ["/", "/shop", "/shop/12", "/shop.data", "/faq", "/cart", "/cart.data"]) expect(isAnsweredInOrder({ method: "GET", path }), path).toBe(true);
    // A turn is taken before a body is read: a cart change sent a byte at a time must not hold one.
    for (const method of ["POST", "PUT", "DELETE", "HEAD"]) expect(isAnsweredInOrder({ method, path: "/cart" }), method).toBe(false);
    expect(isAnsweredInOrder({ method: "POST", path: "/shop/12" })).toBe(false);
    // Pages outside the storefront (a payment check waits on Paystack) never wait for a turn.
    for (const path of ["/checkout", "/payments/paystack/callback", "/admin", "/images/a.webp", "/cart/whatsapp", "/carts"]) expect(isAnsweredInOrder({ method: "GET", path }), path).toBe(false);
  });
});
