import type { Db, Engine } from "~/db/client.server";
import type { Config } from "~/platform/config.server";

// What the Express server hands to every loader and action (see server.ts getLoadContext).
declare module "react-router" {
  interface AppLoadContext {
    db: Db;
    engine: Engine;
    config: Config;
    /** the shopper's IP address, for abuse limits */
    clientIp: string;
    /**
     * Given only for a GET request: one object per request, by which its loaders share what they read
     * of the shopper's session (sessions.server.ts). Not for a form's POST, whose loaders run after its
     * action and must read the session as the action left it.
     */
    readsOfRequest?: object;
  }
}

export {};
