// The render thread's own script (app/lib/render-thread.server.ts, docs/decisions/206): renders the
// anonymous pages server.ts asks of it with the app's production build, on its own connection to the
// same database, and hears of every catalogue change before any render asked after it.
import path from "node:path";
import v8 from "node:v8";
import { parentPort } from "node:worker_threads";
import { type AppLoadContext, createRequestHandler, type ServerBuild } from "react-router";
import { openDatabase } from "./app/db/client.server";
import { catalogChanged } from "./app/domain/catalog.server";
import { loadConfig } from "./app/lib/config.server";
import { compressPage, isCompressible } from "./app/lib/page-compression.server";
import type { RenderAnswer, RenderThreadMessage, RenderThreadReport } from "./app/lib/render-thread.server";

const port = parentPort;
if (!port) throw new Error("render-thread.js runs as the server's render thread only");
const tell = (report: RenderThreadReport) =>
  port.postMessage(report, report.kind !== "rendered" ? [] : report.encoded ? [report.body.buffer, report.encoded.buffer] : [report.body.buffer]);

async function start() {
  const config = loadConfig();
  // Renders overlap only while one waits for the database (PostgreSQL): two connections let them. The
  // pages rendered here write nothing; on SQLite the connection is made unable to (docs/decisions/210).
  const database = await openDatabase({ ...config, poolSize: 2, readsOnly: true });
  const build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
  const handle = createRequestHandler(build, "production");
  return async (ask: Extract<RenderThreadMessage, { kind: "render" }>): Promise<RenderAnswer> => {
    const context = {
      db: database.db,
      engine: database.engine,
      config,
      cspNonce: ask.nonce,
      clientIp: ask.clientIp,
      readsOfRequest: {},
      renderedPage: { bytes: null as Buffer | null },
    } satisfies AppLoadContext;
    const response = await handle(new Request(ask.url, { method: "GET", headers: ask.headers }), context);
    const bytes = context.renderedPage.bytes ?? Buffer.from(await response.arrayBuffer());
    const page = context.renderedPage.bytes !== null;
    // Copies of their own, handed over to the main thread whole: the bytes may share a buffer.
    const body = new Uint8Array(bytes);
    const encoded = page && ask.compress && isCompressible(response.headers, bytes.length) ? new Uint8Array(compressPage(bytes, ask.compress)) : null;
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => headers.push([name, value]));
    return { kind: "rendered", id: ask.id, status: response.status, statusText: response.statusText, headers, body, encoded };
  };
}

const started = start();
started.then(
  () => tell({ kind: "ready", heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 1024 / 1024) }),
  (error: Error) => tell({ kind: "broken", message: error.message }),
);

port.on("message", (message: RenderThreadMessage) => {
  // Heard in the order sent: a change reaches the thread's kept cards before the renders asked after it.
  if (message.kind === "changed") return catalogChanged("elsewhere", message.scope);
  void started
    .then((render) => render(message))
    .catch((error: Error): RenderAnswer => ({ kind: "failed", id: message.id, message: error.message }))
    .then(tell);
});
