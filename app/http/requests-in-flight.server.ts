import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

type Handler = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => unknown;

export interface RequestsInFlight {
  /** the handler, counted from its start until the work it returns is done */
  track(handler: Handler): Handler;
  /** the work, counted from its start until it is done (work begun before Express) */
  during<T>(work: () => Promise<T>): Promise<T>;
  /** handlers at work */
  count(): number;
  /** true once every handler counted is done; false if some still were not after `ms` */
  answered(ms: number): Promise<boolean>;
}

/**
 * The work the server is doing for requests (renders, actions). On shutdown the server stops
 * accepting connections, and connections close once their answers are sent; but a shopper who went
 * away closes theirs first, while their request is still being worked on (an order being placed, a
 * page's data being read). The server waits for that work too before it closes the database, so none
 * of it fails half-way on a closed database.
 */
export function requestsInFlight(): RequestsInFlight {
  let open = 0;
  const waiting = new Set<() => void>();
  const finished = () => {
    open--;
    if (open > 0) return;
    for (const done of waiting) done();
    waiting.clear();
  };
  return {
    track: (handler) => (req, res, next) => {
      open++;
      let work: unknown;
      try {
        work = handler(req, res, next);
      } catch (error) {
        finished();
        throw error;
      }
      void Promise.resolve(work).then(finished, finished);
      return work;
    },
    during(work) {
      open++;
      const done = Promise.resolve().then(work);
      void done.then(finished, finished);
      return done;
    },
    count: () => open,
    answered(ms) {
      if (open === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiting.delete(done);
          resolve(false);
        }, ms);
        waiting.add(done);
      });
    },
  };
}
