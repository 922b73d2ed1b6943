import { performance } from "node:perf_hooks";

/**
 * Whether the server's main thread is busy: in the last sample (half a second), it spent at least half
 * its time working rather than waiting for work (its event loop's utilisation). Where the server can
 * spend its own time to save a shopper's bytes (compressing a page harder), it does so only when it is
 * not busy (docs/decisions/194 and 195).
 */
export interface LoadMeter {
  busy(): boolean;
}

export function loadMeter(sampleMs = 500, busyFrom = 0.5): LoadMeter {
  let last = performance.eventLoopUtilization();
  let busy = false;
  let sampling: NodeJS.Timeout | undefined;
  return {
    busy() {
      // Sampled from the first question on; the timer does not keep the process alive.
      sampling ??= setInterval(() => {
        const now = performance.eventLoopUtilization();
        busy = performance.eventLoopUtilization(now, last).utilization >= busyFrom;
        last = now;
      }, sampleMs).unref();
      return busy;
    },
  };
}

/** The server's own meter. */
export const serverLoad = loadMeter();
