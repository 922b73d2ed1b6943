// npm run fuzz:memory [-- --posts 4 --megabytes 100 --path /auth/register --port 0]
// Starts the built server on a scratch shop and sends N chunked POSTs (no Content-Length) of M MB
// each, all at once, to a form route. Prints the server's resident memory before, its peak while the
// bodies arrive, and the answers. A server that reads such bodies whole grows by N x M MB; one that
// counts bytes as they arrive (docs/decisions/070) stays flat.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../tests/support/free-port";
import { residentMemory, startShop } from "./support/shop-server";

const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "4" },
    megabytes: { type: "string", default: "100" },
    path: { type: "string", default: "/auth/register" },
    port: { type: "string", default: "0" },
  },
});
const POSTS = Number(values.posts);
const BYTES = Number(values.megabytes) * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

function chunkedPost(base: string): Promise<{ status: number; sentMb: number; error?: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let sent = 0;
    let status = 0;
    const request = http.request(`${base}${values.path}`, {
      method: "POST",
      agent: false,
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": `192.0.2.${1 + Math.floor(Math.random() * 200)}` },
    });
    const finish = (error?: string) => resolve({ status, sentMb: Math.round(sent / 1024 / 1024), error, ms: Date.now() - started });
    request.on("response", (response) => {
      status = response.statusCode ?? 0;
      response.resume();
      response.on("end", () => {
        // The answer came: whatever the server does with the rest, stop sending.
        request.destroy();
        finish();
      });
    });
    request.on("error", (error) => finish((error as NodeJS.ErrnoException).code ?? error.message));
    const writeNext = () => {
      while (!request.destroyed && sent < BYTES) {
        sent += CHUNK.length;
        if (!request.write(CHUNK)) return void request.once("drain", writeNext);
      }
      if (!request.destroyed) request.end();
    };
    writeNext();
  });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-fuzz-memory-"));
  const port = Number(values.port) || (await freePort());
  const shop = await startShop({ port, dataDir, env: { SQLITE_PATH: path.join(dataDir, "shop.db") } });
  try {
    // Settle: one ordinary page, then a moment.
    await fetch(`${shop.base}/`).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 1000));
    const before = residentMemory(shop.pid);
    let peak = before.rssMb;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, residentMemory(shop.pid).rssMb);
      } catch {
        // the server is gone; reported below
      }
    }, 20);
    const results = await Promise.all(Array.from({ length: POSTS }, () => chunkedPost(shop.base)));
    clearInterval(sampler);
    const after = residentMemory(shop.pid);
    const alive = await fetch(`${shop.base}/healthz`).then((r) => r.ok, () => false);
    console.log(`${POSTS} chunked POSTs of ${values.megabytes} MB each, at once, to ${values.path}:`);
    for (const r of results) console.log(`  HTTP ${r.status || "-"}${r.error ? ` (${r.error})` : ""} after ${r.sentMb} MB sent, ${r.ms} ms`);
    console.log(`server RSS before: ${before.rssMb} MB`);
    console.log(`server RSS peak while the bodies arrived (sampled every 20 ms): ${peak} MB`);
    console.log(`kernel high-water mark (VmHWM, includes start-up): ${before.peakMb} MB before, ${after.peakMb} MB after`);
    console.log(`server RSS after: ${after.rssMb} MB; healthy: ${alive ? "yes" : "NO"}`);
    if (!alive || results.some((r) => r.status !== 413)) process.exitCode = 1;
  } finally {
    await shop.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
