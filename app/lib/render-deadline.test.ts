import { PassThrough } from "node:stream";
import { finished } from "node:stream/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderDeadline } from "./render-deadline.server";

describe("render deadline", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => vi.useRealTimers());

  it("aborts a render still being written when the time is up", () => {
    const abort = vi.fn();
    renderDeadline(abort, 6000).clearWhenWritten(new PassThrough());
    vi.advanceTimersByTime(6000);
    expect(abort).toHaveBeenCalledOnce();
  });

  it("lets go of a render as soon as its page is written, so nothing keeps it in memory", async () => {
    const abort = vi.fn();
    const body = new PassThrough();
    renderDeadline(abort, 6000).clearWhenWritten(body);
    body.end("<html></html>");
    body.resume();
    await finished(body);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(6000);
    expect(abort).not.toHaveBeenCalled();
  });

  it("lets go when the shopper goes away mid-page, and when the render fails before its first byte", async () => {
    const abort = vi.fn();
    const body = new PassThrough();
    renderDeadline(abort, 6000).clearWhenWritten(body);
    body.destroy();
    await finished(body).catch(() => {});
    renderDeadline(abort, 6000).clear();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(6000);
    expect(abort).not.toHaveBeenCalled();
  });
});
