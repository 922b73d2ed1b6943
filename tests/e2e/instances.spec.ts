import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { queueMail } from "~/domain/mail-outbox.server";
import { recordView } from "~/domain/recently-viewed.server";
import { type RunningShop, startShop } from "../../scripts/support/shop-server";
import { checkoutOnce, customerWithSession } from "../../scripts/support/shopper";
import { makeProducts, setSize } from "../support/catalogue";
import { freePort } from "../support/free-port";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/postgres";

/**
 * Two instances of the built shop on one PostgreSQL database, behind one port (a small round-robin
 * proxy, as nginx would be): they share sessions, carts and rate limits, send each queued e-mail once
 * between them, and a catalogue change on one empties the other's page cache within a second
 * (docs/decisions/146).
 */

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

let postgres: ThrowawayPostgres;
let database: DatabaseHandle;
let a: RunningShop;
let b: RunningShop;
let proxy: http.Server;
let front: string;
const dataDirs: string[] = [];

/** Every request to the next instance in turn. */
function roundRobin(targets: string[]): http.Server {
  let next = 0;
  return http.createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]);
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}

const customerCookie = (email: string) => customerWithSession(database.db, email, "Ngozi", "Twoservers");

test.beforeAll(async () => {
  // A PostgreSQL cluster and two servers to start: slow on a busy machine.
  test.setTimeout(180_000);
  postgres = await startThrowawayPostgres();
  const [portA, portB, portProxy] = [await freePort(), await freePort(), await freePort()];
  front = `http://127.0.0.1:${portProxy}`;
  // Each answers to its own address too (the Origin check also accepts the Host a request came to,
  // which is how the proxied requests below pass).
  // No demo catalogue (its pictures take long to render): a few products are added below.
  const env = { LOG_LEVEL: "error", SEED_DEMO: "false" };
  for (let i = 0; i < 2; i++) dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-instance-")));
  // One after the other: the first migrates the database, the second finds it done.
  a = await startShop({ port: portA, dataDir: dataDirs[0], databaseUrl: postgres.url, env });
  b = await startShop({ port: portB, dataDir: dataDirs[1], databaseUrl: postgres.url, env });
  proxy = roundRobin([a.base, b.base]);
  await new Promise<void>((resolve) => proxy.listen(portProxy, "127.0.0.1", resolve));
  database = await openDatabase({ databaseUrl: postgres.url, sqlitePath: "" });
  await makeProducts(database.db, [
    { name: "Shared Oud", price: 4_500_000, stock: 50 },
    { name: "Shared Rose", price: 3_000_000, stock: 50 },
    { name: "Shared Musk", price: 2_500_000, stock: 50 },
  ]);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await new Promise((resolve) => proxy?.close(resolve));
  await a?.stop();
  await b?.stop();
  await database?.close();
  await postgres?.stop();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

test("a session and a cart made on one instance are the same on the other", async () => {
  const cookie = await customerCookie(`two-servers-${Date.now()}@example.com`);
  for (const shop of [a, b]) {
    const profile = await fetch(`${shop.base}/profile`, { headers: { Cookie: cookie } });
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain("Ngozi");
  }

  // A visitor's cart: made on A, read and added to on B, read on A.
  const [first, second] = await database.db.selectFrom("products").select(["id", "name"]).where("stock", ">", 5).where("archived_at", "is", null).orderBy("id").limit(2).execute();
  const add = (shop: RunningShop, productId: number, cookie?: string) =>
    fetch(`${shop.base}/cart`, {
      method: "POST",
      headers: { Origin: shop.base, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
      body: new URLSearchParams({ intent: "add", productId: String(productId) }),
      redirect: "manual",
    });
  const added = await add(a, first.id);
  expect(added.status).toBe(303);
  const cart = added.headers.getSetCookie().find((c) => c.startsWith("ub_cart="))!.split(";")[0];
  expect(await (await fetch(`${b.base}/cart`, { headers: { Cookie: cart } })).text()).toContain(first.name);
  expect((await add(b, second.id, cart)).status).toBe(303);
  const onA = await (await fetch(`${a.base}/cart`, { headers: { Cookie: cart } })).text();
  expect(onA).toContain(first.name);
  expect(onA).toContain(second.name);
});

test("the rate limit counts requests to both instances together", async () => {
  // Password-reset requests: 10 an hour per address. Through the proxy they alternate between
  // instances, so each instance alone sees only 5 or 6; the 11th is refused all the same.
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    const answer = await fetch(`${front}/auth/forgot-password`, {
      method: "POST",
      headers: { Origin: front, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: `nobody-${i}@example.com` }),
      redirect: "manual",
    });
    statuses.push(answer.status);
  }
  expect(statuses.slice(0, 10).every((s) => s < 400)).toBe(true);
  expect(statuses[10]).toBe(429);
});

test("each queued e-mail is sent once, by one instance or the other", async () => {
  const subjects = Array.from({ length: 40 }, (_, i) => `Two instances ${Date.now()} #${i}`);
  for (const subject of subjects) await queueMail(database.db, { to: "owner@example.com", subject, text: "hello", kind: "test" });
  await expect
    .poll(async () => Number((await database.db.selectFrom("mail_outbox").select((eb) => eb.fn.countAll<number>().as("n")).where("subject", "in", subjects).where("status", "=", "sent").executeTakeFirstOrThrow()).n), { timeout: 60_000 })
    .toBe(40);
  const written = dataDirs.flatMap((dir) => {
    const mail = path.join(dir, "mail");
    return fs.existsSync(mail) ? fs.readdirSync(mail).map((f) => fs.readFileSync(path.join(mail, f), "utf8")) : [];
  });
  for (const subject of subjects) expect(written.filter((raw) => raw.includes(`Subject: ${subject}\r\n`) || raw.includes(`Subject: ${subject}\n`)), subject).toHaveLength(1);
});

test("a catalogue change on one instance reaches the other's page cache and kept cards within a second", async () => {
  const [{ id }, { id: other }] = await database.db.selectFrom("products").select("id").where("stock", ">", 0).where("archived_at", "is", null).orderBy("id", "desc").limit(2).execute();
  await setSize(database.db, id, { stock: 1 });
  // Rendered by B (no catalogue change since the update, which came from outside the shop, so B
  // renders it now), then served from B's memory.
  const page = () => fetch(`${b.base}/shop/${id}`);
  // Stored once rendered and compressed, a moment after the first answer went out.
  await expect.poll(async () => (await page()).headers.get("x-page-cache"), { timeout: 5000 }).toBe("hit");
  const cached = await page();
  expect(cached.headers.get("x-page-cache")).toBe("hit");
  // (The page's texts always include 'Sold out' for the client; its structured data says the truth.)
  expect(await cached.text()).toContain("https://schema.org/InStock");
  // A signed-in shopper who viewed it sees its card in their recently viewed row on another product's
  // page: B keeps the card (docs/decisions/196).
  const email = `viewer-${Date.now()}@example.com`;
  const shopper = await customerCookie(email);
  await recordView(database.db, (await database.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id, id);
  const rowCard = async () => {
    const html = await (await fetch(`${b.base}/shop/${other}`, { headers: { Cookie: shopper } })).text();
    // (after the row's heading: RECENT_HEADING_ID of app/components/recently-viewed.tsx)
    const row = html.slice(html.indexOf('id="recently-viewed-title"'));
    return row.split('<article class="card">').find((card) => card.includes(`href="/shop/${id}"`)) ?? "";
  };
  expect(await rowCard()).toContain(`href="/shop/${id}"`);
  expect(await rowCard()).not.toContain('class="badge');

  // The last bottle is bought on A: the product is sold out, and B must say so.
  const bought = await checkoutOnce(a.base, { cookie: await customerCookie(`last-bottle-${Date.now()}@example.com`) }, id);
  expect(bought).toMatch(/^UB-\d+$/);
  const soldAt = Date.now();
  await expect.poll(async () => (await (await page()).text()).includes("https://schema.org/OutOfStock"), { timeout: 1000, intervals: [50] }).toBe(true);
  await expect.poll(async () => (await rowCard()).includes('class="badge'), { timeout: 1000, intervals: [50] }).toBe(true);
  expect(Date.now() - soldAt).toBeLessThan(1000);
});

test("an order on one instance empties on the other only the pages it changed (docs/decisions/205)", async () => {
  const [{ id: bought }, { id: other }] = await database.db.selectFrom("products").select("id").where("stock", ">", 5).where("archived_at", "is", null).orderBy("id", "desc").limit(2).execute();
  const askB = async (path: string) => (await fetch(`${b.base}${path}`)).headers.get("x-page-cache");
  const unchanged = [`/shop/${other}`, "/shop", "/", "/shop?sort=price-asc"];
  for (const path of [`/shop/${bought}`, "/shop?sort=best-selling", ...unchanged]) await expect.poll(() => askB(path), { timeout: 5000 }).toBe("hit");

  const number = await checkoutOnce(a.base, { cookie: await customerCookie(`one-bottle-${Date.now()}@example.com`) }, bought);
  expect(number).toMatch(/^UB-\d+$/);
  // Within a second B renders again the bought product's page and the best sellers...
  const orderedAt = Date.now();
  await expect.poll(() => askB(`/shop/${bought}`), { timeout: 1000, intervals: [50] }).not.toBe("hit");
  expect(Date.now() - orderedAt).toBeLessThan(1000);
  expect(await askB("/shop?sort=best-selling")).not.toBe("hit");
  // ...and still answers from memory the pages the order changed nothing on.
  for (const path of unchanged) expect(await askB(path)).toBe("hit");
});
