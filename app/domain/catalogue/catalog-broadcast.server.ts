import { randomBytes } from "node:crypto";
import type pg from "pg";
import { loadPg } from "~/db/client.server";
import { type CatalogScope, onCatalogChange } from "./catalog.server";

/**
 * Several instances of the shop on one PostgreSQL database hear each other's catalogue changes
 * (docs/decisions/146). Each instance keeps rendered pages in memory (the page cache) and empties it
 * when the catalogue changes; a change made on another instance reaches it here, through PostgreSQL's
 * LISTEN/NOTIFY, within a fraction of a second instead of when the cached page expires.
 *
 * Every local catalogChanged() is announced on the channel with this instance's id; a notice from
 * another instance calls `onRemoteChange` (server.ts: catalogChanged("elsewhere"), which is not
 * announced again, so nothing echoes). One
 * dedicated connection listens; when it drops, it reconnects with a growing pause, and on reconnecting
 * calls `onRemoteChange` once, since notices sent in the meantime were missed.
 */

export const CATALOG_CHANNEL = "unboxed_catalog";

export interface BroadcastLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface CatalogBroadcast {
  /** this instance's id, carried by its notices */
  readonly instanceId: string;
  /** resolves once the first LISTEN is in place (tests wait for it) */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

export function startCatalogBroadcast(options: {
  databaseUrl: string;
  onRemoteChange: (scope: CatalogScope) => void;
  logger?: BroadcastLogger;
  /** defaults to a random id */
  instanceId?: string;
}): CatalogBroadcast {
  const { databaseUrl, onRemoteChange, logger } = options;
  const instanceId = options.instanceId ?? randomBytes(6).toString("hex");
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = 250;
  let retryTimer: NodeJS.Timeout | null = null;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let connectedOnce = false;

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const next = new (await loadPg()).Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: 10_000,
      // A connection that died without a word (a dropped network path) is found by TCP keepalive and
      // reconnected, instead of listening to nothing until the pages expire.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // An error on an idle client ends it; 'end' below schedules the reconnection.
    next.on("error", (error) => logger?.warn({ event: "catalog_broadcast_error", err: error.message }, "catalogue change listener lost its connection"));
    next.on("end", () => {
      // Only an established connection that drops is retried here; a failed attempt retries below.
      if (client !== next) return;
      client = null;
      scheduleReconnect();
    });
    next.on("notification", (message) => {
      if (message.channel !== CATALOG_CHANNEL) return;
      const notice = readNotice(message.payload ?? "");
      if (notice.from !== instanceId) onRemoteChange(notice.scope);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CATALOG_CHANNEL}`);
    } catch (error) {
      logger?.warn({ event: "catalog_broadcast_error", err: (error as Error).message }, "cannot listen for catalogue changes; retrying");
      await next.end().catch(() => {});
      scheduleReconnect();
      return;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    retryMs = 250;
    // Whatever changed while this instance was not listening is unknown: start afresh.
    if (connectedOnce) onRemoteChange("anything");
    if (unannounced) {
      unannounced = false;
      announce("anything");
    }
    connectedOnce = true;
    markReady();
  };

  function scheduleReconnect(): void {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 10_000);
  }

  // A change that could not be announced (no connection, or the notice failed) is announced once the
  // connection is back: the other instances would otherwise keep their product cards (docs/decisions/196)
  // as they were.
  // What was missed is not known: it is announced as a change to anything.
  let unannounced = false;
  const announce = (scope: CatalogScope) => {
    if (!client) {
      unannounced = true;
      return;
    }
    client.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, noticeText(instanceId, scope)]).catch((error: Error) => {
      unannounced = true;
      logger?.warn({ event: "catalog_broadcast_error", err: error.message }, "could not announce a catalogue change; it is announced on reconnecting");
    });
  };
  // Sent after the change committed (catalogChanged() is called after the commit); only this
  // instance's own changes, so that nothing echoes.
  const unsubscribe = onCatalogChange((where, scope) => {
    if (where === "here") announce(scope);
  });

  void connect();

  return {
    instanceId,
    ready,
    async stop() {
      stopped = true;
      unsubscribe();
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/** PostgreSQL's bound on a notice's text, in bytes. */
const NOTICE_MAX_BYTES = 8000;

/**
 * A notice's text: the instance's id, then for an order the ids of its products ("a1b2c3 12,40").
 * Too many products for one notice: a change to anything.
 */
export function noticeText(instanceId: string, scope: CatalogScope): string {
  if (scope === "anything") return instanceId;
  const text = `${instanceId} ${scope.ordered.join(",")}`;
  return text.length < NOTICE_MAX_BYTES ? text : instanceId;
}

/** A notice read back; anything it does not say plainly (an older instance's, a damaged one) is a change to anything. */
export function readNotice(text: string): { from: string; scope: CatalogScope } {
  const [from, products, ...rest] = text.split(" ");
  if (products === undefined || rest.length > 0 || !/^\d{1,10}(?:,\d{1,10})*$/.test(products)) return { from, scope: "anything" };
  return { from, scope: { ordered: products.split(",").map(Number) } };
}
