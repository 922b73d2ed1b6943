import { EventEmitter } from "node:events";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { refuseWhenBusy, renderSlots } from "./render-slots.server";

const request = (path: string, destroyed = false) => ({ method: "GET", path, socket: { destroyed } }) as unknown as ExpressRequest;
/** an answer whose end() is what Node's would do: the connection then finishes writing later */
const response = () => Object.assign(new EventEmitter(), { ended: false, end() { this.ended = true; return this; } }) as unknown as ExpressResponse;
// Two turns: p-limit starts a turn in a microtask, and the render itself starts in the next turn.
const tick = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe("render slots", () => {
  it("lets a few storefront renders run at once, the rest wait in order, and frees a slot when the answer is handed over or dropped", async () => {
    const slots = renderSlots((req) => req.path.startsWith("/shop"), 2);
    const started: number[] = [];
    const answers = Array.from({ length: 5 }, () => response());
    answers.forEach((res, i) => slots.middleware(request("/shop"), res, () => started.push(i)));
    await tick();
    expect(started).toEqual([0, 1]);
    expect(slots.stats()).toEqual({ running: 2, waiting: 3 });
    answers[0].end();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    answers[1].emit("close");
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    // Other requests (a payment check waiting on Paystack) never wait for a slot.
    let other = false;
    slots.middleware(request("/payments/paystack/callback"), response(), () => (other = true));
    expect(other).toBe(true);
    answers[2].end();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    answers[3].end();
    answers[4].end();
    answers[4].emit("close");
    await tick();
    expect(slots.stats()).toEqual({ running: 0, waiting: 0 });
    // The answer itself still ends: the slot only watches it.
    expect(answers.map((res) => (res as unknown as { ended: boolean }).ended)).toEqual([true, false, true, true, true]);
  });

  it("runs a request's render in its slot from a later turn of the event loop, and not at all for a shopper who went away", async () => {
    const slots = renderSlots(() => true, 1);
    const started: string[] = [];
    const first = slots.inTurn(request("/shop") as unknown as IncomingMessage, async () => (started.push("first"), "page"));
    const gone = slots.inTurn(request("/shop", true) as unknown as IncomingMessage, async () => (started.push("gone"), "page"));
    for (let i = 0; i < 50; i++) await Promise.resolve();
    expect(started).toEqual([]);
    expect(await first).toBe("page");
    expect(await gone).toBeUndefined();
    expect(started).toEqual(["first"]);
    expect(slots.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it("starts a waiting render in a later turn of the event loop, never in the turn that freed its slot", async () => {
    const slots = renderSlots(() => true, 1);
    const first = response();
    const started: string[] = [];
    slots.middleware(request("/shop"), first, () => started.push("first"));
    slots.middleware(request("/shop"), response(), () => started.push("second"));
    await tick();
    expect(started).toEqual(["first"]);
    first.end();
    // Freed now; its successor waits for the next turn, so the server can accept new connections
    // between renders.
    for (let i = 0; i < 50; i++) await Promise.resolve();
    expect(started).toEqual(["first"]);
    await tick();
    await tick();
    expect(started).toEqual(["first", "second"]);
  });

  it("does not render for a shopper who went away while waiting", async () => {
    const slots = renderSlots(() => true, 1);
    const first = response();
    let rendered = 0;
    slots.middleware(request("/shop"), first, () => rendered++);
    slots.middleware(request("/shop", true), response(), () => rendered++);
    await tick();
    first.end();
    await tick();
    await tick();
    expect(rendered).toBe(1);
    expect(slots.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it("tells a shopper at once that the shop is busy when too many are already waiting, and takes the next one once there is room", async () => {
    const refused: string[] = [];
    const slots = renderSlots(() => true, 1, { maxWaiting: 2, refuse: (req) => refused.push((req as unknown as { path: string }).path) });
    const started: string[] = [];
    const answers = new Map<string, ExpressResponse>();
    const ask = async (path: string) => {
      answers.set(path, response());
      slots.middleware(request(path), answers.get(path)!, () => started.push(path));
      await tick();
    };
    for (const path of ["/a", "/b", "/c", "/d"]) await ask(path);
    expect(started).toEqual(["/a"]);
    expect(slots.stats()).toEqual({ running: 1, waiting: 2 });
    expect(refused).toEqual(["/d"]);
    answers.get("/a")!.end();
    await tick();
    await ask("/e");
    expect(started).toEqual(["/a", "/b"]);
    expect(refused).toEqual(["/d"]);
    expect(slots.stats()).toEqual({ running: 1, waiting: 2 });
  });

  it("answers a busy shop with 503, Retry-After and a message in the shopper's language", () => {
    const answer = (headers: Record<string, string>, url = "/shop") => {
      const sent: { status?: number; headers?: Record<string, string | number>; body?: string } = {};
      const res = {
        writeHead(code: number, values: Record<string, string | number>) { sent.status = code; sent.headers = values; return this; },
        end(body: string) { sent.body = body; return this; },
      } as unknown as ServerResponse;
      refuseWhenBusy({ url, headers } as unknown as IncomingMessage, res);
      return sent;
    };
    const english = answer({ "accept-language": "en-GB" });
    const message = "The shop is very busy right now. Please try again in a moment.";
    expect(english).toEqual({
      status: 503,
      headers: { "Retry-After": "2", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(message) },
      body: message,
    });
    expect(answer({ cookie: "lng=es" }).body).toBe("La tienda está muy ocupada en este momento. Inténtalo de nuevo en un momento.");
    expect(answer({ "accept-language": "es-NG,es;q=0.9" }).body).toMatch(/^La tienda/);
    expect(answer({ cookie: "lng=es" }, "/shop?lng=en").body).toMatch(/^The shop/);
  });
});
