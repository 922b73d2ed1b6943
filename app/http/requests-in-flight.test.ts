import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import { requestsInFlight } from "./requests-in-flight.server";

const req = {} as ExpressRequest;
const res = {} as ExpressResponse;
const next = (() => {}) as NextFunction;

/** a handler whose work ends when the test says so */
function handlerAtWork() {
  let finish!: (failed?: boolean) => void;
  const work = new Promise<void>((resolve, reject) => (finish = (failed) => (failed ? reject(new Error("failed")) : resolve())));
  work.catch(() => {});
  return { handler: () => work, finish };
}

describe("requests in flight", () => {
  it("counts each handler from its start until its work is done, failed or not", async () => {
    const inFlight = requestsInFlight();
    const [a, b] = [handlerAtWork(), handlerAtWork()];
    inFlight.track(a.handler)(req, res, next);
    inFlight.track(b.handler)(req, res, next);
    expect(inFlight.count()).toBe(2);
    a.finish();
    b.finish(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight.count()).toBe(0);
    // A handler that does its work at once, or throws, is counted out at once too.
    inFlight.track(() => undefined)(req, res, next);
    expect(() =>
      inFlight.track(() => {
        throw new Error("bad");
      })(req, res, next),
    ).toThrow("bad");
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight.count()).toBe(0);
  });

  it("tells the server when all the work is done, or that some was not in time", async () => {
    const inFlight = requestsInFlight();
    expect(await inFlight.answered(10)).toBe(true);
    const [a, b] = [handlerAtWork(), handlerAtWork()];
    inFlight.track(a.handler)(req, res, next);
    inFlight.track(b.handler)(req, res, next);
    let settled: boolean | null = null;
    const answered = inFlight.answered(5_000).then((all) => (settled = all));
    a.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBeNull();
    b.finish();
    expect(await answered).toBe(true);

    const stuck = handlerAtWork();
    inFlight.track(stuck.handler)(req, res, next);
    const started = Date.now();
    expect(await inFlight.answered(50)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    stuck.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight.count()).toBe(0);
  });

  it("counts work begun before Express (a shopper's page filled in) until it is done, failed or not", async () => {
    const inFlight = requestsInFlight();
    const [a, b] = [handlerAtWork(), handlerAtWork()];
    const first = inFlight.during(a.handler);
    const second = inFlight.during(b.handler).catch((error: Error) => error.message);
    expect(inFlight.count()).toBe(2);
    const answered = inFlight.answered(5_000);
    a.finish();
    await first;
    expect(inFlight.count()).toBe(1);
    b.finish(true);
    expect(await second).toBe("failed");
    expect(await answered).toBe(true);
    expect(inFlight.count()).toBe(0);
  });
});
