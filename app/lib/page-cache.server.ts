import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import zlib from "node:zlib";
import pLimit from "p-limit";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AppLoadContext, createRequestHandler, type ServerBuild } from "react-router";
import { SESSION_COOKIE } from "../domain/sessions.server";
import { DEFAULT_PAGE_CACHE_MB, DEFAULT_PAGE_CACHE_TTL_S } from "./config.server";
import { keptBytes } from "./kept-bytes.server";
import { brotliAt, compressPage, isCompressible, type WholeCompression } from "./page-compression.server";
import type { OrderTies, PageStore, StoredPage } from "./page-store.server";
import { LOCALE_COOKIE, pickLocale } from "./locale-detect";
import type { RenderSlots } from "./render-slots.server";
import type { PageHandle, PageRenderer, RenderedPage } from "./render-thread.server";
import { freshNonce } from "./security-headers.server";
import { serverLoad } from "./server-load.server";
import { type PagePart, pageBytes, type SplicedGzip } from "./spliced-gzip.server";

/**
 * A cache of rendered storefront pages for anonymous shoppers (docs/decisions/011). Everyone without
 * a cookie of ours sees the same home, shop, product and content pages, so a page rendered once can
 * be sent again until the catalogue changes. Used only by server.ts, in production.
 *
 * Stored: 200 answers to GET requests on the storefront paths below, from requests carrying no `ub_*`
 * cookie (session, cart, toast), whose answer sets no cookie. The key is the full URL and the
 * shopper's language. Every catalogue change empties the cache, here and (on PostgreSQL) on the other
 * instances (docs/decisions/146); entries also expire after `ttlMs` (PAGE_CACHE_TTL_S), which bounds
 * changes written to the database outside the shop (docs/decisions/187). Size is bounded by entry count
 * and bytes, least recently used out first.
 */

/** The storefront's public pages and their client-side data requests (`*.data`). */
const CACHEABLE_PATH =
  /^\/(?:(?:shop(?:\/\d{1,10})?|about|faq|contact|returns-refunds)(?:\.data)?|_root\.data|sitemap\.xml|robots\.txt)?$/;
const CACHEABLE_TYPE = /^(?:text\/html|text\/x-script|application\/xml|text\/plain)\b/;
/**
 * Cookies that make a page personal: session, cart, one-time toast, and any future ones of ours (the
 * session's is `__Host-ub_session` under https, sessions.server.ts).
 */
const PERSONAL_COOKIE = /(?:^|;\s*)(?:__Host-)?ub_[^=]*=/;
const OUR_COOKIE = /^(?:__Host-)?ub_/;
/** A request that carries a session (sessions.server.ts). */
const SESSION_COOKIE_SENT = new RegExp(`(?:^|;\\s*)(?:__Host-)?${SESSION_COOKIE}=`);
/** A storefront page or its data, the pages shoppers load most: these take turns to render (server.ts). */
export function isStorefrontRequest(req: { method: string; path: string }): boolean {
  return req.method === "GET" && CACHEABLE_PATH.test(req.path);
}

/**
 * The requests answered in the order asked (docs/decisions/167): storefront pages and the cart page.
 * Only GETs: a turn is taken before a body is read, and a body sent slowly must not hold one.
 */
export function isAnsweredInOrder(req: { method: string; path: string }): boolean {
  return isStorefrontRequest(req) || (req.method === "GET" && /^\/cart(?:\.data)?$/.test(req.path));
}

/**
 * Pages a shopper with a session or a cart is given from the cached anonymous page, with their own
 * parts filled in (docs/decisions/141; a signed-in shopper's product page too, with their review and
 * back-in-stock forms and recently viewed row: docs/decisions/150). Not the data requests of
 * client-side navigation.
 */
const PERSONALISABLE_PATH = /^\/(?:shop(?:\/\d{1,10})?|about|faq|contact|returns-refunds)?$/;

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** compressed copies, each made the first time a client asks for it */
  encoded: { gzip?: Buffer; br?: Buffer };
  etag: string;
  /** the CSP nonce the page was rendered with; the same page is answered with the same policy */
  nonce: string;
  /** a hit's headers (names and values in turn, as Node takes them), made at its first hit */
  answerHeaders?: string[];
  /** the same for a shopper's page filled in from it */
  personalHeaders?: string[];
  storedAt: number;
  bytes: number;
  /** told of the bytes kept with the page once stored (a compressed copy, a kept gzip run): added to its bytes and the cache's bound */
  grew?: (bytes: number) => void;
  /** the page cut for filling in shoppers' parts (docs/decisions/141), made on first use; null: cannot be */
  personal?: unknown;
  /** read from the page store (on disk) for this answer, not from memory */
  stored?: boolean;
  /** in the page store already: not written there again when memory lets it go */
  inStore?: boolean;
}

export interface PageCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  ttlMs?: number;
  /** a page is kept from its Nth ask within `ttlMs` (docs/decisions/201); 1: from its first */
  keepFromAsk?: number;
  /** where pages not kept in memory are kept, on disk (docs/decisions/203) */
  store?: PageStore | null;
  now?: () => number;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

/** The Cookie header with our cookies taken out: what an anonymous visitor with the same language sends. */
function withoutOurCookies(header: string): string {
  return header
    .split(";")
    .map((c) => c.trim())
    .filter((c) => c && !OUR_COOKIE.test(c))
    .join("; ");
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
  private emptied = 0;
  private hits = 0;
  private misses = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly ttlMs: number;
  readonly keepFromAsk: number;
  private readonly store: PageStore | null;
  private now: () => number;
  /** asks of pages not kept, by a hash of their key: this period's and the one before's */
  private asks = new Map<number, number>();
  private asksBefore = new Map<number, number>();
  private asksSince: number;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 2_000;
    this.maxBytes = options.maxBytes ?? DEFAULT_PAGE_CACHE_MB * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? DEFAULT_PAGE_CACHE_TTL_S * 1000;
    this.keepFromAsk = options.keepFromAsk ?? 1;
    this.store = options.store ?? null;
    this.now = options.now ?? Date.now;
    this.asksSince = this.now();
  }

  /**
   * Counts an ask of a page that is not kept (`key`, the anonymous page's), and tells whether the page
   * is worth keeping once rendered (docs/decisions/201, 202):
   * - `first`: asked fewer than `keepFromAsk` times, counted over the last one to two periods of at
   *   most `ttlMs`. A page asked once (most product pages of a large catalogue, a crawler's every page)
   *   is rendered for its asker and not kept: keeping it cost more than the render.
   * - `outranked`: the cache is full, and the page it would push out (the least recently used) was asked
   *   as often or more. As in W-TinyLFU's admission: with more pages asked now and then than the cache
   *   holds, keeping each pushed out another before either was asked again, and every kept page was
   *   garbage for the old space's collector a few seconds later.
   * - `keep`: render, keep, and (for a shopper) fill in.
   * Asks are remembered by a 31-bit hash of the key, at most REMEMBERED_ASKS keys a period (under 2 MB
   * for both): two keys of one hash count as one, and such a page is kept an ask early. A kept page's
   * hits count as asks too (get). With `keepFromAsk` 1 every page is kept, nothing counted.
   */
  keepVerdict(key: string): "keep" | "first" | "outranked" {
    if (this.keepFromAsk <= 1) return "keep";
    const count = this.countAsk(hashOf(key));
    if (count < this.keepFromAsk) return "first";
    return this.isFull() && count <= this.asksOfOldest() ? "outranked" : "keep";
  }

  private countAsk(hash: number): number {
    const now = this.now();
    if (this.asks.size >= REMEMBERED_ASKS || now - this.asksSince > this.ttlMs) {
      // A period with no ask since at least one more is as good as forgotten.
      this.asksBefore = now - this.asksSince > 2 * this.ttlMs ? new Map() : this.asks;
      this.asks = new Map();
      this.asksSince = now;
    }
    const count = (this.asks.get(hash) ?? this.asksBefore.get(hash) ?? 0) + 1;
    this.asks.set(hash, count);
    return count;
  }

  /** Would keeping one more page of the usual size push one out? */
  private isFull(): boolean {
    const size = this.entries.size;
    return size > 0 && (size >= this.maxEntries || this.bytes + this.bytes / size > this.maxBytes);
  }

  /** The asks of the page kept longest without one (the next pushed out); 0 if its time is up. */
  private asksOfOldest(): number {
    const [key, entry] = this.entries.entries().next().value as [string, CachedPage];
    if (this.now() - entry.storedAt > this.ttlMs) return 0;
    const hash = hashOf(key);
    return this.asks.get(hash) ?? this.asksBefore.get(hash) ?? 0;
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

  /**
   * For a shopper whose only cookies of ours are a session and a cart: the key of the anonymous page
   * theirs can be made from, or null when the page must be rendered in full (a one-time message, a
   * language chosen in the URL, anything else).
   */
  sharedKeyFor(request: { method: string; url: string; host: string | undefined; protocol: string; cookie?: string; acceptLanguage?: string }): string | null {
    if (request.method !== "GET" || !request.cookie) return null;
    const queryAt = request.url.indexOf("?");
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    if (!PERSONALISABLE_PATH.test(path) || (queryAt !== -1 && new URLSearchParams(request.url.slice(queryAt + 1)).has("lng"))) return null;
    const ours = request.cookie.split(";").map((c) => c.trim()).filter((c) => OUR_COOKIE.test(c));
    if (ours.length === 0 || ours.some((c) => !/^(?:(?:__Host-)?ub_session|ub_cart)=/.test(c))) return null;
    return this.keyFor({ ...request, cookie: withoutOurCookies(request.cookie) });
  }

  /**
   * The page kept under `key`: from memory, else from the page store. A page read from the store is
   * kept in memory too when it would be kept there had it been rendered (keepVerdict).
   */
  get(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.now() - entry.storedAt > this.ttlMs) {
      if (entry) this.delete(key);
      this.misses++;
      return this.fromStore(key);
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    if (this.keepFromAsk > 1) this.countAsk(hashOf(key));
    return entry;
  }

  private fromStore(key: string): CachedPage | undefined {
    const page = this.store?.get(key, this.now() - this.ttlMs);
    if (!page) return undefined;
    if (this.keepVerdict(key) === "keep") this.set(key, keptFromStore(page), this.generation);
    return storedEntry(page);
  }

  /**
   * Whether a page is kept under `key`, in memory or in the page store, and will be for at least
   * `forMs` more: not counted as an ask, nor moved up in memory's order.
   */
  holds(key: string, forMs = 0): boolean {
    const since = this.now() - this.ttlMs + forMs;
    const entry = this.entries.get(key);
    if (entry && entry.storedAt >= since) return true;
    return this.store?.has(key, since) ?? false;
  }

  /** The share of the page store's bytes in use (1 when there is no store). */
  storeUse(): number {
    return this.store ? this.store.stats().bytes / this.store.maxBytes : 1;
  }

  /** Whether pages not kept in memory are kept on disk (a page store), so are worth sending there. */
  hasStore(): boolean {
    return this.store !== null;
  }

  /**
   * Keeps a page rendered for its asker alone (not kept in memory: keepVerdict) in the page store, with
   * the brotli copy made for its asker if there was one.
   */
  keepStored(key: string, entry: CachedPage, generation: number): void {
    if (generation !== this.generation || !this.store) return;
    this.store.put(key, toStored(entry), orderTiesOf(key));
  }

  /**
   * How many times every page was let go (clear): an order that forgets only its products' pages
   * (forgetPagesOf) leaves the rest as they were, so the page store's preload goes on.
   */
  timesEmptied(): number {
    return this.emptied;
  }

  /** A token taken before rendering; a page rendered across a catalogue change is not stored. */
  currentGeneration(): number {
    return this.generation;
  }

  /** Keeps a page in memory; pages pushed out to make room go to the page store. */
  set(key: string, entry: CachedPage, generation: number): boolean {
    if (generation !== this.generation || entry.bytes > this.maxBytes / 8) return false;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    entry.grew = (bytes) => {
      // Counted in the page's own bytes too, so they all leave the bound with it: kept gzip runs
      // (decision 175) were added to the bound only, and over a minute of shoppers the cache's count
      // grew past what it held until it kept about half the pages it could.
      entry.bytes += bytes;
      if (this.entries.get(key) !== entry) return;
      this.bytes += bytes;
      this.keepWithinBounds();
    };
    this.keepWithinBounds();
    return true;
  }

  /** The least recently used pages out, each to the page store unless its time is up or it is there already. */
  private keepWithinBounds(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value as [string, CachedPage];
      this.delete(oldest);
      if (this.store && !entry.inStore && this.now() - entry.storedAt <= this.ttlMs) this.store.put(oldest, toStored(entry), orderTiesOf(oldest));
    }
  }

  clear(): void {
    this.generation++;
    this.emptied++;
    this.entries.clear();
    this.bytes = 0;
    this.store?.clear();
  }

  /**
   * The pages an order of these products that sold none out may have changed, out of memory and the
   * page store (docs/decisions/205): see orderTiesOf. Elsewhere these products are cards, which show
   * only whether a product is sold out: an order that sells one out empties the whole cache instead
   * (catalog.server.ts, stockTakenScope). A page being rendered now is not kept, as at clear().
   */
  forgetPagesOf(productIds: readonly number[]): void {
    this.generation++;
    const changed = new Set(productIds);
    for (const key of [...this.entries.keys()]) {
      const ties = orderTiesOf(key);
      if (ties.everyOrder || (ties.productId !== null && changed.has(ties.productId))) this.delete(key);
    }
    this.store?.forgetPagesOf(productIds);
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

/** A kept page's key (PageCache.keyFor): language, then URL; its path and query. */
const KEY_PARTS = /^\S+ [a-z]+:\/\/[^/]*(\/[^?]*)(?:\?(.*))?$/;
const PRODUCT_PAGE = /^\/shop\/(\d{1,10})(?:\.data)?$/;
const LISTING = /^\/shop(?:\.data)?$/;

/**
 * What an order that sold nothing out may have changed of the page kept under `key`
 * (docs/decisions/205), from its path and query:
 * - a product's page (or its data): when the order is of that product (its stock, its sizes' stock,
 *   'often bought together', its structured data's availability);
 * - a listing in best-selling order, and the sitemap (each product's last change): every order;
 * - any other page: none. Listings, search and the home page show products as cards, and a card
 *   shows only whether its product is sold out.
 */
export function orderTiesOf(key: string): OrderTies {
  const [, path = "", query = ""] = KEY_PARTS.exec(key) ?? [];
  const product = PRODUCT_PAGE.exec(path);
  if (product) return { productId: Number(product[1]), everyOrder: false };
  const everyOrder = path === "/sitemap.xml" || (LISTING.test(path) && new URLSearchParams(query).getAll("sort").includes("best-selling"));
  return { productId: null, everyOrder };
}

/** Asks of pages remembered per period (PageCache.keepVerdict). */
const REMEMBERED_ASKS = 20_000;

/** FNV-1a over the key's UTF-16 code units, as a small integer (a number V8 keeps unboxed in a Map). */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >> 1;
}

/**
 * Builds a cache entry from a rendered answer: the body as sent, its ETag and its compressed copies, the
 * last two made when first asked for (encodedBody): most pages kept are product pages, many never asked for
 * again before they leave the cache, and making both copies of each was about 1 ms, a third of the
 * page's render; browsers ask for brotli, so a gzip copy is seldom made at all (#14).
 */
export function cachedPage(status: number, headers: Headers, body: Buffer, nonce: string, storedAt: number): CachedPage {
  const kept: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!/^(?:content-length|content-encoding|transfer-encoding|etag)$/i.test(name)) kept.push([name, value]);
  });
  // Only a hit carries the ETag (a sha256 of the page, about 0.1 ms): worked out at the first one.
  let etag: string | undefined;
  return {
    status,
    headers: kept,
    body,
    encoded: {},
    get etag() {
      return (etag ??= `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`);
    },
    nonce,
    storedAt,
    bytes: body.length,
  };
}

/** Brotli's quality for a page written to the page store without a copy made for a client: the quickest. */
const STORED_BROTLI_QUALITY = 1;
/** Brotli's quality and gzip's level for a page kept in memory, compressed once and sent many times. */
const KEPT_BROTLI_QUALITY = 6;
const KEPT_GZIP_LEVEL = 6;

/** A page as the page store keeps it: its brotli copy, made now if no client asked for one. */
function toStored(entry: CachedPage): StoredPage {
  const br = entry.encoded.br ?? zlib.brotliCompressSync(entry.body, brotliAt(STORED_BROTLI_QUALITY, entry.body));
  return { status: entry.status, headers: entry.headers, nonce: entry.nonce, etag: entry.etag, storedAt: entry.storedAt, br };
}

/**
 * A page read from the page store, to answer this request: sent as its brotli copy (its first asker's,
 * quality 1 or 2), and decompressed only when needed (a client without brotli, a shopper's parts).
 */
function storedEntry(page: StoredPage): CachedPage {
  // Never kept itself (keptFromStore makes the copy memory keeps), so its bytes are not counted.
  let body: Buffer | undefined;
  return {
    status: page.status,
    headers: page.headers,
    get body() {
      return (body ??= zlib.brotliDecompressSync(page.br));
    },
    encoded: { br: page.br },
    etag: page.etag,
    nonce: page.nonce,
    storedAt: page.storedAt,
    bytes: page.br.length,
    stored: true,
    inStore: true,
  };
}

/**
 * A page read from the page store, to keep in memory. It is sent as its first asker's brotli copy
 * (quality 1 or 2) until a quality 6 copy, the one pages kept from their render are sent as
 * (encodedBody), is made on the thread pool: 10–15 % fewer bytes for the pages shoppers ask most,
 * without the half millisecond of this thread it takes. Two at a time, the rest in turn; a page moved
 * into memory while BEST_COPIES_WAITING wait keeps its copy.
 */
function keptFromStore(page: StoredPage): CachedPage {
  const body = zlib.brotliDecompressSync(page.br);
  const entry: CachedPage = {
    status: page.status,
    headers: page.headers,
    body,
    encoded: { br: page.br },
    etag: page.etag,
    nonce: page.nonce,
    storedAt: page.storedAt,
    bytes: body.length + page.br.length,
    inStore: true,
  };
  if (bestCopies.pendingCount >= BEST_COPIES_WAITING) return entry;
  void bestCopies(
    () =>
      new Promise<void>((resolve) => {
        zlib.brotliCompress(body, brotliAt(KEPT_BROTLI_QUALITY, body), (error, best) => {
          resolve();
          const quick = entry.encoded.br;
          if (error || !quick || best.length >= quick.length) return;
          entry.encoded.br = keptBytes(best);
          // Outside any request: nothing thrown here may reach the event loop (the quick copy stays).
          try {
            if (entry.grew) entry.grew(best.length - quick.length);
            else entry.bytes += best.length - quick.length;
          } catch {
            entry.encoded.br = quick;
          }
        });
      }),
  );
  return entry;
}

/** Quality 6 copies of pages moved into memory, made on the thread pool (keptFromStore). */
const bestCopies = pLimit(2);
const BEST_COPIES_WAITING = 100;

/**
 * A stored page compressed as the client accepts, made the first time and kept with the page.
 * Compressed at once, on this thread (about half a millisecond for a 50 KB page): zlib's asynchronous
 * functions hand each 16 KB chunk back to the event loop, so under load a page waited seconds behind
 * the renders, and its compressor's memory with it.
 */
export function encodedBody(entry: CachedPage, encoding: "br" | "gzip"): Buffer {
  let copy = entry.encoded[encoding];
  if (!copy) {
    const { body } = entry;
    copy = keptBytes(
      encoding === "br"
        ? zlib.brotliCompressSync(body, brotliAt(KEPT_BROTLI_QUALITY, body))
        : zlib.gzipSync(body, { level: KEPT_GZIP_LEVEL }),
    );
    entry.encoded[encoding] = copy;
    if (entry.grew) entry.grew(copy.length);
    else entry.bytes += copy.length;
  }
  return copy;
}

/** Enough for browsers and HTTP clients: "q=0" refusals are honoured, other weights are not ranked. */
function acceptedEncodings(acceptEncoding: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.split(";").map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

function preferredEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

/**
 * Sends a stored page: the compressed copy the client accepts, or 304 when it already has it. Answered
 * before Express (front-door.server.ts, docs/decisions/188), so it carries the security headers itself:
 * those of the page's nonce, made once with the rest of its headers and kept with the page.
 */
export function sendKeptPage(req: IncomingMessage, res: ServerResponse, entry: CachedPage, securityHeaders: SecurityHeadersFor): void {
  const headers = (entry.answerHeaders ??= keptPageHeaders(entry, securityHeaders, [["ETag", entry.etag], ["Vary", "Accept-Encoding"], ["X-Page-Cache", entry.stored ? "stored" : "hit"]]));
  if (req.headers["if-none-match"] === entry.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const body = encoding ? encodedBody(entry, encoding) : entry.body;
  res.writeHead(entry.status, encoding ? [...headers, "Content-Encoding", encoding, "Content-Length", String(body.length)] : [...headers, "Content-Length", String(body.length)]);
  res.end(body);
}

/** The security headers of an answer with this nonce, as name and value pairs (security-headers.server.ts). */
export type SecurityHeadersFor = (nonce: string) => [string, string][];

/**
 * The headers of an answer made from a kept page, names and values in turn as Node takes them, made once
 * and kept (counted) with the page. As Express answered it: the security headers for the page's nonce,
 * then the page's own (the same name replaced, as setHeader after the security middleware did), then
 * this kind of answer's own.
 */
function keptPageHeaders(entry: CachedPage, securityHeaders: SecurityHeadersFor, own: [string, string][]): string[] {
  const byName = new Map<string, [string, string]>();
  for (const [name, value] of [...securityHeaders(entry.nonce), ...entry.headers, ...own]) byName.set(name.toLowerCase(), [name, value]);
  const headers = [...byName.values()].flat();
  const bytes = headers.reduce((sum, text) => sum + text.length, 0);
  if (entry.grew) entry.grew(bytes);
  else entry.bytes += bytes;
  return headers;
}

/** A shopper's filled-in page: its parts, and their anonymous page's parts compressed for gzip. */
export interface PersonalBody {
  parts: PagePart[];
  spliced: SplicedGzip;
}

/**
 * A shopper's filled-in page, compressed at once as the client accepts. Every browser asks for it, and
 * the compression middleware's (brotli quality 4, as a stream handing each 16 KB back to the event
 * loop) took longer than filling the page in: such pages went from about 3,000 to 1,400 a second (#14).
 * Gzip, when accepted, is spliced from the page's parts compressed once (docs/decisions/175): only the
 * shopper's own parts are compressed per request. A page much of which is the shopper's own (a
 * signed-in product page with its recently viewed row) is compressed whole with brotli at quality 1
 * instead, when accepted: fewer bytes (docs/decisions/191). Its row is made of shared pieces that
 * splicing does not compress per request, so when the server is busy that page is spliced too: a
 * fifth more bytes for a quarter less of the server's time (docs/decisions/194). Else, and for a
 * page's first shopper, the page is compressed whole: brotli at quality 2 (half quality 4's time for
 * about 8 % more bytes: docs/decisions/173), else gzip at level 1.
 */
function sendPersonalBody(req: IncomingMessage, res: ServerResponse, entry: CachedPage, body: PersonalBody, securityHeaders: SecurityHeadersFor): void {
  const headers = (entry.personalHeaders ??= keptPageHeaders(entry, securityHeaders, [["Cache-Control", "private, no-cache"], ["Vary", "Accept-Encoding"], ["X-Page-Cache", "personal"]]));
  const accepted = acceptedEncodings(req.headers["accept-encoding"]);
  const wholeBrotli = accepted.has("br") && isCompressedWhole(body.spliced.shares(body.parts), serverLoad.busy());
  const spliced = accepted.has("gzip") && !wholeBrotli ? body.spliced.encode(body.parts, entry.grew) : null;
  const [encoding, sent] = spliced ? ["gzip", spliced] : compressedWhole(pageBytes(body.parts), accepted, wholeBrotli ? MOSTLY_OWN_BROTLI_QUALITY : PERSONAL_BROTLI_QUALITY);
  res.writeHead(entry.status, encoding ? [...headers, "Content-Encoding", encoding, "Content-Length", String(sent.length)] : [...headers, "Content-Length", String(sent.length)]);
  res.end(sent);
}

/**
 * Whether a filled-in page, when brotli is accepted, is compressed whole with brotli at quality 1
 * rather than spliced: when much of it is the shopper's own (`shares`, from SplicedGzip.shares), unless
 * the server is busy and splicing would not compress most of that per request.
 */
export function isCompressedWhole(shares: { own: number; compressed: number }, busy: boolean): boolean {
  return shares.compressed >= MOSTLY_OWN_SHARE || (shares.own >= MOSTLY_OWN_SHARE && !busy);
}

/**
 * A page compressed whole, as the client accepts: its encoding (null: none) and bytes (wholeCompression).
 */
function compressedWhole(page: Buffer, accepted: Set<string>, brotliQuality?: number): [string | null, Buffer] {
  const how = wholeCompression(accepted, brotliQuality);
  return how ? [how.encoding, compressPage(page, how)] : [null, page];
}

/**
 * How a page is compressed whole for a client that accepts these encodings (null: not at all). Brotli
 * at quality 2, or at 1 while the server is busy: half the time, for about 9 % more bytes
 * (docs/decisions/195). Else gzip at level 1.
 */
function wholeCompression(accepted: Set<string>, brotliQuality = serverLoad.busy() ? BUSY_BROTLI_QUALITY : PERSONAL_BROTLI_QUALITY): WholeCompression | null {
  if (accepted.has("br")) return { encoding: "br", level: brotliQuality };
  if (accepted.has("gzip")) return { encoding: "gzip", level: PERSONAL_GZIP_LEVEL };
  return null;
}

/**
 * How the render thread compresses a page it renders (docs/decisions/207): as a page kept in memory is
 * sent from then on (encodedBody), so its copy is kept; else as compressedWhole would.
 */
function threadCompression(accepted: Set<string>, keptInMemory: boolean): WholeCompression | null {
  if (!keptInMemory) return wholeCompression(accepted);
  if (accepted.has("br")) return { encoding: "br", level: KEPT_BROTLI_QUALITY };
  if (accepted.has("gzip")) return { encoding: "gzip", level: KEPT_GZIP_LEVEL };
  return null;
}

const PERSONAL_BROTLI_QUALITY = 2;
const BUSY_BROTLI_QUALITY = 1;
const PERSONAL_GZIP_LEVEL = 1;
/**
 * From this share of a filled-in page being the shopper's own, splicing compresses about as many bytes
 * per request as brotli at quality 1 does for the whole page, and sends more (docs/decisions/191). A
 * signed-in product page with a full recently viewed row is about a third its shopper's own; a listing,
 * a few per cent.
 */
const MOSTLY_OWN_SHARE = 0.25;
const MOSTLY_OWN_BROTLI_QUALITY = 1;

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** What the cache keys of a request are made from (see PageCache.keyFor), as Node hands it over. */
function requestFacts(req: IncomingMessage, protocol: string) {
  return {
    method: req.method ?? "",
    url: req.url ?? "",
    host: req.headers.host,
    protocol,
    cookie: req.headers.cookie,
    acceptLanguage: req.headers["accept-language"],
  };
}

/** What lookUpPage leaves for the middlewares after it (res.locals, once Express has the request). */
export interface PageLookup {
  pageCacheKey?: string | null;
  pageCacheEntry?: CachedPage;
  sharedPageKey?: string | null;
  sharedPageEntry?: CachedPage;
  /** where the anonymous page a shopper's is made from is kept once rendered (docs/decisions/203) */
  sharedPageKeep?: Keep;
}

/**
 * The stored page for this request, if any: its own, or for a shopper with a session or a cart the
 * anonymous page theirs is made from. Called first, in the request's turn before Express
 * (front-door.server.ts), so a hit is answered there and a page made from one keeps its nonce;
 * `found` keeps the keys for the middlewares below.
 */
export function lookUpPage(cache: PageCache, req: IncomingMessage, protocol: string, found: PageLookup): CachedPage | undefined {
  const facts = requestFacts(req, protocol);
  const key = cache.keyFor(facts);
  found.pageCacheKey = key;
  if (key) return (found.pageCacheEntry = cache.get(key));
  const sharedKey = cache.sharedKeyFor(facts);
  found.sharedPageKey = sharedKey;
  return (found.sharedPageEntry = sharedKey ? cache.get(sharedKey) : undefined);
}

interface RenderOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  /** where a render waits its turn (render-slots.server.ts) */
  renders?: RenderSlots;
  /** where anonymous pages are rendered (docs/decisions/206); none: here */
  renderer?: PageRenderer | null;
}

/** A page may be kept and sent to others: a 200 page (or data) that sets no cookie. */
function isShareable(response: Response): boolean {
  return response.status === 200 && response.headers.getSetCookie().length === 0 && CACHEABLE_TYPE.test(response.headers.get("content-type") ?? "");
}

/** The request's full URL, for the app's Request; `protocol` as Express's req.protocol tells it. */
export function requestUrl(req: IncomingMessage, protocol: string): URL {
  return new URL(req.url ?? "/", `${protocol}://${req.headers.host ?? "localhost"}`);
}

type PersonalPage = (page: CachedPage, request: Request, context: AppLoadContext) => Promise<PersonalBody | null>;

/**
 * Fills a shopper's parts into the kept anonymous page their page is made from, and sends it
 * (docs/decisions/141): in the request's turn before Express (front-door.server.ts), or by the
 * middleware below once it has rendered that page. False when the app cannot (the page is not the
 * expected shape): the page is then rendered in full.
 */
export type FillKeptPage = (req: IncomingMessage, res: ServerResponse, entry: CachedPage, url: URL, context: AppLoadContext) => Promise<boolean>;

export function fillKeptPage(options: { build: RenderOptions["build"]; securityHeaders: SecurityHeadersFor }): FillKeptPage {
  return async (req, res, entry, url, context) => {
    const build = typeof options.build === "function" ? await options.build() : options.build;
    const personalise = (build.entry.module as { personalPage?: PersonalPage }).personalPage;
    const body = personalise ? await personalise(entry, new Request(url, { method: "GET", headers: requestHeaders(req) }), context) : null;
    if (body === null) return false;
    sendPersonalBody(req, res, entry, body, options.securityHeaders);
    return true;
  };
}

/**
 * Middleware just before the one below, for a shopper with a session or a cart on a storefront page
 * whose anonymous page is not kept yet: renders and keeps that page (in memory, or in the page store
 * only when the front door found it not worth memory: `sharedPageKeep`), then fills in this shopper's
 * parts (fillKeptPage). When the app cannot, or the anonymous page cannot be shared, the request goes on to be
 * rendered in full.
 */
export function servePersonalPage(cache: PageCache, options: RenderOptions, fill: FillKeptPage) {
  const handle = createRequestHandler(options.build, options.mode);
  return async function personal(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    const key = res.locals.sharedPageKey as string | null | undefined;
    if (!key) return next();
    try {
      let entry = res.locals.sharedPageEntry as CachedPage | undefined;
      if (!entry) {
        const generation = cache.currentGeneration();
        const headers = requestHeaders(req);
        const cookie = withoutOurCookies(req.get("cookie") ?? "");
        if (cookie) headers.set("cookie", cookie);
        else headers.delete("cookie");
        const render = async () => {
          const context = renderedWhole(options.getLoadContext(req, res));
          // Without the shopper's cookies the page is anonymous: the render thread makes the same page.
          const response = await (options.renderer?.handlerFor(handle) ?? handle)(new Request(requestUrl(req, req.protocol), { method: "GET", headers }), context);
          return { response, body: await bodyOf(response, context) };
        };
        const { response, body } = await (options.renders ? options.renders.run(render) : render());
        if (!isShareable(response)) return next();
        entry = cachedPage(response.status, response.headers, body, res.locals.cspNonce as string, Date.now());
        if (res.locals.sharedPageKeep === "store") cache.keepStored(key, entry, generation);
        else cache.set(key, entry, generation);
      }
      if (!(await fill(req, res, entry, requestUrl(req, req.protocol), options.getLoadContext(req, res)))) next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Middleware just before the app's own handler, for GET requests: renders the page itself, sends it
 * compressed at once (sendRenderedPage), and stores a cacheable miss when the answer is shareable (200,
 * no Set-Cookie, a page or data type). An answer that is not a page (a CSV export, a file) is passed
 * on as it comes; other methods go on to the app's handler untouched.
 */
export function renderPages(cache: PageCache | null, options: RenderOptions) {
  const handle = createRequestHandler(options.build, options.mode);
  return async function render(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    if (req.method !== "GET") return next();
    let key = cache ? (res.locals.pageCacheKey as string | null | undefined) : null;
    // A page with a key is anonymous: the render thread makes the same page.
    const renderer = key && options.renderer ? options.renderer.handlerFor(handle) : handle;
    // A page's data for a client-side navigation is kept as pages are at the front door: from its Nth
    // ask, and in a full cache only if asked more than the next page out (docs/decisions/201, 202);
    // else in the page store, if there is one (docs/decisions/203).
    const verdict = cache && key ? cache.keepVerdict(key) : "keep";
    if (verdict !== "keep") {
      res.setHeader("X-Page-Cache", verdict);
      if (!cache?.hasStore()) key = null;
    }
    const nonce = res.locals.cspNonce as string;
    try {
      const keep = verdict === "keep" ? "memory" : "store";
      await renderAndSend(renderer, cache, key ?? null, keep, req, res, requestUrl(req, req.protocol), renderedWhole(options.getLoadContext(req, res)), nonce);
    } catch (error) {
      next(error);
    }
  };
}

/** The storefront's pages (those made from a kept page), not their data requests, and the cart page: rendered at the door when not kept. */
export function isRenderedAtDoor(path: string): boolean {
  return PERSONALISABLE_PATH.test(path) || path === "/cart";
}

/**
 * Renders a page not kept, for a request in its turn before Express, and sends it (renderAtDoor); keeps
 * it under `key` if not null, in memory or in the page store only (`keep`).
 */
export type RenderAtDoor = (req: IncomingMessage, res: ServerResponse, url: URL, key: string | null, keep?: Keep) => Promise<void>;

/** Where a page rendered is kept: in memory (and the page store once memory lets it go), or in the page store only. */
type Keep = "memory" | "store";

/**
 * A storefront page that is not kept (or the cart page), rendered in its turn before Express
 * (front-door.server.ts, docs/decisions/189) exactly as renderPages renders it: Express's middlewares,
 * about twelve matched and called, decide nothing for such a GET and cost about a tenth of a
 * millisecond of each render. Its answer carries the security headers of its own fresh nonce, and the
 * render takes a render slot, as in Express.
 */
export function renderAtDoor(
  cache: PageCache | null,
  options: {
    build: RenderOptions["build"];
    mode: string;
    loadContext: (req: IncomingMessage, nonce: string) => AppLoadContext;
    securityHeaders: SecurityHeadersFor;
    renders: RenderSlots;
    /** where pages are rendered (docs/decisions/206, 207); none: here */
    renderer?: PageRenderer | null;
  },
): RenderAtDoor {
  const handle = createRequestHandler(options.build, options.mode);
  const { renderer } = options;
  // In its turn as in Express (render-slots.server.ts): with SQLite a render never waits, and renders
  // started at once would run back to back while no new request is read.
  return async (req, res, url, key, keep = "memory") => {
    await options.renders.inTurn(req, async () => {
      const nonce = freshNonce();
      for (const [name, value] of options.securityHeaders(nonce)) res.setHeader(name, value);
      // The render thread makes the same page, a shopper's cart page too (docs/decisions/207). Not a
      // signed-in shopper's: reading a session may renew it, and on SQLite this thread's connection is
      // the only one that writes (a transaction here that read before another connection wrote fails).
      const here = !renderer || SESSION_COOKIE_SENT.test(req.headers.cookie ?? "");
      await renderAndSend(here ? handle : renderer.handlerFor(handle), cache, key, keep, req, res, url, renderedWhole(options.loadContext(req, nonce)), nonce);
    });
  };
}

/**
 * Has the app answer a GET and sends its answer: a page, or shareable data, read whole and compressed
 * at once (sendRenderedPage), and kept under `key` when it may be shared, as `keep` says (a page kept
 * in the page store only keeps the brotli copy made for its asker); anything else streamed as it
 * comes. The security headers are already on `res`.
 */
async function renderAndSend(
  handle: PageHandle,
  cache: PageCache | null,
  key: string | null,
  keep: Keep,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  context: RenderedWhole,
  nonce: string,
): Promise<void> {
  const generation = cache?.currentGeneration() ?? 0;
  // A page that may be stored is rendered to the end even if its shopper goes away.
  const aborted = new AbortController();
  if (!key) res.on("close", () => res.writableFinished || aborted.abort());
  const request = new Request(url, { method: "GET", headers: requestHeaders(req), signal: aborted.signal });
  const accepted = acceptedEncodings(req.headers["accept-encoding"]);
  // Compressed on the render thread when it renders the page; ignored on the main thread.
  context.renderedPage.compress = threadCompression(accepted, key !== null && keep === "memory");
  const response = await handle(request, context);
  const shareable = key ? isShareable(response) : false;
  // A page kept in the store only was told apart at the door (first ask, outranked).
  if (key && keep === "memory") res.setHeader("X-Page-Cache", shareable ? "miss" : "bypass");
  if (!shareable && !isPage(response)) return await sendAsItComes(res, response);
  const body = await bodyOf(response, context);
  const compressed = context.renderedPage.encoded && context.renderedPage.compress ? { how: context.renderedPage.compress, bytes: context.renderedPage.encoded } : null;
  const [encoding, sent] = sendRenderedPage(req, res, response, body, compressed);
  if (!cache || !key || !shareable) return;
  const entry = cachedPage(response.status, response.headers, body, nonce, Date.now());
  if (keep === "memory") {
    // The thread's copy was made at the quality a kept page is sent at: encodedBody need not make it.
    if (encoding && compressed) {
      entry.encoded[compressed.how.encoding] = keptBytes(sent);
      entry.bytes += sent.length;
    }
    cache.set(key, entry, generation);
  } else {
    if (encoding === "br") entry.encoded.br = sent;
    cache.keepStored(key, entry, generation);
  }
}

/**
 * Renders the anonymous page at `url` with `handle` and keeps it in the page store under `key`, as a
 * page rendered for its first asker is kept there (renderAndSend), for no one waiting: the page store's
 * preload (docs/decisions/211). False when the answer is not one to keep (a 404, a redirect), or the
 * catalogue changed while it was rendered.
 */
export async function preloadPage(cache: PageCache, key: string, url: URL, handle: PageHandle, context: AppLoadContext): Promise<boolean> {
  const generation = cache.currentGeneration();
  const whole = renderedWhole(context);
  // Compressed on the render thread as the store keeps a page.
  whole.renderedPage.compress = { encoding: "br", level: STORED_BROTLI_QUALITY };
  const response = await handle(new Request(url, { method: "GET", headers: { host: url.host, accept: "text/html", "accept-encoding": "br" } }), whole);
  const body = await bodyOf(response, whole);
  if (!isShareable(response) || generation !== cache.currentGeneration()) return false;
  const entry = cachedPage(response.status, response.headers, body, context.cspNonce, Date.now());
  if (whole.renderedPage.encoded) entry.encoded.br = whole.renderedPage.encoded;
  cache.keepStored(key, entry, generation);
  return true;
}

type RenderedWhole = AppLoadContext & { renderedPage: RenderedPage };

/** A load context whose rendered page is handed over as bytes (AppLoadContext.renderedPage). */
function renderedWhole(context: AppLoadContext): RenderedWhole {
  return Object.assign(context, { renderedPage: { bytes: null } });
}

/**
 * The whole body of an answer: a page's bytes as the app handed them over, else read from its stream
 * (a redirect, an error page rendered by the router itself, data).
 */
async function bodyOf(response: Response, context: { renderedPage: { bytes: Buffer | null } }): Promise<Buffer> {
  return context.renderedPage.bytes ?? Buffer.from(await response.arrayBuffer());
}

/** An HTML page, the kind worth compressing at once and never streamed by the app. */
function isPage(response: Response): boolean {
  return /^text\/html\b/.test(response.headers.get("content-type") ?? "");
}

/**
 * A page rendered for this request, compressed whole at once as the client accepts (compressedWhole)
 * and sent with its length. The compression middleware (brotli quality 4, as a stream handing each
 * 16 KB back to the event loop) took longer than many a render: uncached pages of a 100,000-product
 * catalogue went from about 230 to 360 a second with their p99 from 70 to 50 ms (docs/decisions/176).
 */
function sendRenderedPage(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  body: Buffer,
  compressed: { how: WholeCompression; bytes: Buffer } | null,
): [string | null, Buffer] {
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (!/^(?:set-cookie|content-length|transfer-encoding)$/.test(name)) res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  // A shopper's page, as one filled in from a kept page says (sendPersonalBody): no shared cache keeps it.
  if (!response.headers.has("cache-control") && PERSONAL_COOKIE.test(req.headers.cookie ?? "")) res.setHeader("Cache-Control", "private, no-cache");
  const compressible = isCompressible(response.headers, body.length);
  if (compressible) {
    const vary = response.headers.get("vary");
    res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  }
  const [encoding, sent]: [string | null, Buffer] = !compressible
    ? [null, body]
    : compressed
      ? [compressed.how.encoding, compressed.bytes]
      : compressedWhole(body, acceptedEncodings(req.headers["accept-encoding"]));
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", sent.length);
  res.end(sent);
  return [encoding, sent];
}

/** Any other answer (a file, a CSV export, a redirect) as the app's handler sends it: streamed as it comes. */
async function sendAsItComes(res: ServerResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  // The pipeline's own listeners (about seven "close" ones) come on top of those the server's
  // middlewares put on every response: past Node's default of 10 it warned of a leak that is none.
  res.setMaxListeners(20);
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res);
  } catch (error) {
    if (!res.destroyed && !res.writableEnded) throw error;
  }
}
