import type { AppLoadContext } from "react-router";
import { type PageCache, preloadPage } from "./page-cache.server";
import type { PageHandle } from "./render-thread.server";
import { freshNonce } from "./security-headers.server";

/**
 * The page store's preload (docs/decisions/211): while shoppers come, the catalogue's product pages
 * are rendered into the page store on the render thread whenever it has no shopper's page to render,
 * best-selling first, so that the shopper who opens a product finds its page made. Without it, at
 * 10,000 products most product pages were a first ask for minutes after a start or a catalogue change
 * (which empties the store), each rendered while its shopper waited: the mixed run's slowest seconds.
 *
 * - A pass starts at the first storefront request after the server starts or a catalogue change
 *   empties the page cache (`wake`), so a shop nobody visits does no work and holds no thread.
 * - It renders one page at a time, only when the thread is free (`renderer.whenFree`): a shopper's
 *   render asked meanwhile waits for at most one page. It never starts the thread: a shopper's page
 *   does.
 * - It stops once the store holds `STORE_SHARE` of its bytes (the rest is for the pages shoppers ask:
 *   listings, searches, other languages), or when a change empties the cache (the next request starts
 *   a new pass), or when the thread cannot run. An order that lets go only its products' pages does
 *   not stop it.
 * - Pages already kept (in memory or the store) for a while yet are skipped. Pages live
 *   `PAGE_CACHE_TTL_S`: a pass starts again once the last one's pages are out of time, at most once
 *   every `AGAIN_AFTER_MS`.
 * - Only the shop's default language (English), in the shop's own address (PUBLIC_URL): the pages the
 *   most shoppers ask for. Pages in Spanish are rendered and kept at their asks, as before.
 */

/** The share of the page store's bytes a pass fills, at most. */
export const STORE_SHARE = 0.5;
/** Product ids read at a time. */
export const IDS_AT_ONCE = 200;
/** The least time between the starts of two passes of one catalogue. */
export const AGAIN_AFTER_MS = 10 * 60_000;
/** A page kept for less than this longer is rendered again. */
const KEPT_FOR_AT_LEAST_MS = 60_000;

/** The render thread, as the preload uses it: never the main thread (RenderThread.render has no fallback). */
export interface PreloadRenderer {
  whenFree(): Promise<boolean>;
  render: PageHandle;
}

export interface PagePreloadOptions {
  cache: PageCache;
  renderer: PreloadRenderer;
  /** the shop's address (PUBLIC_URL), whose pages are kept under its host */
  publicUrl: string;
  /** a page of product ids, best-selling first (catalog.server.ts) */
  productIds: (offset: number, limit: number) => Promise<number[]>;
  /** the app's load context for a page rendered with this nonce */
  loadContext: (nonce: string) => AppLoadContext;
  logger: { info(details: object, message: string): void; error(details: object, message: string): void };
  now?: () => number;
}

export interface PreloadStats {
  passes: number;
  rendered: number;
  /** pages whose render failed (the thread failed, or the app threw): left to their asks */
  failed: number;
  running: boolean;
}

export class PagePreload {
  private running = false;
  private closed = false;
  private passes = 0;
  private rendered = 0;
  private failed = 0;
  /** the cache's emptying (timesEmptied) the last whole pass was after, and when it started */
  private passedAfterEmptied = -1;
  private passStartedAt = 0;
  private readonly origin: URL;
  private readonly now: () => number;

  constructor(private readonly options: PagePreloadOptions) {
    this.origin = new URL(options.publicUrl);
    this.now = options.now ?? Date.now;
  }

  /** A storefront request came: starts a pass if none runs and the last one is out of date. */
  wake(): void {
    if (this.running || this.closed) return;
    const emptied = this.options.cache.timesEmptied();
    const again = Math.max(this.options.cache.ttlMs - KEPT_FOR_AT_LEAST_MS, AGAIN_AFTER_MS);
    if (emptied === this.passedAfterEmptied && this.now() - this.passStartedAt < again) return;
    this.running = true;
    const renderedBefore = this.rendered;
    void this.pass(emptied)
      .then((ended) => this.options.logger.info({ ended, rendered: this.rendered - renderedBefore }, "page preload: pass ended"))
      .catch((error: Error) => this.options.logger.error({ err: error }, "page preload stopped"))
      .finally(() => {
        this.running = false;
      });
  }

  /** No pass starts any more; the one running ends at its next page. */
  close(): void {
    this.closed = true;
  }

  stats(): PreloadStats {
    return { passes: this.passes, rendered: this.rendered, failed: this.failed, running: this.running };
  }

  /** Why the pass ended: every product's page is kept, the store is full enough, the catalogue changed, or the thread cannot run. */
  private async pass(emptied: number): Promise<"done" | "store full" | "catalogue changed" | "no thread"> {
    const { cache, renderer, productIds } = this.options;
    const startedAt = this.now();
    this.passes++;
    // An order's change (forgetPagesOf) does not end the pass: only a page rendered across it is not kept (preloadPage).
    const changed = () => this.closed || cache.timesEmptied() !== emptied;
    for (let offset = 0; ; offset += IDS_AT_ONCE) {
      const ids = await productIds(offset, IDS_AT_ONCE);
      for (const id of ids) {
        if (changed()) return "catalogue changed";
        if (cache.storeUse() >= STORE_SHARE) return this.passed(emptied, startedAt, "store full");
        const url = new URL(`/shop/${id}`, this.origin);
        const key = cache.keyFor({ method: "GET", url: url.pathname, host: url.host, protocol: url.protocol.slice(0, -1) });
        if (!key || cache.holds(key, KEPT_FOR_AT_LEAST_MS)) continue;
        // A thread that cannot run: no page until the next pass is due.
        if (!(await renderer.whenFree())) return this.passed(emptied, startedAt, "no thread");
        if (changed()) return "catalogue changed";
        try {
          if (await preloadPage(cache, key, url, (request, context) => renderer.render(request, context), this.options.loadContext(freshNonce()))) this.rendered++;
        } catch {
          // The page is rendered at its first ask instead, where a failure is the asker's to see.
          this.failed++;
        }
      }
      if (ids.length < IDS_AT_ONCE) return this.passed(emptied, startedAt, "done");
    }
  }

  private passed<Ended>(emptied: number, startedAt: number, ended: Ended): Ended {
    this.passedAfterEmptied = emptied;
    this.passStartedAt = startedAt;
    return ended;
  }
}
