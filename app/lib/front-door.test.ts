import express from "express";
import { createServer, get, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, connect } from "node:net";
import zlib from "node:zlib";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { frontDoor } from "./front-door.server";
import { type CachedPage, cachedPage, type FillKeptPage, isAnsweredInOrder, PageCache, type PageLookup, type RenderAtDoor } from "./page-cache.server";
import { PageStore } from "./page-store.server";
import { renderSlots } from "./render-slots.server";
import { securityHeaders } from "./security-headers.server";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server with the front door before a stand-in app that records what reached it, answering "app". */
async function start(
  options: { cache?: PageCache | null; atOnce?: number; maxWaiting?: number; trustProxy?: boolean; fills?: "fail" | "cannot"; brokenHeaders?: boolean; renders?: "yes" | "fail" | "aborted" } = {},
) {
  const reached: { url: string; locals?: PageLookup }[] = [];
  const rendered: { url: string; key: string | null; keep?: string }[] = [];
  // A stand-in for the app's render at the door (production): answers "rendered", or fails.
  const render: RenderAtDoor = async (_req, res, url, key, keep) => {
    // Where a page is kept is told only for a page kept (with a key).
    rendered.push(key && keep ? { url: url.href, key, keep } : { url: url.href, key });
    if (options.renders === "fail") throw new Error("render failed");
    // As the app's render does when its shopper goes away: aborted, it fails.
    if (options.renders === "aborted") await new Promise((_resolve, reject) => res.once("close", () => reject(new Error("aborted"))));
    res.end("rendered");
  };
  const filled: { entry: CachedPage; url: string; nonce: string }[] = [];
  let tracked = 0;
  // A stand-in for the app's filling in: answers "filled", or cannot, or fails.
  const fill: FillKeptPage = async (_req, res, entry, url, context) => {
    filled.push({ entry, url: url.href, nonce: (context as { cspNonce: string }).cspNonce });
    if (options.fills === "fail") throw new Error("database gone");
    if (options.fills === "cannot") return false;
    res.end("filled");
    return true;
  };
  const held: ServerResponse[] = [];
  const app = (req: IncomingMessage, res: ServerResponse) => {
    reached.push({ url: req.url ?? "", locals: (res as ServerResponse & { locals?: PageLookup }).locals });
    if (req.url === "/shop?hold") return held.push(res);
    res.end("app");
  };
  const turns = renderSlots(isAnsweredInOrder, options.atOnce ?? 8, { maxWaiting: options.maxWaiting ?? 100, refuse: (_req, res) => res.writeHead(503).end("busy") });
  const security = securityHeaders(true);
  const cache = options.cache === null ? null : (options.cache ?? new PageCache());
  const server = createServer(
    frontDoor({
      app,
      turns,
      cache,
      securityHeaders: options.brokenHeaders
        ? () => {
            throw new Error("no headers");
          }
        : security.forNonce,
      trustProxy: () => options.trustProxy ?? false,
      fill,
      render: options.renders ? render : null,
      loadContext: (_req, cspNonce) => ({ cspNonce }) as unknown as AppLoadContext,
      track: (work) => ((tracked += 1), work()),
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Tests without a cache never use it.
  return { base, host: new URL(base).host, cache: cache as PageCache, reached, held, turns, security, filled, rendered, tracked: () => tracked };
}

/** A GET as it comes over the wire, body not decoded. */
const raw = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });

const keep = (cache: PageCache, key: string, html: string, nonce = "kept-nonce") => {
  const entry = cachedPage(200, new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=0, must-revalidate", Link: "</assets/a.css>; rel=preload" }), Buffer.from(html), nonce, Date.now());
  cache.set(key, entry, cache.currentGeneration());
  return entry;
};

describe("the front door (before Express)", () => {
  it("answers a kept page itself, with its nonce's security headers and its own, compressed as asked, and 304 when the shopper has it", async () => {
    const { base, host, cache, reached, security } = await start();
    const html = `<!doctype html><p>${"Bleu de Chanel ".repeat(200)}</p>`;
    const entry = keep(cache, `en http://${host}/shop?brand=2`, html);

    const plain = await fetch(`${base}/shop?brand=2`, { headers: { "accept-encoding": "identity" } });
    expect(await plain.text()).toBe(html);
    expect(reached).toEqual([]);
    expect(plain.headers.get("x-page-cache")).toBe("hit");
    expect(plain.headers.get("etag")).toBe(entry.etag);
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(plain.headers.get("link")).toBe("</assets/a.css>; rel=preload");
    expect(plain.headers.get("content-length")).toBe(String(Buffer.byteLength(html)));
    // Every header Express's security middleware sets for that nonce, once each.
    const expected = security.forNonce("kept-nonce");
    expect(expected.map(([name]) => name.toLowerCase())).toEqual(expect.arrayContaining(["content-security-policy", "x-content-type-options", "strict-transport-security", "x-frame-options"]));
    for (const [name, value] of expected) expect(plain.headers.get(name), name).toBe(value);
    expect(plain.headers.get("content-security-policy")).toContain("'nonce-kept-nonce'");

    const br = await raw(`${base}/shop?brand=2`, { "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(html);
    const gzip = await raw(`${base}/shop?brand=2`, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(html);

    const again = await fetch(`${base}/shop?brand=2`, { headers: { "if-none-match": entry.etag } });
    expect(again.status).toBe(304);
    expect(reached).toEqual([]);
  });

  it("sends on to the app a page not kept and everything else, with what the cache found", async () => {
    const { base, host, cache, reached, filled } = await start();
    keep(cache, `en http://${host}/faq`, "<p>faq</p>");
    await fetch(`${base}/shop?page=3`);
    await fetch(`${base}/shop?page=3`, { headers: { cookie: "ub_cart=abc" } });
    await fetch(`${base}/faq`, { headers: { cookie: "lng=es" } });
    await fetch(`${base}/cart`);
    await fetch(`${base}/cart`, { method: "POST", body: "intent=clear" });
    await fetch(`${base}/profile`);
    expect(reached.map((r) => r.url)).toEqual(["/shop?page=3", "/shop?page=3", "/faq", "/cart", "/cart", "/profile"]);
    expect(reached[0].locals).toEqual({ pageCacheKey: `en http://${host}/shop?page=3`, pageCacheEntry: undefined });
    // A shopper whose anonymous page is not kept yet: Express renders and keeps it, then fills it in.
    expect(reached[1].locals).toEqual({ pageCacheKey: null, sharedPageKey: `en http://${host}/shop?page=3`, sharedPageEntry: undefined });
    expect(reached[2].locals).toMatchObject({ pageCacheKey: `es http://${host}/faq`, pageCacheEntry: undefined });
    // The cart page takes a turn but is never kept; a cart change and other pages take none.
    expect(reached[3].locals).toEqual({ pageCacheKey: null, sharedPageKey: null, sharedPageEntry: undefined });
    expect(reached[4].locals).toBeUndefined();
    expect(reached[5].locals).toBeUndefined();
    expect(filled).toEqual([]);
  });

  it("renders a storefront page not kept, and the cart page, at the door, counted as work in flight; sends on the rest", async () => {
    const { base, host, cache, reached, rendered, tracked } = await start({ renders: "yes" });
    keep(cache, `en http://${host}/faq`, "<p>faq</p>");
    expect(await (await fetch(`${base}/shop?page=3`)).text()).toBe("rendered");
    expect(await (await fetch(`${base}/shop/12`, { headers: { cookie: "lng=es" } })).text()).toBe("rendered");
    expect(await (await fetch(`${base}/cart`, { headers: { cookie: "ub_cart=abc" } })).text()).toBe("rendered");
    expect(rendered).toEqual([
      { url: `http://${host}/shop?page=3`, key: `en http://${host}/shop?page=3` },
      { url: `http://${host}/shop/12`, key: `es http://${host}/shop/12` },
      // Never kept: rendered for this shopper alone.
      { url: `http://${host}/cart`, key: null },
    ]);
    expect(tracked()).toBe(3);
    // A shopper whose anonymous page is not kept yet (Express renders, keeps and fills it in), a page's
    // data for a client-side navigation, a cart change and other pages go on to Express.
    await fetch(`${base}/shop?page=4`, { headers: { cookie: "ub_session=s" } });
    await fetch(`${base}/shop.data?page=3`);
    await fetch(`${base}/cart`, { method: "POST", body: "intent=clear" });
    await fetch(`${base}/profile`);
    expect(reached.map((r) => r.url)).toEqual(["/shop?page=4", "/shop.data?page=3", "/cart", "/profile"]);
    expect(rendered).toHaveLength(3);
    // A kept page is still answered from the cache.
    expect((await fetch(`${base}/faq`)).headers.get("x-page-cache")).toBe("hit");
  });

  it("renders a page asked too seldom to keep for its asker alone, a shopper's too, and keeps it from its Nth ask (docs/decisions/201)", async () => {
    const { base, host, reached, rendered } = await start({ cache: new PageCache({ keepFromAsk: 2 }), renders: "yes" });
    const first = await fetch(`${base}/shop/7`);
    expect(first.headers.get("x-page-cache")).toBe("first");
    expect(await first.text()).toBe("rendered");
    // A shopper's ask of a page not kept counts as an ask of its anonymous page: the second, so Express
    // renders that page, keeps it and fills it in.
    const shopperFirst = await fetch(`${base}/shop/8`, { headers: { cookie: "ub_cart=c1" } });
    expect(shopperFirst.headers.get("x-page-cache")).toBe("first");
    await fetch(`${base}/shop/8`);
    await fetch(`${base}/shop/7`, { headers: { cookie: "ub_session=s" } });
    expect(rendered).toEqual([
      { url: `http://${host}/shop/7`, key: null },
      { url: `http://${host}/shop/8`, key: null },
      { url: `http://${host}/shop/8`, key: `en http://${host}/shop/8` },
    ]);
    expect(reached).toEqual([{ url: "/shop/7", locals: { pageCacheKey: null, sharedPageKey: `en http://${host}/shop/7` } }]);
    // Pages never kept (the cart page) are not counted: rendered as before.
    await fetch(`${base}/cart`, { headers: { cookie: "ub_cart=c1" } });
    expect(rendered.at(-1)).toEqual({ url: `http://${host}/cart`, key: null });
  });

  it("with a page store, keeps there a page asked too seldom for memory: a visitor's rendered and stored, a shopper's made by Express from the anonymous page (docs/decisions/203)", async () => {
    const store = new PageStore({ maxBytes: 1024 * 1024 });
    try {
      const { base, host, cache, reached, rendered } = await start({ cache: new PageCache({ keepFromAsk: 2, store }), renders: "yes" });
      const first = await fetch(`${base}/shop/7`);
      expect(first.headers.get("x-page-cache")).toBe("first");
      expect(await first.text()).toBe("rendered");
      await fetch(`${base}/shop/8`, { headers: { cookie: "ub_cart=c1" } });
      expect(rendered).toEqual([{ url: `http://${host}/shop/7`, key: `en http://${host}/shop/7`, keep: "store" }]);
      expect(reached).toEqual([{ url: "/shop/8", locals: { pageCacheKey: null, sharedPageKey: `en http://${host}/shop/8`, sharedPageEntry: undefined, sharedPageKeep: "store" } }]);

      // A page in the store is answered from there, with the headers kept with it.
      const html = `<!doctype html><p>${"Oud Wood ".repeat(100)}</p>`;
      const page = cachedPage(200, new Headers({ "Content-Type": "text/html; charset=utf-8" }), Buffer.from(html), "stored-nonce", Date.now());
      cache.keepStored(`en http://${host}/shop/9`, page, cache.currentGeneration());
      const stored = await raw(`${base}/shop/9`, { "accept-encoding": "gzip, br" });
      expect(stored.headers["x-page-cache"]).toBe("stored");
      expect(stored.headers["content-encoding"]).toBe("br");
      expect(stored.headers.etag).toBe(page.etag);
      expect(stored.headers["content-security-policy"]).toContain("'nonce-stored-nonce'");
      expect(zlib.brotliDecompressSync(stored.body).toString()).toBe(html);
      expect(rendered).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it("renders a page for its asker alone when the full cache's next page out was asked as often (docs/decisions/202)", async () => {
    const { base, host, cache, rendered } = await start({ cache: new PageCache({ keepFromAsk: 2, maxEntries: 1 }), renders: "yes" });
    keep(cache, `en http://${host}/faq`, "<p>faq</p>");
    for (let ask = 0; ask < 3; ask++) await fetch(`${base}/faq`);
    await fetch(`${base}/shop/7`);
    const second = await fetch(`${base}/shop/7`, { headers: { cookie: "ub_cart=c1" } });
    expect(second.headers.get("x-page-cache")).toBe("outranked");
    expect(await second.text()).toBe("rendered");
    expect(rendered).toEqual([
      { url: `http://${host}/shop/7`, key: null },
      { url: `http://${host}/shop/7`, key: null },
    ]);
    expect((await fetch(`${base}/faq`)).headers.get("x-page-cache")).toBe("hit");
  });

  it("renders at the door without a page cache too, and sends the request on to Express when that render fails", async () => {
    const { base, host, rendered, reached } = await start({ cache: null, renders: "yes" });
    expect(await (await fetch(`${base}/shop?q=oud`)).text()).toBe("rendered");
    expect(rendered).toEqual([{ url: `http://${host}/shop?q=oud`, key: null }]);
    expect(reached).toEqual([]);
    const failing = await start({ renders: "fail" });
    expect(await (await fetch(`${failing.base}/about`)).text()).toBe("app");
    expect(await (await fetch(`${failing.base}/about`)).text()).toBe("app");
    expect(failing.rendered).toHaveLength(2);
    expect(failing.reached).toEqual([
      { url: "/about", locals: { pageCacheKey: null } },
      { url: "/about", locals: { pageCacheKey: null } },
    ]);
  });

  it("does not send a request on to Express when its render at the door fails because its shopper went away", async () => {
    const { base, rendered, reached } = await start({ renders: "aborted" });
    const asked = get(`${base}/shop?page=2`);
    asked.on("error", () => {});
    await expect.poll(() => rendered.length).toBe(1);
    asked.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reached).toEqual([]);
  });

  it("fills a shopper's parts into the kept page theirs is made from, with that page's nonce, counted as work in flight", async () => {
    const { base, host, cache, reached, filled, tracked } = await start();
    const entry = keep(cache, `en http://${host}/faq`, "<p>faq</p>", "faq-nonce");
    expect(await (await fetch(`${base}/faq`, { headers: { cookie: "ub_session=s; ub_cart=c" } })).text()).toBe("filled");
    expect(filled).toEqual([{ entry, url: `http://${host}/faq`, nonce: "faq-nonce" }]);
    expect(tracked()).toBe(1);
    expect(reached).toEqual([]);
  });

  it("renders a shopper's page in full when the app cannot fill it in, or filling in fails", async () => {
    for (const fills of ["cannot", "fail"] as const) {
      const { base, host, cache, reached, filled } = await start({ fills });
      keep(cache, `en http://${host}/faq`, "<p>faq</p>");
      expect(await (await fetch(`${base}/faq`, { headers: { cookie: "ub_cart=c" } })).text(), fills).toBe("app");
      expect(filled).toHaveLength(1);
      // Nothing kept is offered to Express: it renders the page for this shopper, with a nonce of its own.
      expect(reached, fills).toEqual([{ url: "/faq", locals: { pageCacheKey: null } }]);
    }
  });

  it("sends a request on to Express when answering it at the door fails, and keeps serving", async () => {
    const { base, host, cache, reached } = await start({ brokenHeaders: true });
    keep(cache, `en http://${host}/about`, "<p>about</p>");
    expect(await (await fetch(`${base}/about`)).text()).toBe("app");
    expect(await (await fetch(`${base}/about`)).text()).toBe("app");
    expect(reached).toEqual([
      { url: "/about", locals: { pageCacheKey: null } },
      { url: "/about", locals: { pageCacheKey: null } },
    ]);
  });

  it("refuses a Host that makes no address with 400 in the shopper's language, before anything is worked out from it", async () => {
    const { base, reached } = await start();
    for (const host of ["a b", "shop.test:99999", "[::1"]) {
      for (const path of ["/shop?page=2", "/cart", "/checkout"]) {
        const refused = await raw(`${base}${path}`, { host });
        expect(refused.status, `${host} ${path}`).toBe(400);
        expect(refused.headers["content-type"]).toBe("text/plain; charset=utf-8");
        expect(refused.body.toString()).toBe("The address of this page could not be read. Please check it and try again.");
      }
    }
    expect((await raw(`${base}/shop`, { host: "a b", cookie: "lng=es" })).body.toString()).toMatch(/^No pudimos leer la dirección/);
    // An empty Host, written as it comes over the wire (Node's client would put its own).
    const empty = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), "127.0.0.1", () => socket.end("GET /shop HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n"));
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString()));
      socket.on("end", () => resolve(answer));
      socket.on("error", reject);
    });
    expect(empty).toMatch(/^HTTP\/1\.1 400 /);
    expect(reached).toEqual([]);
    // A name with a port, an address, or none at all (HTTP/1.0) are answered as usual.
    for (const host of ["shop.test:8080", "127.0.0.1", "[::1]:3000"]) expect((await raw(`${base}/profile`, { host })).status, host).toBe(200);
    expect(reached.map((r) => r.url)).toEqual(["/profile", "/profile", "/profile"]);
  });

  it("keys a kept page by the protocol a trusted proxy forwards, as Express does", async () => {
    const { base, host, cache, reached } = await start({ trustProxy: true });
    keep(cache, `en https://${host}/about`, "<p>about</p>");
    const behindProxy = await fetch(`${base}/about`, { headers: { "x-forwarded-proto": "https, http" } });
    expect(behindProxy.headers.get("x-page-cache")).toBe("hit");
    await fetch(`${base}/about`);
    expect(reached.map((r) => r.url)).toEqual(["/about"]);
  });

  it("makes a kept page wait its turn behind the storefront requests before it, while other requests go straight on", async () => {
    const { base, host, cache, reached, held, turns } = await start({ atOnce: 1 });
    keep(cache, `en http://${host}/about`, "<p>about</p>");
    const slow = fetch(`${base}/shop?hold`);
    await expect.poll(() => held.length).toBe(1);
    let keptAnswered = false;
    const kept = fetch(`${base}/about`).then((r) => ((keptAnswered = true), r.text()));
    await expect.poll(() => turns.stats().waiting).toBe(1);
    expect(await (await fetch(`${base}/profile`)).text()).toBe("app");
    expect(keptAnswered).toBe(false);
    held[0].end("done");
    expect(await slow.then((r) => r.text())).toBe("done");
    expect(await kept).toBe("<p>about</p>");
    expect(reached.map((r) => r.url)).toEqual(["/shop?hold", "/profile"]);
  });

  it("without a page cache (development) still gives storefront requests their turns, and the app answers them", async () => {
    const { base, reached } = await start({ cache: null });
    expect(await (await fetch(`${base}/shop`)).text()).toBe("app");
    expect(reached).toEqual([{ url: "/shop", locals: {} }]);
  });

  it("answers a hit exactly as Express with the security middleware answered it", async () => {
    const security = securityHeaders(true);
    const cache = new PageCache();
    const viaExpress = express();
    viaExpress.use((_req, res, next) => ((res.locals.cspNonce = "kept-nonce"), next()));
    viaExpress.use(security.middleware);
    viaExpress.get("/faq", (_req, res) => {
      res.set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=0, must-revalidate", "X-Frame-Options": "DENY" });
      res.end("<p>faq</p>");
    });
    const server = createServer(viaExpress);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const rendered = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/faq`);
    const { base, host } = await start({ cache });
    cache.set(`en http://${host}/faq`, cachedPage(200, rendered.headers, Buffer.from(await rendered.text()), "kept-nonce", Date.now()), cache.currentGeneration());
    const hit = await fetch(`${base}/faq`, { headers: { "accept-encoding": "identity" } });
    const names = (headers: Headers) => [...headers.keys()].filter((name) => !/^(?:date|etag|vary|x-page-cache|content-length|connection|keep-alive|transfer-encoding)$/.test(name)).sort();
    expect(names(hit.headers)).toEqual(names(rendered.headers));
    for (const name of names(rendered.headers)) expect(hit.headers.get(name), name).toBe(rendered.headers.get(name));
  });
});

