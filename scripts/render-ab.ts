// npm run bench:render -- --before ../before --data-dir DIR [--paths /shop/{id},/shop] [--blocks 600]
// Measures what a change does to the server's render of a page, in one process, without HTTP: the
// build of this folder and the build of another checkout (--before, with its own node_modules and
// `npm run build`, e.g. `git worktree add ../before HEAD~1`) each render the same pages in turn, ten
// at a time, and the CPU time of each is added up. Interleaving this finely cancels most of what moves
// a load test by 10 % (the machine's speed, the other processes): two runs of the same build differ by
// under 1 %. The figure is the render alone (loaders, React, the page's bytes), not compression or the
// network.
// `--data-dir` is a shop's data folder on SQLite, e.g. one made by `DATA_DIR=DIR npm run seed --
// --products 10000`; `{id}` in a path is a random product id of that catalogue.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { AppLoadContext, createRequestHandler as CreateRequestHandler, ServerBuild } from "react-router";
import { openDatabase } from "../app/db/client.server";
import { loadConfig } from "../app/lib/config.server";

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    "data-dir": { type: "string" },
    paths: { type: "string", default: "/shop/{id}" },
    blocks: { type: "string", default: "600" },
  },
});
if (!values.before || !values["data-dir"]) {
  console.error("usage: npm run bench:render -- --before ../before --data-dir /tmp/unboxed-bench-XXXX [--paths /shop/{id},/shop] [--blocks 600]");
  process.exit(2);
}
// React and the router as the server runs them: their production builds.
process.env.NODE_ENV = "production";
const dataDir = path.resolve(values["data-dir"]);
const checkouts = [path.resolve(values.before), process.cwd()];
const paths = values.paths.split(",");
const blocks = Number(values.blocks);
const RENDERS_PER_BLOCK = 10;

const config = loadConfig({ ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PUBLIC_URL: "http://127.0.0.1:4700", SEED_DEMO: "false" });
const database = await openDatabase({ databaseUrl: null, sqlitePath: path.join(dataDir, "shop.db") });
const products = (await database.db.selectFrom("products").select((eb) => [eb.fn.min("id").as("min"), eb.fn.max("id").as("max")]).executeTakeFirstOrThrow()) as { min: number; max: number };

/** Each checkout's request handler, from its own build and its own react-router (its patches may differ). */
const handlers = await Promise.all(
  checkouts.map(async (checkout) => {
    const buildPath = path.join(checkout, "build/server/index.js");
    if (!fs.existsSync(buildPath)) throw new Error(`no build at ${buildPath}: run "npm run build" there first`);
    const router = (await import(path.join(checkout, "node_modules/react-router/dist/development/index.mjs"))) as { createRequestHandler: typeof CreateRequestHandler };
    return router.createRequestHandler((await import(buildPath)) as ServerBuild, "production");
  }),
);

async function renderOne(which: number): Promise<void> {
  const id = products.min + Math.floor(Math.random() * (products.max - products.min + 1));
  const url = `http://127.0.0.1:4700${paths[Math.floor(Math.random() * paths.length)].replace("{id}", String(id))}`;
  const context = { db: database.db, engine: database.engine, config, cspNonce: "render-ab", clientIp: "127.0.0.1", readsOfRequest: {}, renderedPage: { bytes: null } };
  const response = await handlers[which](new Request(url, { headers: { "accept-encoding": "br" } }), context as unknown as AppLoadContext);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
}

// Warm both builds up (the JIT, the kept parts of pages) before counting.
for (let i = 0; i < 400; i++) for (const which of [0, 1]) await renderOne(which);
const cpu = [0, 0];
for (let block = 0; block < blocks; block++) {
  // Each build goes first in every other block.
  for (const which of block % 2 ? [1, 0] : [0, 1]) {
    const start = process.cpuUsage();
    for (let i = 0; i < RENDERS_PER_BLOCK; i++) await renderOne(which);
    const used = process.cpuUsage(start);
    cpu[which] += used.user + used.system;
  }
}
await database.close();
const [before, after] = cpu.map((micros) => micros / 1000 / (blocks * RENDERS_PER_BLOCK));
console.log(`${paths.join(", ")}: ${blocks * RENDERS_PER_BLOCK} renders each`);
console.log(`before ${before.toFixed(3)} ms, after ${after.toFixed(3)} ms of CPU per render: ${after - before >= 0 ? "+" : ""}${(after - before).toFixed(3)} ms (${((100 * (after - before)) / before).toFixed(1)} %)`);
