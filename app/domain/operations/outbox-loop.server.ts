/**
 * The loop every durable outbox shares (e-mail: mail-outbox.server.ts; WhatsApp and SMS:
 * messages/outbox.server.ts): claim one due row at a time, send it, record what happened; and the
 * worker in the server process that runs a pass every `pollMs` and soon after anything is queued.
 * What a row is, how it is claimed and sent and what a failure means stay with each outbox.
 */

export interface DrainResult {
  sent: number;
  /** failed this time, to be tried again later */
  retrying: number;
  /** given up on */
  failed: number;
}

/** Claims and sends rows one at a time until none is due; answers what happened. */
export async function drainLoop<Row>(claim: () => Promise<Row | undefined>, send: (row: Row) => Promise<keyof DrainResult>): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, retrying: 0, failed: 0 };
  for (;;) {
    const row = await claim();
    if (!row) return result;
    result[await send(row)]++;
  }
}

/**
 * The wakers of one outbox. The worker runs in server.ts's copy of a module and the code that queues
 * in the app build's copy, so they meet on globalThis under a shared symbol.
 */
export function outboxWakers(name: string): Set<(delayMs: number) => void> {
  const key = Symbol.for(`unboxed.${name}WorkerWake`);
  const registry = globalThis as typeof globalThis & Record<symbol, Set<(delayMs: number) => void> | undefined>;
  return (registry[key] ??= new Set<(delayMs: number) => void>());
}

/** A row was queued: the worker looks soon, twice (the first usually lands just after the commit, the second covers a slower transaction). */
export function wakeOutbox(wakers: Set<(delayMs: number) => void>): void {
  for (const wake of wakers) {
    wake(25);
    wake(250);
  }
}

export interface OutboxWorker {
  /** run a pass within `delayMs` (default at once) */
  wake(delayMs?: number): void;
  /** sends what is due now and resolves when done (for tests and shutdown) */
  drain(): Promise<DrainResult>;
  /** stops polling and waits for a pass in progress */
  stop(): Promise<void>;
}

export interface OutboxWorkerLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Runs `drain` every `pollMs` and when woken; one pass at a time (a wake during a pass runs another after it). */
export function startOutboxWorker(options: {
  drain: () => Promise<DrainResult>;
  wakers: Set<(delayMs: number) => void>;
  pollMs: number;
  logger?: OutboxWorkerLogger;
  /** what the log calls a failed pass, e.g. "mail_worker_failed" */
  failedEvent: string;
}): OutboxWorker {
  const { drain, wakers, pollMs, logger } = options;
  let timer: NodeJS.Timeout | null = null;
  let dueAt = Infinity;
  let running: Promise<DrainResult> | null = null;
  let again = false;
  let stopped = false;

  const pass = (): Promise<DrainResult> => {
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((error: unknown) => {
        // The database is briefly unavailable, for instance: the next pass tries again.
        logger?.error(
          {
            event: options.failedEvent,
            err: String((error as Error).message ?? error),
          },
          "outbox pass failed",
        );
        return { sent: 0, retrying: 0, failed: 0 };
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          schedule(0);
        }
      });
    return running;
  };

  function schedule(delayMs: number) {
    if (stopped) return;
    const at = Date.now() + delayMs;
    if (timer && at >= dueAt) return;
    if (timer) clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(() => {
      timer = null;
      dueAt = Infinity;
      void pass().finally(() => schedule(pollMs));
    }, delayMs);
    timer.unref();
  }

  const wake = (delayMs = 0) => schedule(delayMs);
  wakers.add(wake);
  schedule(0);

  return {
    wake,
    drain: pass,
    async stop() {
      stopped = true;
      wakers.delete(wake);
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
