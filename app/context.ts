import type { Db, Engine } from "~/db/client.server";
import type { Config } from "~/lib/config.server";
import type { RenderedPage } from "~/lib/render-thread.server";

// What the Express server hands to every loader and action (see server.ts getLoadContext).
declare module "react-router" {
  interface AppLoadContext {
    db: Db;
    engine: Engine;
    config: Config;
    /** per-request Content-Security-Policy nonce for the framework's inline scripts */
    cspNonce: string;
    /** the shopper's IP address, for abuse limits */
    clientIp: string;
    /**
     * Given only for a GET request: one object per request, by which its loaders share what they read
     * of the shopper's session (sessions.server.ts). Not for a form's POST, whose loaders run after its
     * action and must read the session as the action left it.
     */
    readsOfRequest?: object;
    /**
     * Given when the server reads a rendered page whole, to compress it at once (page-cache.server.ts):
     * the page's bytes are handed over here and its Response has no body, so they are not streamed
     * only to be read back (docs/decisions/189). The render thread compresses it too (docs/decisions/207).
     */
    renderedPage?: RenderedPage;
  }
}

export {};
