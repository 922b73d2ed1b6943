import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import pLimit from "p-limit";
import enCommon from "../locales/en/common.json";
import esCommon from "../locales/es/common.json";
import { localeOfNodeRequest } from "./cookies.server";
import type { Locale } from "./i18n";

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

/**
 * How many storefront requests may wait for their turn; past that a shopper is told at once that the
 * shop is busy (503, try again in 2 s). Each waiting request holds only its connection and request,
 * about 10 KB: measured with 1,000 and 3,000 shoppers asking at once, the server peaked at 191 and
 * 223 MB while answering about 1,100 a second in order. 2,000 is about two seconds' wait at that pace,
 * and keeps a flood within the memory budget (#14).
 */
export const MAX_WAITING = 2_000;

const BUSY = { en: enCommon.error.busy, es: esCommon.error.busy };
const BAD_ADDRESS = { en: enCommon.error.badAddress, es: esCommon.error.badAddress };

/**
 * A refusal the HTTP server sends itself, before Express, in the shopper's language. The security
 * headers are not set there, so it says itself that it is only text.
 */
function refuseAtOnce(req: IncomingMessage, res: ServerResponse, status: number, messages: Record<Locale, string>, headers: Record<string, string> = {}): void {
  const body = messages[localeOfNodeRequest(req)];
  res.writeHead(status, {
    ...headers,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

/** The 503 for a request that found the queue full (the queue comes first, before Express). */
export function refuseWhenBusy(req: IncomingMessage, res: ServerResponse): void {
  refuseAtOnce(req, res, 503, BUSY, { "Retry-After": "2" });
}

/**
 * The 400 for a request whose Host makes no address (a space, a port past 65535): every page and
 * link is built on it, and the URL it would make cannot be read (RFC 9112 asks for 400).
 */
export function refuseBadHost(req: IncomingMessage, res: ServerResponse): boolean {
  const host = req.headers.host;
  if (host === undefined || URL.canParse(`http://${host}/`)) return false;
  refuseAtOnce(req, res, 400, BAD_ADDRESS);
  return true;
}

export interface RenderSlots {
  /** runs one render in a slot */
  run<T>(render: () => Promise<T>): Promise<T>;
  /**
   * runs one request's render in a slot, as `wait` does: from the next turn of the event loop, and not
   * at all (undefined) when its shopper went away while waiting
   */
  inTurn<T>(req: IncomingMessage, render: () => Promise<T>): Promise<T | undefined>;
  /** whether a request takes turns here (the `applies` given) */
  takesTurn(req: { method: string; path: string }): boolean;
  /** the rest of this request (`then`) holds a slot until answered; refused at once when too many wait */
  wait(req: IncomingMessage, res: ServerResponse, then: () => void): void;
  /** middleware for the requests `applies` picks: the rest of the request (a full render) holds a slot until answered */
  middleware(req: ExpressRequest, res: ExpressResponse, next: NextFunction): void;
  /** renders running and waiting, for tests */
  stats(): { running: number; waiting: number };
}

/**
 * `applies` picks the requests that take turns: storefront pages, whose work is the database and React.
 * Others (a payment check that waits on Paystack, an upload) must not hold a turn while they wait.
 */
export function renderSlots(
  applies: (req: { method: string; path: string }) => boolean,
  atOnce = RENDERS_AT_ONCE,
  full?: { maxWaiting: number; refuse: (req: IncomingMessage, res: ServerResponse) => void },
): RenderSlots {
  const limit = pLimit(atOnce);
  function wait(req: IncomingMessage, res: ServerResponse, then: () => void): void {
    if (full && limit.pendingCount >= full.maxWaiting) return full.refuse(req, res);
    void limit(
      () =>
        new Promise<void>((resolve) => {
          // A shopper who went away while waiting is not rendered for.
          if (req.socket.destroyed) return resolve();
          // Freed as soon as the page is handed to the connection (its data and tree are then
          // garbage), or when the shopper goes away first. Waiting for the socket's "finish" tied
          // each turn to a turn of the event loop: under 100 connections, renders queued for seconds.
          const end = res.end;
          res.end = function (this: ServerResponse, ...args: Parameters<ServerResponse["end"]>) {
            resolve();
            return end.apply(this, args);
          } as ServerResponse["end"];
          res.once("close", resolve);
          // Each turn starts in the next turn of the event loop, not at once: with SQLite a render
          // never waits, so the queued renders would all run in one turn, and the server accepts
          // only one new connection a turn (seconds for a shopper who just arrived).
          setImmediate(then);
        }),
    );
  }
  return {
    run: (render) => limit(render),
    inTurn: (req, render) =>
      limit(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return req.socket.destroyed ? undefined : render();
      }),
    takesTurn: applies,
    wait,
    middleware(req, res, next) {
      if (!applies(req)) return next();
      wait(req, res, next);
    },
    stats: () => ({ running: limit.activeCount, waiting: limit.pendingCount }),
  };
}
