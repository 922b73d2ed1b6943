import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import pLimit from "p-limit";

/**
 * How many pages are rendered at once. Rendering is work for the one JavaScript thread: more at once
 * does not finish sooner, but each holds its data and half-built page in memory. Under a burst the
 * rest wait their turn in order, and the server's memory stays bounded (#14).
 */
export const RENDERS_AT_ONCE = 4;

/**
 * How many storefront requests are worked on at once, cached pages among them; the rest wait in the
 * order they came (docs/decisions/167). Without it a cached page jumped every render waiting: under a
 * burst most shoppers were answered at once and those asking for a product page (rendered, the most
 * costly) waited for all of them, several times longer than anyone. In order, everyone waits about as
 * long. More than one at a time, so that on PostgreSQL the thread has work while a query is out.
 */
export const ANSWERS_AT_ONCE = 8;

export interface RenderSlots {
  /** runs one render in a slot */
  run<T>(render: () => Promise<T>): Promise<T>;
  /** middleware for the requests `applies` picks: the rest of the request (a full render) holds a slot until answered */
  middleware(req: ExpressRequest, res: ExpressResponse, next: NextFunction): void;
  /** renders running and waiting, for tests */
  stats(): { running: number; waiting: number };
}

/**
 * `applies` picks the requests that take turns: storefront pages, whose work is the database and React.
 * Others (a payment check that waits on Paystack, an upload) must not hold a turn while they wait.
 */
export function renderSlots(applies: (req: ExpressRequest) => boolean, atOnce = RENDERS_AT_ONCE): RenderSlots {
  const limit = pLimit(atOnce);
  return {
    run: (render) => limit(render),
    middleware(req, res, next) {
      if (!applies(req)) return next();
      void limit(
        () =>
          new Promise<void>((resolve) => {
            // A shopper who went away while waiting is not rendered for.
            if (req.socket.destroyed) return resolve();
            // Freed as soon as the page is handed to the connection (its data and tree are then
            // garbage), or when the shopper goes away first. Waiting for the socket's "finish" tied
            // each turn to a turn of the event loop: under 100 connections, renders queued for seconds.
            const end = res.end;
            res.end = function (this: ExpressResponse, ...args: Parameters<ExpressResponse["end"]>) {
              resolve();
              return end.apply(this, args);
            } as ExpressResponse["end"];
            res.once("close", resolve);
            // Each turn starts in the next turn of the event loop, not at once: with SQLite a render
            // never waits, so the queued renders would all run in one turn, and the server accepts
            // only one new connection a turn (seconds for a shopper who just arrived).
            setImmediate(next);
          }),
      );
    },
    stats: () => ({ running: limit.activeCount, waiting: limit.pendingCount }),
  };
}
