import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { type AppLoadContext, createRequestHandler, type ServerBuild } from "react-router";
import { LOCALE_COOKIE, pickLocale } from "./locale-detect";

/**
 * A cache of rendered storefront pages for anonymous shoppers (docs/decisions/011). Everyone without
 * a cookie of ours sees the same home, shop, product and content pages, so a page rendered once can
 * be sent again until the catalogue changes. Used only by server.ts, in production.
 *
 * Stored: 200 answers to GET requests on the storefront paths below, from requests carrying no `ub_*`
 * cookie (session, cart, toast), whose answer sets no cookie. The key is the full URL and the
 * shopper's language. Every catalogue change empties the cache; entries also expire after `ttlMs`,
 * which bounds staleness when several servers share one database (only the one that made the change
 * hears of it). Size is bounded by entry count and bytes, least recently used out first.
 */

/** The storefront's public pages and their client-side data requests (`*.data`). */
const CACHEABLE_PATH =
  /^\/(?:(?:shop(?:\/\d{1,10})?|about|faq|contact|returns-refunds)(?:\.data)?|_root\.data|sitemap\.xml|robots\.txt)?$/;
const CACHEABLE_TYPE = /^(?:text\/html|text\/x-script|application\/xml|text\/plain)\b/;
/** Cookies that make a page personal: session, cart, one-time toast, and any future ones of ours. */
const PERSONAL_COOKIE = /(?:^|;\s*)ub_[^=]*=/;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  /** the CSP nonce the page was rendered with; the same page is answered with the same policy */
  nonce: string;
  storedAt: number;
  bytes: number;
}

export interface PageCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  ttlMs?: number;
  now?: () => number;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

function readCookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const match = header.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`));
  return match?.[1]?.trim();
}

export class PageCache {
  private entries = new Map<string, CachedPage>();
  private bytes = 0;
  private generation = 0;
  private hits = 0;
  private misses = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly ttlMs: number;
  private now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 2_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The cache key for a request, or null when its answer must not be shared: not a GET, not a
   * storefront path, or carrying one of our cookies.
   */
  keyFor(request: { method: string; url: string; host: string | undefined; protocol: string; cookie?: string; acceptLanguage?: string }): string | null {
    if (request.method !== "GET") return null;
    if (request.cookie && PERSONAL_COOKIE.test(request.cookie)) return null;
    const queryAt = request.url.indexOf("?");
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    if (!CACHEABLE_PATH.test(path) || request.url.length > 2_048) return null;
    const query = queryAt === -1 ? null : new URLSearchParams(request.url.slice(queryAt + 1)).get("lng");
    const { locale } = pickLocale({
      query,
      cookie: readCookieValue(request.cookie, LOCALE_COOKIE),
      acceptLanguage: request.acceptLanguage,
    });
    return `${locale} ${request.protocol}://${request.host ?? ""}${request.url}`;
  }

  get(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.delete(key);
      this.misses++;
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry;
  }

  /** A token taken before rendering; a page rendered across a catalogue change is not stored. */
  currentGeneration(): number {
    return this.generation;
  }

  set(key: string, entry: CachedPage, generation: number): boolean {
    if (generation !== this.generation || entry.bytes > this.maxBytes / 8) return false;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
    return true;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): PageCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** Builds a cache entry from a rendered answer: the body as sent, gzip and brotli copies, and an ETag. */
export async function cachedPage(status: number, headers: Headers, body: Buffer, nonce: string, storedAt: number): Promise<CachedPage> {
  const [gz, br] = await Promise.all([
    gzip(body, { level: 6 }),
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const kept: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!/^(?:content-length|content-encoding|transfer-encoding|etag)$/i.test(name)) kept.push([name, value]);
  });
  return { status, headers: kept, body, gzip: gz, br, etag, nonce, storedAt, bytes: body.length + gz.length + br.length };
}

function preferredEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  // Enough for browsers and HTTP clients: "q=0" refusals are honoured, other weights are not ranked.
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.split(";").map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    if (!q || Number(q.slice(2)) > 0) accepted.add(name);
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

/** Sends a stored page: the compressed copy the client accepts, or 304 when it already has it. */
export function sendCachedPage(req: ExpressRequest, res: ExpressResponse, entry: CachedPage): void {
  res.status(entry.status);
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("ETag", entry.etag);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("X-Page-Cache", "hit");
  if (req.get("if-none-match") === entry.etag) {
    res.status(304).end();
    return;
  }
  const encoding = preferredEncoding(req.get("accept-encoding"));
  const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.body;
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

function requestHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The cache key of an Express request (see PageCache.keyFor). */
function keyOf(cache: PageCache, req: ExpressRequest): string | null {
  return cache.keyFor({
    method: req.method,
    url: req.originalUrl,
    host: req.get("host"),
    protocol: req.protocol,
    cookie: req.get("cookie"),
    acceptLanguage: req.get("accept-language"),
  });
}

/**
 * The stored page for this request, if any. Called first (by the nonce middleware in server.ts), so a
 * hit is answered with the Content-Security-Policy of its page; remembers the key for `render`.
 */
export function lookUpPage(cache: PageCache, req: ExpressRequest, res: ExpressResponse): CachedPage | undefined {
  const key = keyOf(cache, req);
  res.locals.pageCacheKey = key;
  const entry = key ? cache.get(key) : undefined;
  res.locals.pageCacheEntry = entry;
  return entry;
}

/** Middleware (after the security headers, before compression): answers a hit found by lookUpPage. */
export function serveCachedPage(req: ExpressRequest, res: ExpressResponse, next: NextFunction): void {
  const entry = res.locals.pageCacheEntry as CachedPage | undefined;
  if (entry) sendCachedPage(req, res, entry);
  else next();
}

/**
 * Middleware just before the app's own handler: renders a cacheable miss itself, sends it, and stores
 * it when the answer is shareable (200, no Set-Cookie, a page or data type). Everything else goes on
 * to the app's handler untouched.
 */
export function renderAndCachePage(
  cache: PageCache,
  options: {
    build: ServerBuild | (() => Promise<ServerBuild>);
    mode: string;
    getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  },
) {
  const handle = createRequestHandler(options.build, options.mode);
  return async function render(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    const key = res.locals.pageCacheKey as string | null | undefined;
    if (!key) return next();
    try {
      const generation = cache.currentGeneration();
      const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
      const response = await handle(new Request(url, { method: "GET", headers: requestHeaders(req) }), options.getLoadContext(req, res));
      const body = Buffer.from(await response.arrayBuffer());
      res.status(response.status);
      response.headers.forEach((value, name) => {
        if (!/^(?:set-cookie|content-length|transfer-encoding)$/.test(name)) res.setHeader(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) res.setHeader("Set-Cookie", cookies);
      const shareable =
        response.status === 200 && cookies.length === 0 && CACHEABLE_TYPE.test(response.headers.get("content-type") ?? "");
      res.setHeader("X-Page-Cache", shareable ? "miss" : "bypass");
      res.end(body);
      if (shareable) {
        const nonce = res.locals.cspNonce as string;
        cache.set(key, await cachedPage(response.status, response.headers, body, nonce, Date.now()), generation);
      }
    } catch (error) {
      next(error);
    }
  };
}
