// A stand-in for build/render-thread.js (render-thread.ts), for app/lib/render-thread.test.ts: it
// speaks the same messages. A render answers its request as JSON (its address, headers and load
// context values, and the catalogue changes heard before it), compressed as asked when it is a page;
// /crash ends the thread, /fail answers a failure, /unchanged is a 304 and /bad-header has a header
// value no Response takes.
// With RENDER_STAND_IN=broken it cannot start.
import process from "node:process";
import { URL } from "node:url";
import { TextEncoder } from "node:util";
import v8 from "node:v8";
import { parentPort } from "node:worker_threads";
import zlib from "node:zlib";

const heard = [];
if (process.env.RENDER_STAND_IN === "broken") parentPort.postMessage({ kind: "broken", message: "no build" });
else parentPort.postMessage({ kind: "ready", heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 1024 / 1024) });

parentPort.on("message", (message) => {
  if (message.kind === "changed") return heard.push(message.scope);
  const { pathname } = new URL(message.url);
  if (pathname === "/crash") process.exit(3);
  if (pathname === "/fail") return parentPort.postMessage({ kind: "failed", id: message.id, message: "render failed" });
  const data = pathname.endsWith(".data") || pathname === "/unchanged";
  const body = new TextEncoder().encode(JSON.stringify({ url: message.url, headers: message.headers, nonce: message.nonce, clientIp: message.clientIp, compress: message.compress, heard }));
  const how = message.compress;
  const encoded = data || !how ? null : new Uint8Array(how.encoding === "br" ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: how.level } }) : zlib.gzipSync(body, { level: how.level }));
  parentPort.postMessage(
    {
      kind: "rendered",
      id: message.id,
      status: pathname === "/unchanged" ? 304 : 200,
      statusText: "OK",
      headers: [["content-type", data ? "text/x-script" : "text/html; charset=utf-8"], ["x-made", pathname === "/bad-header" ? "thread\nmade" : "thread"]],
      body,
      encoded,
    },
    encoded ? [body.buffer, encoded.buffer] : [body.buffer],
  );
});
