// npm run fuzz [-- --posts 10000 --concurrency 8 --seed 1 --port 0 --postgres | --database-url postgres://...]
// Starts the built server on a scratch shop, signs in a customer and an admin, and sends hostile
// POSTs to every route that has an action (taken from the build's route manifest, in its document,
// `.data` and `?index` forms): bodies that are not forms, wrong types, huge fields, random and repeated
// fields, files where text belongs, bodies over the limit, forged cookies. Prints the answers by
// status class and route, and exits 1 if any answer was a 5xx (or the server died).
// --postgres runs on a throwaway PostgreSQL cluster (needs the server binaries, see tests/support);
// --database-url uses that (scratch!) database: the fuzzer changes and deletes what it finds.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type DatabaseHandle } from "../app/db/client.server";
import { createOrPromoteAdmin } from "../app/domain/accounts/accounts.server";
import { createSession } from "~/http/session.server";
import type { Config } from "../app/platform/config.server";
import { hashPassword } from "../app/platform/password.server";
import { freePort } from "../tests/support/free-port";
import { insertOrder } from "../tests/support/orders";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../tests/support/postgres";
import { startShop } from "./support/shop-server";

const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "10000" },
    concurrency: { type: "string", default: "8" },
    seed: { type: "string", default: "1" },
    port: { type: "string", default: "0" },
    postgres: { type: "boolean", default: false },
    "database-url": { type: "string" },
  },
});
const POSTS = Number(values.posts);
const CONCURRENCY = Number(values.concurrency);

// ---------- a seeded random source, so a failing run can be repeated ----------
let state = Number(values.seed) >>> 0 || 1;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)];
const chance = (p: number) => random() < p;

// ---------- what is sent ----------
const FIELD_NAMES = [
  "intent", "productId", "quantity", "id", "email", "password", "confirmPassword", "firstName", "lastName", "redirectTo", "token",
  "street", "city", "state", "country", "addressId", "saveAddress", "checkoutKey", "seen", "name", "price", "discount", "stock",
  "description", "brandId", "categoryId", "image", "from", "to", "note", "q", "page", "role", "userId", "total", "status",
] as const;
const INTENTS = ["add", "remove", "increment", "decrement", "set", "clear", "whatsapp", "create", "update", "delete", "rename", "add-address", "update-address", "delete-address", "", "steal", "ADD", "add "];
const STATUSES = ["pending", "confirmed", "shipped", "delivered", "cancelled", "paid", "", "PENDING"];

let knownProductIds: number[] = [1];
const knownOrderNumbers: string[] = ["UB-10001"];

function hostileValue(): string {
  switch (int(24)) {
    case 0: return "";
    case 1: return String(int(2_000_000_000) - 1_000_000_000);
    case 2: return pick(["0", "-1", "1.5", "1e309", "NaN", "Infinity", "-0", "0x10", "1_000", " 7 ", "٣", "2147483648", "9007199254740993"]);
    case 3: return "9".repeat(1 + int(400));
    case 4: return String(pick(knownProductIds));
    case 5: return pick(knownOrderNumbers);
    case 6: return pick(["' OR 1=1 --", "'; DROP TABLE products; --", "\" OR \"\"=\"", "1; select pg_sleep(5)", "%' AND 1=0 UNION SELECT 1 --"]);
    case 7: return pick(["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "javascript:alert(1)", "{{7*7}}", "${7*7}"]);
    case 8: return pick(["\u0000", "a\u0000b", "\uFEFF", "\u202Etxt.exe", "\uD800", "🧴🧴🧴", "Ñandú", "\r\n\r\n", "\t"]);
    case 9: return "x".repeat(1000 + int(20_000));
    case 10: return pick(["true", "false", "on", "off", "null", "undefined", "[object Object]", "[]", "{}"]);
    case 11: return pick(["../../etc/passwd", "%00", "%2e%2e%2f", "//evil.example/x", "https://evil.example/", "/\\evil.example", "/profile?tab=addresses"]);
    case 12: return pick(["someone@example.com", "A@B.C", "not-an-email", "a@b", `${"a".repeat(300)}@example.com`, "admin@unboxed.example", " spaced@example.com "]);
    case 13: return pick(["Lagos", "Abuja (FCT)", "Rivers", "Atlantis", "Nigeria", "NIGERIA", "France"]);
    case 14: return pick(STATUSES);
    case 15: return pick(INTENTS);
    case 16: return JSON.stringify({ intent: "add", productId: 1 });
    case 17: return String.fromCharCode(...Array.from({ length: 1 + int(40) }, () => int(0xffff)));
    case 18: return "12 Allen Avenue";
    case 19: return String(int(100));
    case 20: return (int(10_000_000) / 100).toFixed(int(4));
    case 21: return "a good long passphrase";
    case 22: return "-".repeat(int(50)) + "boundary";
    default: return String(int(50));
  }
}

interface Post {
  path: string;
  headers: Record<string, string>;
  chunks: Buffer[];
  kind: string;
}

function randomFields(): [string, string][] {
  const fields: [string, string][] = [];
  if (chance(0.85)) fields.push(["intent", chance(0.7) ? pick(INTENTS) : hostileValue()]);
  const count = int(10);
  for (let i = 0; i < count; i++) {
    const name = chance(0.85) ? pick(FIELD_NAMES) : chance(0.5) ? hostileValue().slice(0, 200) : `f${int(1000)}`;
    fields.push([name, hostileValue()]);
    if (chance(0.1)) fields.push([name, hostileValue()]); // repeated field
  }
  return fields;
}

function urlencoded(fields: [string, string][]): Buffer {
  return Buffer.from(new URLSearchParams(fields).toString());
}

function multipart(fields: [string, string][], boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    const asFile = chance(0.15);
    const disposition = asFile
      ? `form-data; name="${name.replace(/["\r\n]/g, "")}"; filename="${pick(["photo.jpg", "a.png", "../../x.webp", "", "x.svg"])}"`
      : `form-data; name="${name.replace(/["\r\n]/g, "")}"`;
    const type = asFile ? `\r\nContent-Type: ${pick(["image/jpeg", "image/png", "application/octet-stream", "text/html"])}` : "";
    const body = asFile ? Buffer.from(Array.from({ length: int(5000) }, () => int(256))) : Buffer.from(value);
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), body, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

function inChunks(body: Buffer, size = 16 * 1024): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) chunks.push(body.subarray(i, i + size));
  return chunks.length ? chunks : [Buffer.alloc(0)];
}

const FORM = "application/x-www-form-urlencoded";

/** One hostile body: [kind, headers, body chunks, whether to declare its length]. */
function hostileBody(): { kind: string; headers: Record<string, string>; chunks: Buffer[]; declare: boolean } {
  const roll = random();
  if (roll < 0.32) return { kind: "random form", headers: { "Content-Type": pick([FORM, `${FORM}; charset=UTF-8`, "Application/X-WWW-Form-Urlencoded"]) }, chunks: [urlencoded(randomFields())], declare: chance(0.8) };
  if (roll < 0.5) {
    const boundary = `----fuzz${int(1e9)}`;
    return { kind: "random multipart", headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, chunks: inChunks(multipart(randomFields(), boundary)), declare: chance(0.7) };
  }
  if (roll < 0.57) return { kind: "JSON", headers: { "Content-Type": pick(["application/json", "application/json; charset=utf-8", "application/x-json"]) }, chunks: [Buffer.from(JSON.stringify(Object.fromEntries(randomFields())))], declare: true };
  if (roll < 0.63) return { kind: "text/plain", headers: { "Content-Type": "text/plain" }, chunks: [urlencoded(randomFields())], declare: true };
  if (roll < 0.69) return { kind: "no Content-Type", headers: {}, chunks: [urlencoded(randomFields())], declare: chance(0.5) };
  if (roll < 0.76) {
    const broken = pick([
      "--x\r\nnot a part",
      "------fuzz\r\nContent-Disposition: form-data; name=\"intent\"\r\n\r\nadd",
      "\r\n\r\n--",
      "--x\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--x--",
      Buffer.from(Array.from({ length: 2000 }, () => int(256))).toString("latin1"),
    ]);
    const type = pick(["multipart/form-data; boundary=x", "multipart/form-data", "multipart/form-data; boundary=", "multipart/mixed; boundary=x", `multipart/form-data; boundary=${"b".repeat(200)}`]);
    return { kind: "broken multipart", headers: { "Content-Type": type }, chunks: [Buffer.from(broken, "latin1")], declare: chance(0.5) };
  }
  if (roll < 0.8) {
    const big = Buffer.alloc(200 * 1024 + int(50 * 1024), 0x61);
    return { kind: "huge field", headers: { "Content-Type": FORM }, chunks: inChunks(Buffer.concat([Buffer.from(`intent=${pick(INTENTS)}&name=`), big])), declare: chance(0.5) };
  }
  if (roll < 0.84) {
    return { kind: "chunked over the limit", headers: { "Content-Type": pick([FORM, "multipart/form-data; boundary=x"]) }, chunks: inChunks(Buffer.alloc(260 * 1024 + int(200 * 1024), 0x61)), declare: false };
  }
  if (roll < 0.86) return { kind: "declared over the limit", headers: { "Content-Type": FORM, "Content-Length": String(6 * 1024 * 1024) }, chunks: [Buffer.alloc(1024, 0x61)], declare: false };
  if (roll < 0.88) return { kind: "bad Content-Length", headers: { "Content-Type": FORM, "Content-Length": pick(["-1", "abc", "1e3", " 12"]) }, chunks: [Buffer.from("intent=add")], declare: false };
  if (roll < 0.91) return { kind: "empty", headers: chance(0.5) ? { "Content-Type": FORM } : {}, chunks: [Buffer.alloc(0)], declare: chance(0.5) };
  if (roll < 0.94) return { kind: "odd charset", headers: { "Content-Type": `${FORM}; charset=${pick(["utf-16", "latin1", "nope", "utf-7"])}` }, chunks: [urlencoded(randomFields())], declare: true };
  return { kind: "raw bytes as form", headers: { "Content-Type": FORM }, chunks: [Buffer.from(Array.from({ length: int(4000) }, () => int(256)))], declare: true };
}

// ---------- the shop ----------
interface ActionRoute {
  id: string;
  path: string;
}

async function actionRoutes(): Promise<ActionRoute[]> {
  interface ManifestRoute {
    id: string;
    parentId?: string;
    path?: string;
    module: { action?: unknown };
  }
  const build = (await import(path.resolve("build/server/index.js"))) as { routes: Record<string, ManifestRoute> };
  const fullPath = (route: ManifestRoute): string => {
    const parent = route.parentId ? build.routes[route.parentId] : undefined;
    const base = parent ? fullPath(parent) : "";
    return route.path ? `${base.replace(/\/$/, "")}/${route.path}` : base || "/";
  };
  return Object.values(build.routes)
    .filter((route) => typeof route.module.action === "function")
    .map((route) => ({ id: route.id, path: fullPath(route) }));
}

/** encodeURIComponent for any string: a lone surrogate becomes U+FFFD instead of throwing. */
const encode = (value: string) => encodeURIComponent(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));

function urlFor(route: ActionRoute): string {
  const filled = route.path.replace(/:(\w+)/g, (_, name: string) =>
    encode(name === "number" || name === "reference" ? (chance(0.8) ? pick(knownOrderNumbers) : hostileValue().slice(0, 60)) : chance(0.8) ? String(pick(knownProductIds)) : hostileValue().slice(0, 60)),
  );
  const data = filled === "/" ? "/_root.data" : `${filled.replace(/\/$/, "")}.data`;
  const query = chance(0.2) ? `?${new URLSearchParams(randomFields().slice(0, 3)).toString()}` : "";
  switch (int(5)) {
    case 0:
    case 1:
      return filled + query;
    case 2:
      return data + query;
    case 3:
      return `${filled}?index${query ? `&${query.slice(1)}` : ""}`;
    default:
      return `${data}?index`;
  }
}

interface Answer {
  status: number;
  error?: string;
}

// A connection per post: a body refused before it was all sent cannot stall the next post.
const agent = new http.Agent({ keepAlive: false, maxSockets: CONCURRENCY });

function send(base: string, post: Post, declare: boolean): Promise<Answer> {
  return new Promise((resolve) => {
    const headers = { ...post.headers };
    if (declare) headers["Content-Length"] = String(post.chunks.reduce((n, c) => n + c.length, 0));
    let settled = false;
    const done = (answer: Answer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const request = http.request(`${base}${post.path}`, { method: "POST", headers, agent }, (response) => {
      response.resume();
      response.on("end", () => {
        done({ status: response.statusCode ?? 0 });
        // A body the server stopped reading (refused early) would hold the connection: drop it.
        request.destroy();
      });
      response.on("error", (error) => done({ status: response.statusCode ?? 0, error: error.message }));
    });
    // A post that declares more than it sends (e.g. "Content-Length:  12" for 10 bytes) is rightly waited on by the server.
    request.setTimeout(10_000, () => request.destroy(new Error("timeout")));
    request.on("error", (error) => done({ status: 0, error: (error as NodeJS.ErrnoException).code ?? error.message }));
    let i = 0;
    const writeNext = () => {
      if (request.destroyed || settled) return;
      if (i >= post.chunks.length) return void request.end();
      if (request.write(post.chunks[i++])) setImmediate(writeNext);
      else request.once("drain", writeNext);
    };
    writeNext();
  });
}

interface Identity {
  name: "anonymous" | "customer" | "admin";
  userId: number | null;
  cookie: string;
}

async function signInThroughTheForm(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": FORM, "X-Forwarded-For": "198.51.100.1" },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("ub_session="));
  if (response.status !== 303 || !cookie) throw new Error(`signing in ${email} failed: HTTP ${response.status}`);
  return cookie.split(";")[0];
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-fuzz-"));
  let postgres: ThrowawayPostgres | null = null;
  let databaseUrl = values["database-url"] ?? null;
  if (values.postgres) {
    postgres = await startThrowawayPostgres();
    databaseUrl = postgres.url;
  }
  const port = Number(values.port) || (await freePort());
  const shop = await startShop({ port, dataDir, databaseUrl, env: { SQLITE_PATH: path.join(dataDir, "shop.db") } });
  let database: DatabaseHandle | null = null;
  const started = Date.now();
  try {
    const base = shop.base;
    database = await openDatabase({ databaseUrl, sqlitePath: path.join(dataDir, "shop.db") });
    const db = database.db;
    const password = "a long fuzzing passphrase";
    const stamp = Date.now().toString(36);
    const adminEmail = `fuzz-admin-${stamp}@example.com`;
    const customerEmail = `fuzz-customer-${stamp}@example.com`;
    const { userId: adminId } = await createOrPromoteAdmin(db, { email: adminEmail, password, firstName: "Fuzz", lastName: "Admin" });
    const customer = await db
      .insertInto("users")
      .values({ email: customerEmail, password_hash: await hashPassword(password), first_name: "Fuzz", last_name: "Customer", role: "customer", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const identities: Identity[] = [
      { name: "anonymous", userId: null, cookie: "" },
      { name: "customer", userId: customer.id, cookie: await signInThroughTheForm(base, customerEmail, password) },
      { name: "admin", userId: adminId, cookie: await signInThroughTheForm(base, adminEmail, password) },
    ];
    // A fuzzed sign-out (or password reset) ends a session; a new one is made in the database.
    const sessionContext = { db, config: { publicUrl: base } as Config };
    const refreshSessions = async () => {
      for (const identity of identities) if (identity.userId) identity.cookie = (await createSession(sessionContext, identity.userId)).split(";")[0];
    };

    knownProductIds = (await db.selectFrom("products").select("id").orderBy("id").execute()).map((p) => p.id);
    if (knownProductIds.length) {
      for (let i = 0; i < 5; i++) {
        const order = await insertOrder(db, { userId: i % 2 ? customer.id : null, items: [{ productId: pick(knownProductIds), quantity: 1 }] });
        knownOrderNumbers.push(order.number);
      }
    } else knownProductIds = [1];

    const routes = await actionRoutes();
    console.log(`Fuzzing ${routes.length} routes with actions (${routes.map((r) => r.path).join(", ")})`);
    console.log(`${POSTS} posts, ${CONCURRENCY} at a time, seed ${values.seed}, on ${databaseUrl ? "PostgreSQL" : "SQLite"} ...`);

    const byClass: Record<string, number> = {};
    const byRoute = new Map<string, Record<string, number>>();
    const byKind = new Map<string, Record<string, number>>();
    const serverErrors: string[] = [];
    let sent = 0;
    let sinceRefresh = 0;
    const worker = async () => {
      while (sent < POSTS) {
        sent++;
        if (++sinceRefresh >= 250) {
          sinceRefresh = 0;
          await refreshSessions();
        }
        const route = pick(routes);
        const identity = pick(identities);
        const body = hostileBody();
        const headers: Record<string, string> = {
          Origin: chance(0.03) ? pick(["https://evil.example", "null", base.replace("127.0.0.1", "localhost")]) : base,
          "X-Forwarded-For": `203.0.113.${int(250) + 1}`,
          "Accept-Language": pick(["en", "es", "es-NG,es;q=0.9", "", "xx", "*"]),
          ...body.headers,
        };
        const cookies = [identity.cookie];
        if (chance(0.05)) cookies.push(pick(["ub_cart=forged", "lng=zz", "ub_toast=%7B%7D", "ub_session=forged"]));
        const cookie = cookies.filter(Boolean).join("; ");
        if (cookie) headers.Cookie = cookie;
        const post: Post = { path: urlFor(route), headers, chunks: body.chunks, kind: body.kind };
        const answer = await send(base, post, body.declare);
        const statusClass = answer.status === 0 ? `closed (${answer.error})` : `${Math.floor(answer.status / 100)}xx`;
        byClass[statusClass] = (byClass[statusClass] ?? 0) + 1;
        const routeRow = byRoute.get(route.path) ?? {};
        routeRow[statusClass] = (routeRow[statusClass] ?? 0) + 1;
        byRoute.set(route.path, routeRow);
        const kindRow = byKind.get(body.kind) ?? {};
        kindRow[statusClass] = (kindRow[statusClass] ?? 0) + 1;
        byKind.set(body.kind, kindRow);
        if (answer.status >= 500 && serverErrors.length < 30) serverErrors.push(`${answer.status} ${body.kind} as ${identity.name} to ${post.path}`);
        if (route.path === "/auth/logout" || route.path === "/auth/reset-password") await refreshSessions();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const seconds = (Date.now() - started) / 1000;
    const table = (rows: Map<string, Record<string, number>>) =>
      Object.fromEntries([...rows].sort(([a], [b]) => a.localeCompare(b)).map(([key, row]) => [key, row]));
    console.log("\nBy route:");
    console.table(table(byRoute));
    console.log("By body:");
    console.table(table(byKind));
    const alive = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    const fiveXx = byClass["5xx"] ?? 0;
    console.log(`posts: ${sent} in ${seconds.toFixed(0)} s; answers: ${JSON.stringify(byClass)}`);
    console.log(`server healthy afterwards: ${alive ? "yes" : "NO"}`);
    console.log(`5xx answers: ${fiveXx}`);
    if (serverErrors.length) {
      console.log(serverErrors.join("\n"));
      console.log("\nServer log (last lines):\n" + shop.log().split("\n").slice(-60).join("\n"));
    }
    if (fiveXx > 0 || !alive) process.exitCode = 1;
  } finally {
    agent.destroy();
    await database?.close();
    await shop.stop();
    await postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
