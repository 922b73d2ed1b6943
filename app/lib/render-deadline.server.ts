import type { Writable } from "node:stream";

/**
 * The longest a page may take to render before it is aborted. The timer holds the whole render (its
 * data and its tree) until it fires or is cleared, so it is cleared as soon as the page is written:
 * left to fire, a burst of renders kept the last few seconds' worth of pages in memory (#14).
 */
export function renderDeadline(abort: () => void, ms: number) {
  const timer = setTimeout(abort, ms);
  const clear = () => clearTimeout(timer);
  return {
    clear,
    /** clears the deadline once `body` has been written to the end, or closed */
    clearWhenWritten(body: Writable) {
      body.once("finish", clear);
      body.once("close", clear);
    },
  };
}
