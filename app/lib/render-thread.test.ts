import path from "node:path";
import v8 from "node:v8";
import zlib from "node:zlib";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { WholeCompression } from "./page-compression.server";
import { MAX_FAILURES, type PageHandle, RenderThread, type RenderedPage } from "./render-thread.server";

// The thread's messages, answered by a stand-in for build/render-thread.js (no build is needed).
const STAND_IN = path.resolve("tests/support/render-thread-stand-in.mjs");

const logged: { details: object; message: string }[] = [];
const logger = { info: (details: object, message: string) => logged.push({ details, message }), error: (details: object, message: string) => logged.push({ details, message }) };

const threads: RenderThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.close()));
  logged.length = 0;
  delete process.env.RENDER_STAND_IN;
});

function thread(idleMs?: number): RenderThread {
  const made = new RenderThread(STAND_IN, logger, idleMs);
  threads.push(made);
  return made;
}

/** The main thread's own render: says so. */
const local: PageHandle = async () => new Response("main", { headers: { "content-type": "text/plain" } });

const context = (nonce = "n0nce", compress: WholeCompression | null = null) =>
  ({ cspNonce: nonce, clientIp: "203.0.113.9", renderedPage: { bytes: null, compress } }) as unknown as AppLoadContext & { renderedPage: RenderedPage };

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error("waited 5 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What the stand-in read of a render asked of it. */
const readBack = (bytes: Buffer | string) =>
  JSON.parse(bytes.toString()) as { url: string; headers: [string, string][]; nonce: string; clientIp: string; compress?: WholeCompression; heard: unknown[] };

describe("the render thread (docs/decisions/206)", () => {
  it("starts at the first render asked, which the main thread makes meanwhile; then renders there, handing a page's bytes over", async () => {
    const renderer = thread();
    expect(renderer.running).toBe(false);
    expect(renderer.handlerFor(local)).toBe(local);
    await until(() => renderer.running);
    expect(logged).toContainEqual({ details: { heapLimitMb: expect.any(Number) }, message: "render thread ready" });

    const handedOver = context("abc", { encoding: "br", level: 6 });
    const request = new Request("http://shop.test/shop/7?x=1", { headers: { "accept-language": "es", host: "shop.test" } });
    const response = await renderer.handlerFor(local)(request, handedOver);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-made")).toBe("thread");
    // A page's bytes come as the load context asks, the answer without a body (entry.server.tsx).
    expect(await response.text()).toBe("");
    const asked = readBack(handedOver.renderedPage.bytes!);
    expect(asked.url).toBe("http://shop.test/shop/7?x=1");
    expect(asked.headers).toContainEqual(["accept-language", "es"]);
    expect([asked.nonce, asked.clientIp]).toEqual(["abc", "203.0.113.9"]);
    // The page compressed there as asked, handed over beside it (docs/decisions/207).
    expect(asked.compress).toEqual({ encoding: "br", level: 6 });
    expect(zlib.brotliDecompressSync(handedOver.renderedPage.encoded!).equals(handedOver.renderedPage.bytes!)).toBe(true);
    const gzipped = context("abc", { encoding: "gzip", level: 1 });
    await renderer.handlerFor(local)(request, gzipped);
    expect(zlib.gunzipSync(gzipped.renderedPage.encoded!).equals(gzipped.renderedPage.bytes!)).toBe(true);
    const plain = context("abc");
    await renderer.handlerFor(local)(request, plain);
    expect([plain.renderedPage.bytes === null, plain.renderedPage.encoded]).toEqual([false, null]);

    // Anything else (a page's data) comes in the body.
    const data = await renderer.handlerFor(local)(new Request("http://shop.test/shop/7.data"), context());
    expect(readBack(await data.text()).url).toBe("http://shop.test/shop/7.data");
  });

  it("hands over an answer without a body as such", async () => {
    const renderer = thread();
    renderer.handlerFor(local);
    await until(() => renderer.running);
    const unchanged = await renderer.handlerFor(local)(new Request("http://shop.test/unchanged"), context());
    expect([unchanged.status, unchanged.body, unchanged.headers.get("x-made")]).toEqual([304, null, "thread"]);
  });

  it("hears each catalogue change before any render asked after it", async () => {
    const renderer = thread();
    renderer.handlerFor(local);
    await until(() => renderer.running);
    const render = async () => {
      const handedOver = context();
      await renderer.handlerFor(local)(new Request("http://shop.test/shop"), handedOver);
      return readBack(handedOver.renderedPage.bytes!).heard;
    };
    const before = render();
    renderer.catalogChanged({ ordered: [12, 40] });
    const after = render();
    renderer.catalogChanged("anything");
    expect(await before).toEqual([]);
    expect(await after).toEqual([{ ordered: [12, 40] }]);
    expect(await render()).toEqual([{ ordered: [12, 40] }, "anything"]);
  });

  it("has a page it could not render made on the main thread; once the thread has failed three times, the main thread renders everything", async () => {
    const renderer = thread();
    renderer.handlerFor(local);
    await until(() => renderer.running);
    // A render that fails, the thread still running.
    expect(await (await renderer.handlerFor(local)(new Request("http://shop.test/fail"), context())).text()).toBe("main");
    expect(renderer.running).toBe(true);
    // An answer with a header no Response takes: made on the main thread too.
    expect(await (await renderer.handlerFor(local)(new Request("http://shop.test/bad-header"), context())).text()).toBe("main");
    expect(renderer.running).toBe(true);
    for (let failure = 1; failure <= MAX_FAILURES; failure++) {
      // The thread ends during a render: that page is made on the main thread, and the next render starts another thread.
      expect(await (await renderer.handlerFor(local)(new Request("http://shop.test/crash"), context())).text()).toBe("main");
      expect(renderer.running).toBe(false);
      if (failure < MAX_FAILURES) {
        expect(renderer.handlerFor(local)).toBe(local);
        await until(() => renderer.running);
      }
    }
    expect(logged.filter((entry) => entry.message === "render thread failed")).toHaveLength(MAX_FAILURES);
    expect(renderer.handlerFor(local)).toBe(local);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(renderer.running).toBe(false);
  });

  it("a thread that cannot start is a failure: pages are rendered on the main thread", async () => {
    process.env.RENDER_STAND_IN = "broken";
    const renderer = thread();
    expect(renderer.handlerFor(local)).toBe(local);
    await until(() => logged.some((entry) => entry.message === "render thread failed"));
    expect(logged.find((entry) => entry.message === "render thread failed")?.details).toMatchObject({ message: "no build", failures: 1 });
    expect(renderer.running).toBe(false);
  });

  it("stops after a while without a render, and starts again at the next", async () => {
    const renderer = thread(300);
    renderer.handlerFor(local);
    await until(() => renderer.running);
    await renderer.handlerFor(local)(new Request("http://shop.test/shop"), context());
    await until(() => !renderer.running);
    expect(renderer.handlerFor(local)).toBe(local);
    await until(() => renderer.running);
    // Stopping when idle is no failure.
    expect(logged.filter((entry) => entry.message === "render thread failed")).toHaveLength(0);
  });

  it("tells when it is free: once a page has started it, and when the renders asked of it are answered; not while one is out; never once closed", async () => {
    const renderer = thread();
    expect(renderer.running).toBe(false);
    // It does not start the thread: a page does.
    let started: boolean | null = null;
    const once = renderer.whenFree().then((answer) => (started = answer));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([started, renderer.running]).toEqual([null, false]);
    expect(renderer.handlerFor(local)).toBe(local);
    await once;
    expect([started, renderer.running]).toEqual([true, true]);
    const rendering = renderer.handlerFor(local)(new Request("http://shop.test/shop/1"), context());
    let told: boolean | null = null;
    const free = renderer.whenFree().then((answer) => (told = answer));
    await Promise.resolve();
    expect(told).toBeNull();
    await rendering;
    await free;
    expect(told).toBe(true);
    // A thread that failed mid-render: those waiting wait for the next one, started by the next page.
    const crashed = renderer.handlerFor(local)(new Request("http://shop.test/crash"), context());
    const afterCrash = renderer.whenFree();
    await crashed;
    expect(renderer.running).toBe(false);
    renderer.handlerFor(local);
    expect(await afterCrash).toBe(true);
    expect(renderer.running).toBe(true);
    const closing = renderer.handlerFor(local)(new Request("http://shop.test/shop/2"), context()).catch(() => null);
    const waiting = renderer.whenFree();
    await renderer.close();
    expect(await waiting).toBe(false);
    expect(await renderer.whenFree()).toBe(false);
    await closing;
  });

  it("gets its own heap limit, not the one the server's flags give the main thread", async () => {
    // As `npm run serve` starts the server (--max-old-space-size=160): V8 would give the thread that limit too.
    v8.setFlagsFromString("--max-old-space-size=160");
    const renderer = thread();
    renderer.handlerFor(local);
    await until(() => renderer.running);
    const limit = (logged.find((entry) => entry.message === "render thread ready")?.details as { heapLimitMb: number }).heapLimitMb;
    expect(limit).toBeLessThan(100);
  });
});
