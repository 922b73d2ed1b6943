import { describe, expect, it } from "vitest";
import { loadMeter } from "./server-load.server";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop working for `ms`, letting timers run between short stretches. */
async function work(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const stretch = Date.now() + 10;
    while (Date.now() < stretch);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("the server's load meter", () => {
  it("is busy while the event loop works most of the time, and not once it waits again", async () => {
    const meter = loadMeter(50);
    expect(meter.busy()).toBe(false);
    await work(300);
    expect(meter.busy()).toBe(true);
    await pause(300);
    expect(meter.busy()).toBe(false);
  });
});
