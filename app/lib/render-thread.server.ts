import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import type { AppLoadContext } from "react-router";
import type { CatalogScope } from "../domain/catalog.server";
import type { WholeCompression } from "./page-compression.server";

/**
 * The render thread (docs/decisions/206): anonymous pages that are not kept are rendered on a second
 * JavaScript thread, beside the one that answers every request. Under load that one thread is the
 * shop's limit, and a product page's first render is its most costly answer (about ten kept pages'
 * worth of its time), while the machine's other core was partly idle.
 *
 * Only GETs of pages go there: an anonymous page's (the pages the page cache keeps), and a page the
 * front door renders for a shopper who is not signed in, the cart page among them (docs/decisions/207;
 * a signed-in shopper's stays on the main thread, see renderAtDoor). Everything such a render reads is
 * in the database or the request (the shopper's cookies are passed on with it), and it writes nothing,
 * so it is the same page on either thread. The thread has its own connection to the database and its own
 * copy of the app's kept cards and parts. Every catalogue change is passed on to it in order with the
 * renders (`catalogChanged`): a render asked after a change is made after the thread has heard of it.
 *
 * The thread starts at the first render asked of it, and stops after `idleMs` without one, so an idle
 * shop holds one thread's memory. Until it is ready, pages are rendered on the main thread, as they
 * are when it fails: a render it could not make is made there, and after `MAX_FAILURES` failures the
 * main thread renders everything again.
 *
 * The thread also compresses the page it renders as the main thread asks (`compress`), and hands both
 * over: compressing a page whole took about a twentieth of the main thread's time under load
 * (docs/decisions/207).
 */

/**
 * A page rendered whole for the server to send (AppLoadContext.renderedPage): its bytes, handed over
 * by the app; how the render thread is asked to compress it; and the copy it made that way.
 */
export interface RenderedPage {
  bytes: Buffer | null;
  compress?: WholeCompression | null;
  encoded?: Buffer | null;
}

/** A render asked of the thread: the request as the app's handler takes it, and its load context's own values. */
export interface RenderAsk {
  kind: "render";
  id: number;
  url: string;
  headers: [string, string][];
  nonce: string;
  clientIp: string;
  /** how to compress the page, if it is one and worth it (isCompressible) */
  compress: WholeCompression | null;
}

/** What the thread answers: the app's answer whole, or the error it threw. */
export type RenderAnswer =
  | {
      kind: "rendered";
      id: number;
      status: number;
      statusText: string;
      headers: [string, string][];
      body: Uint8Array<ArrayBuffer>;
      /** the page compressed as asked, or null */
      encoded: Uint8Array<ArrayBuffer> | null;
    }
  | { kind: "failed"; id: number; message: string };

/** What the main thread sends the thread. */
export type RenderThreadMessage = RenderAsk | { kind: "changed"; scope: CatalogScope };
/** What the thread reports: a render's answer, that it is ready (and its heap's limit), or that it cannot start. */
export type RenderThreadReport = RenderAnswer | { kind: "ready"; heapLimitMb: number } | { kind: "broken"; message: string };

/** The app's request handler, as React Router's createRequestHandler makes it. */
export type PageHandle = (request: Request, context?: AppLoadContext) => Promise<Response>;

/** Where a page is rendered: `handlerFor` gives the handler for an anonymous page's render (page-cache.server.ts). */
export interface PageRenderer {
  handlerFor(local: PageHandle): PageHandle;
}

interface Logger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The thread's old generation, in MB: it holds the app's code, its kept cards and parts, and one render at a time. */
export const RENDER_THREAD_HEAP_MB = 40;
/** Its young generation, in MB: a render's own objects die there; a few renders' worth. */
export const RENDER_THREAD_YOUNG_MB = 6;
/** After this long without a render, the thread stops and its memory is given back. */
export const RENDER_THREAD_IDLE_MS = 60_000;
/** After this many failures (the thread exited, or could not start), pages are rendered on the main thread only. */
export const MAX_FAILURES = 3;

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

export class RenderThread implements PageRenderer {
  private worker: Worker | null = null;
  private ready = false;
  private failures = 0;
  private lastId = 0;
  private readonly asked = new Map<number, { resolve: (response: Response) => void; reject: (error: Error) => void; context?: AppLoadContext }>();
  private readonly idle: NodeJS.Timeout;
  /** told once the thread runs with no render asked of it (whenFree), or that it cannot run (false) */
  private waitingForFree: ((free: boolean) => void)[] = [];

  /** `file`: the thread's script (build/render-thread.js), which reads the same settings as the server. */
  constructor(
    private readonly file: URL | string,
    private readonly logger: Logger,
    private readonly idleMs = RENDER_THREAD_IDLE_MS,
  ) {
    this.idle = setTimeout(() => this.stopWhenIdle(), idleMs);
    this.idle.unref();
  }

  /** Whether renders go to the thread now. */
  get running(): boolean {
    return this.ready;
  }

  /**
   * The handler for a page's render: the thread's once it is ready (the page is rendered with `local`
   * if the thread fails meanwhile), else `local`. Starts the thread if it is not running.
   */
  handlerFor(local: PageHandle): PageHandle {
    if (this.failures >= MAX_FAILURES) return local;
    if (!this.worker) this.start();
    if (!this.ready) return local;
    return (request, context) =>
      this.render(request, context).catch((error: Error) => {
        this.logger.error({ err: error }, "render thread: the page is rendered on the main thread");
        return local(request, context);
      });
  }

  /**
   * Resolves true once the thread runs with no render asked of it, so that a render asked then delays
   * no shopper's (the page store's preload, docs/decisions/211); false when it cannot run (closed, or
   * failed too often). It does not start the thread: a shopper's page does (handlerFor). Started
   * here, a thread that cannot start failed three times at once, and a page measured meanwhile by
   * Lighthouse was slower.
   */
  whenFree(): Promise<boolean> {
    if (this.failures >= MAX_FAILURES) return Promise.resolve(false);
    if (this.ready && this.asked.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => this.waitingForFree.push(resolve));
  }

  /** Tells those waiting in whenFree, when the thread is free or can no longer run. */
  private tellWhetherFree(): void {
    const free = this.ready && this.asked.size === 0;
    if (this.waitingForFree.length === 0 || (!free && this.failures < MAX_FAILURES)) return;
    const waiting = this.waitingForFree;
    this.waitingForFree = [];
    for (const resolve of waiting) resolve(free);
  }

  /** Passes a catalogue change on to the thread, before any render asked after it. */
  catalogChanged(scope: CatalogScope): void {
    this.worker?.postMessage({ kind: "changed", scope } satisfies RenderThreadMessage);
  }

  /** Stops the thread (the server is closing); renders asked of it fail, and no new one starts. */
  async close(): Promise<void> {
    this.failures = MAX_FAILURES;
    clearTimeout(this.idle);
    this.tellWhetherFree();
    await this.stop();
  }

  private start(): void {
    // The server's heap flags (npm run serve) are for its main thread, and V8 would give them to this
    // thread too, over its own limits: they are cleared before it starts (they were read when the
    // main thread's heap was made).
    v8.setFlagsFromString("--max-old-space-size=0");
    v8.setFlagsFromString("--initial-old-space-size=0");
    v8.setFlagsFromString("--max-semi-space-size=0");
    const worker = new Worker(this.file, { resourceLimits: { maxOldGenerationSizeMb: RENDER_THREAD_HEAP_MB, maxYoungGenerationSizeMb: RENDER_THREAD_YOUNG_MB } });
    this.worker = worker;
    this.ready = false;
    // A thread stopped or failed may still report: only the current one is heard.
    worker.on("message", (report: RenderThreadReport) => worker === this.worker && this.heard(report));
    worker.on("error", (error) => this.failed(worker, error.message));
    worker.on("exit", (code) => this.failed(worker, `exited with code ${code}`));
    // The thread never keeps the server running on its own.
    worker.unref();
    this.idle.refresh();
  }

  /** Renders on the thread, with no fallback: fails if the thread is not running or fails. */
  render(request: Request, context?: AppLoadContext): Promise<Response> {
    const worker = this.worker;
    if (!worker || !context) return Promise.reject(new Error("the render thread is not running"));
    return new Promise<Response>((resolve, reject) => {
      const id = ++this.lastId;
      this.asked.set(id, { resolve, reject, context });
      const headers: [string, string][] = [];
      request.headers.forEach((value, name) => headers.push([name, value]));
      const compress = context.renderedPage?.compress ?? null;
      worker.postMessage({ kind: "render", id, url: request.url, headers, nonce: context.cspNonce, clientIp: context.clientIp, compress } satisfies RenderThreadMessage);
      this.idle.refresh();
    });
  }

  private heard(report: RenderThreadReport): void {
    if (report.kind === "ready") {
      this.ready = true;
      this.logger.info({ heapLimitMb: report.heapLimitMb }, "render thread ready");
      this.tellWhetherFree();
      return;
    }
    if (report.kind === "broken") {
      if (this.worker) this.failed(this.worker, report.message);
      return;
    }
    const asked = this.asked.get(report.id);
    if (!asked) return;
    this.asked.delete(report.id);
    if (report.kind === "failed") asked.reject(new Error(report.message));
    else {
      // An answer that makes no Response (a header Node refuses) is a failed render: the main thread makes it.
      try {
        asked.resolve(this.answerOf(report, asked.context));
      } catch (error) {
        asked.reject(error as Error);
      }
    }
    this.tellWhetherFree();
  }

  private answerOf(report: Extract<RenderAnswer, { kind: "rendered" }>, context?: AppLoadContext): Response {
    const body = Buffer.from(report.body.buffer, report.body.byteOffset, report.body.byteLength);
    const init = { status: report.status, statusText: report.statusText, headers: report.headers };
    // A page's bytes are handed over as the load context asks (AppLoadContext.renderedPage).
    const handedOver = context?.renderedPage;
    if (handedOver && report.headers.some(([name, value]) => name === "content-type" && /^text\/html\b/.test(value))) {
      const answer = new Response(null, init);
      handedOver.bytes = body;
      handedOver.encoded = report.encoded && Buffer.from(report.encoded.buffer, report.encoded.byteOffset, report.encoded.byteLength);
      return answer;
    }
    return new Response(NO_BODY.has(report.status) ? null : report.body, init);
  }

  /** The thread is gone: its renders are made on the main thread, and the next render starts another. */
  private failed(worker: Worker, message: string): void {
    if (worker !== this.worker) return;
    this.worker = null;
    this.ready = false;
    this.failures++;
    this.logger.error({ message, failures: this.failures }, "render thread failed");
    for (const asked of this.asked.values()) asked.reject(new Error(`render thread failed: ${message}`));
    this.asked.clear();
    void worker.terminate();
    // Those waiting for a free thread wait for the next one, unless there will be none.
    this.tellWhetherFree();
  }

  private stopWhenIdle(): void {
    if (this.asked.size === 0) void this.stop();
    else this.idle.refresh();
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    this.ready = false;
    for (const asked of this.asked.values()) asked.reject(new Error("render thread stopped"));
    this.asked.clear();
    await worker.terminate();
  }
}
