import { EventEmitter } from "node:events";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import { renderSlots } from "./render-slots.server";

const request = (path: string, destroyed = false) => ({ method: "GET", path, socket: { destroyed } }) as unknown as ExpressRequest;
const response = () => new EventEmitter() as unknown as ExpressResponse;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("render slots", () => {
  it("lets a few storefront renders run at once, the rest wait in order, and frees a slot when the answer is sent or dropped", async () => {
    const slots = renderSlots((req) => req.path.startsWith("/shop"), 2);
    const started: number[] = [];
    const answers = Array.from({ length: 5 }, () => response());
    answers.forEach((res, i) => slots.middleware(request("/shop"), res, () => started.push(i)));
    await tick();
    expect(started).toEqual([0, 1]);
    expect(slots.stats()).toEqual({ running: 2, waiting: 3 });
    answers[0].emit("finish");
    await tick();
    expect(started).toEqual([0, 1, 2]);
    answers[1].emit("close");
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    // Other requests (a payment check waiting on Paystack) never wait for a slot.
    let other = false;
    slots.middleware(request("/payments/paystack/callback"), response(), () => (other = true));
    expect(other).toBe(true);
    answers[2].emit("finish");
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    answers[3].emit("finish");
    answers[4].emit("finish");
    await tick();
    expect(slots.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it("does not render for a shopper who went away while waiting", async () => {
    const slots = renderSlots(() => true, 1);
    const first = response();
    let rendered = 0;
    slots.middleware(request("/shop"), first, () => rendered++);
    slots.middleware(request("/shop", true), response(), () => rendered++);
    await tick();
    first.emit("finish");
    await tick();
    await tick();
    expect(rendered).toBe(1);
    expect(slots.stats()).toEqual({ running: 0, waiting: 0 });
  });
});
