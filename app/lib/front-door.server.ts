import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppLoadContext } from "react-router";
import {
  type FillKeptPage,
  isRenderedAtDoor,
  lookUpPage,
  type PageCache,
  type PageLookup,
  type RenderAtDoor,
  requestUrl,
  type SecurityHeadersFor,
  sendKeptPage,
} from "./page-cache.server";
import { refuseBadHost, type RenderSlots } from "./render-slots.server";

interface FrontDoorOptions {
  /** the app (Express) that answers everything not answered here */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  /** where storefront requests wait their turn (docs/decisions/167), and which do */
  turns: RenderSlots;
  /** kept pages (production), or null */
  cache: PageCache | null;
  securityHeaders: SecurityHeadersFor;
  /** fills a shopper's parts into the kept page theirs is made from (docs/decisions/141) */
  fill: FillKeptPage;
  /** renders a storefront page that is not kept (docs/decisions/189); null: Express renders it */
  render: RenderAtDoor | null;
  /** the app's load context for a request answered with this nonce */
  loadContext: (req: IncomingMessage, nonce: string) => AppLoadContext;
  /** counts work the server must finish before it closes the database */
  track: <T>(work: () => Promise<T>) => Promise<T>;
  /** Express's "trust proxy" rule: may this address tell us the protocol (X-Forwarded-Proto)? */
  trustProxy: (address: string | undefined, hop: number) => boolean;
  /** told of every storefront request, as it comes (the page store's preload wakes: docs/decisions/211) */
  onStorefrontRequest?: () => void;
}

/**
 * The HTTP server's listener, before Express (docs/decisions/188). A storefront request waits its turn
 * here, in the order asked; in its turn the page cache is looked in, and a kept page is answered at once
 * with the headers kept with it, or, for a shopper with a session or a cart, filled in with their parts.
 * Express's middlewares (about twelve, each matched and called) cost a kept page three times the rest
 * of its answer. A storefront page that is not kept, and the cart page, are rendered here too
 * (`render`, docs/decisions/189). A Host that makes no address is refused first, for every request.
 * Everything else goes on to Express, the cache's findings in `res.locals` for the middlewares there.
 */
export function frontDoor(options: FrontDoorOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { app, turns, cache } = options;
  return (req, res) => {
    if (refuseBadHost(req, res)) return;
    const url = req.url ?? "";
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!turns.takesTurn({ method: req.method ?? "", path })) return app(req, res);
    options.onStorefrontRequest?.();
    turns.wait(req, res, () => {
      const toApp = (found: PageLookup) => {
        (res as ServerResponse & { locals?: PageLookup }).locals = found;
        app(req, res);
      };
      // Nothing here may throw past this point: outside Express, an error thrown in a turn would end
      // the server. The request goes on to Express instead, which answers it or its error page, unless
      // its shopper went away (a render is then aborted).
      const failed = () => (res.headersSent || req.socket.destroyed ? res.destroy() : toApp({ pageCacheKey: null }));
      try {
        const found: PageLookup = {};
        const protocol = protocolOf(req, options.trustProxy);
        const kept = cache ? lookUpPage(cache, req, protocol, found) : undefined;
        if (kept && kept === found.pageCacheEntry) return sendKeptPage(req, res, kept, options.securityHeaders);
        if (kept) {
          options
            .track(() => options.fill(req, res, kept, requestUrl(req, protocol), options.loadContext(req, kept.nonce)))
            .then((answered) => answered || toApp({ pageCacheKey: null }), failed);
          return;
        }
        const render = options.render;
        const pageKey = found.pageCacheKey ?? found.sharedPageKey;
        // A page asked too seldom to keep in memory is rendered for its asker alone, a shopper's in full
        // with their own parts (docs/decisions/201, 202). With a page store it is kept there instead: a
        // shopper's is then made from the anonymous page, rendered and stored by Express (docs/decisions/203).
        const verdict = render && cache && pageKey && isRenderedAtDoor(path) ? cache.keepVerdict(pageKey) : "keep";
        if (render && verdict !== "keep") {
          res.setHeader("X-Page-Cache", verdict);
          if (found.sharedPageKey && cache?.hasStore()) return toApp({ ...found, sharedPageKeep: "store" });
          const storeKey = cache?.hasStore() ? (found.pageCacheKey ?? null) : null;
          options.track(() => render(req, res, requestUrl(req, protocol), storeKey, "store")).catch(failed);
          return;
        }
        // A shopper's page whose anonymous page is not kept yet is rendered, kept and filled in by Express.
        if (!render || found.sharedPageKey || !isRenderedAtDoor(path)) return toApp(found);
        options.track(() => render(req, res, requestUrl(req, protocol), found.pageCacheKey ?? null)).catch(failed);
      } catch {
        failed();
      }
    });
  };
}

/** The request's protocol as Express tells it (req.protocol), for the cache key. */
function protocolOf(req: IncomingMessage, trustProxy: FrontDoorOptions["trustProxy"]): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  if (!trustProxy(req.socket.remoteAddress, 0)) return own;
  const forwarded = req.headers["x-forwarded-proto"];
  const header = (Array.isArray(forwarded) ? forwarded[0] : forwarded) || own;
  const comma = header.indexOf(",");
  return comma === -1 ? header.trim() : header.slice(0, comma).trim();
}
