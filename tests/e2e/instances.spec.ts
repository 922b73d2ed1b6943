import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { queueMail } from "~/domain/operations/mail-outbox.server";
import { recordView } from "~/domain/shopper/recently-viewed.server";
import { type RunningShop, startShop } from "../../scripts/support/shop-server";
import { checkoutOnce, customerWithSession } from "../../scripts/support/shopper";
import { makeProducts, setSize } from "../support/catalogue";
import { freePort } from "../support/free-port";
import { nginxBinary, type RunningNginx, startNginx } from "../support/nginx";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/postgres";

/**
 * Two instances of the built shop on one PostgreSQL database, behind the distribution's nginx running
 * the shipped deploy/nginx.conf: they share sessions, carts and rate limits, send each queued e-mail
 * once between them, and hear each other's catalogue changes (docs/decisions/146); nginx keeps the
 * anonymous storefront pages for as long as the app's Cache-Control says, and never a shopper's own.
 */

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

/** SHARED_CACHE_SECONDS of both instances: how long nginx answers a page without asking. */
const KEPT_SECONDS = 2;

let postgres: ThrowawayPostgres;
let database: DatabaseHandle;
let a: RunningShop;
let b: RunningShop;
let nginx: RunningNginx;
let front: string;
const dataDirs: string[] = [];
let productIds: number[] = [];

const customerCookie = (email: string) => customerWithSession(database.db, email, "Ngozi", "Twoservers");

/** GET through nginx (or an instance): status, the headers that matter here, and the page. */
async function ask(url: string, headers: Record<string, string> = {}) {
  const answer = await fetch(url, { headers, redirect: "manual" });
  return {
    status: answer.status,
    cache: answer.headers.get("x-cache-status"),
    cacheControl: answer.headers.get("cache-control"),
    etag: answer.headers.get("etag"),
    location: answer.headers.get("location"),
    body: await answer.text(),
  };
}

/** What the header's cart link shows. */
const cartTotal = (html: string) => html.match(/data-testid="cart-total"[^>]*>([^<]*)</)?.[1];

test.beforeAll(async () => {
  // A PostgreSQL cluster, two servers and nginx to start: slow on a busy machine.
  test.setTimeout(180_000);
  // Before anything starts: without nginx this says at once how to install it.
  nginxBinary();
  postgres = await startThrowawayPostgres();
  const [portA, portB, portNginx] = [await freePort(), await freePort(), await freePort()];
  // Each answers to its own address too (the Origin check also accepts the Host a request came to,
  // which is how the requests through nginx pass).
  // No demo catalogue (its pictures take long to render): a few products are added below.
  const env = { LOG_LEVEL: "error", SEED_DEMO: "false", SHARED_CACHE_SECONDS: String(KEPT_SECONDS) };
  for (let i = 0; i < 2; i++) dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-instance-")));
  // One after the other: the first migrates the database, the second finds it done.
  a = await startShop({ port: portA, dataDir: dataDirs[0], databaseUrl: postgres.url, env });
  b = await startShop({ port: portB, dataDir: dataDirs[1], databaseUrl: postgres.url, env });
  nginx = await startNginx({ port: portNginx, instances: [a.base, b.base].map((base) => new URL(base).host) });
  front = nginx.base;
  database = await openDatabase({ databaseUrl: postgres.url, sqlitePath: "" });
  productIds = await makeProducts(database.db, [
    { name: "Shared Oud", price: 4_500_000, stock: 50 },
    { name: "Shared Rose", price: 3_000_000, stock: 50 },
    { name: "Shared Musk", price: 2_500_000, stock: 50 },
  ]);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await nginx?.stop();
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


test("nginx answers an anonymous page from its cache, without asking an instance", async () => {
  // An address of its own, so its first ask is nginx's first.
  const address = `/about?visit=${Date.now()}`;
  const first = await ask(`${front}${address}`);
  expect(first.status).toBe(200);
  expect(first.cache).toBe("MISS");
  expect(first.cacheControl).toBe(`public, max-age=0, s-maxage=${KEPT_SECONDS}, stale-while-revalidate=${KEPT_SECONDS}`);
  // Kept for KEPT_SECONDS: asked again until it comes from the cache (on a busy machine the second
  // ask may already find it expired).
  await expect.poll(async () => (await ask(`${front}${address}`)).cache, { timeout: 20_000, intervals: [100] }).toBe("HIT");
  // Each ask has a User-Agent of its own, which the access log names: its line is found whatever the
  // order nginx writes them in (a line is written after its answer has left, and an answer given stale
  // while nginx refreshes the page in the background is logged only once the refresh is done).
  const hits = [];
  for (let i = 0; i < 5; i++) {
    const agent = `unboxed-cache-check-${Date.now()}-${i}`;
    hits.push({ agent, ...(await ask(`${front}${address}`, { "User-Agent": agent })) });
  }
  // Every answer nginx says it took from its cache went to no instance (no upstream address logged),
  // and is the page as the instance wrote it.
  const fromCache = hits.filter((hit) => hit.cache === "HIT");
  expect(fromCache.length).toBeGreaterThan(0);
  for (const hit of fromCache) {
    await expect
      .poll(() => nginx.accessLog().find((line) => line.endsWith(`"${hit.agent}"`)) ?? "not logged yet", { timeout: 10_000 })
      .toContain(`"GET ${address} HTTP/1.1" 200 `);
    expect(nginx.accessLog().find((line) => line.endsWith(`"${hit.agent}"`))).toContain("cache=HIT upstream=- ");
  }
  for (const hit of fromCache) {
    expect(hit.etag).toBe(first.etag);
    expect(hit.body).toBe(first.body);
  }
  // A browser that has the page is told so by nginx alone.
  await expect.poll(async () => {
    const again = await ask(`${front}${address}`, { "If-None-Match": first.etag! });
    return `${again.status} ${again.cache}`;
  }, { timeout: 20_000, intervals: [100] }).toBe("304 HIT");
});

test("a shopper with a cart or a session gets their own page through nginx, never a kept one nor another's", async () => {
  // The home page kept for anonymous visitors: an empty cart.
  await expect.poll(async () => (await ask(`${front}/`)).cache, { timeout: 20_000, intervals: [100] }).toBe("HIT");
  const anonymous = await ask(`${front}/`);
  expect(cartTotal(anonymous.body)).toBe("₦0.00");

  // A visitor adds Shared Oud (₦45,000.00) to a cart through nginx.
  const added = await fetch(`${front}/cart`, {
    method: "POST",
    headers: { Origin: front, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "add", productId: String(productIds[0]) }),
    redirect: "manual",
  });
  expect(added.status).toBe(303);
  const cart = added.headers.getSetCookie().find((c) => c.startsWith("ub_cart="))!.split(";")[0];
  const ngozi = await customerCookie(`nginx-ngozi-${Date.now()}@example.com`);
  const tunde = await customerWithSession(database.db, `nginx-tunde-${Date.now()}@example.com`, "Tunde", "Otherone");
  for (let round = 0; round < 3; round++) {
    for (const address of ["/", `/shop/${productIds[1]}`, "/shop"]) {
      const withCart = await ask(`${front}${address}`, { Cookie: `lng=en; ${cart}` });
      expect(withCart.status, address).toBe(200);
      expect(withCart.cache, address).toBe("BYPASS");
      expect(withCart.cacheControl, address).toBe("private, no-store");
      expect(cartTotal(withCart.body), address).toBe("₦45,000.00");

      const asNgozi = await ask(`${front}${address}`, { Cookie: ngozi });
      expect(asNgozi.cache, address).toBe("BYPASS");
      expect(asNgozi.body, address).toContain("Ngozi");
      expect(cartTotal(asNgozi.body), address).toBe("₦0.00");

      const asTunde = await ask(`${front}${address}`, { Cookie: `theme=dark; ${tunde}` });
      expect(asTunde.cache, address).toBe("BYPASS");
      expect(asTunde.body, address).toContain("Tunde");
      expect(asTunde.body, address).not.toContain("Ngozi");
      expect(cartTotal(asTunde.body), address).toBe("₦0.00");

      // Nothing of theirs was kept for the next anonymous visitor.
      const next = await ask(`${front}${address}`);
      expect(next.status, address).toBe(200);
      expect(next.cache, address).not.toBe("BYPASS");
      expect(cartTotal(next.body), address).toBe("₦0.00");
      for (const name of ["Ngozi", "Tunde"]) expect(next.body, address).not.toContain(name);
    }
  }

  // A saved Spanish choice on an English address goes to the Spanish address, even with the English
  // page kept; and so does a browser asking for Spanish (the app's Vary: Accept-Language).
  const chosen = await ask(`${front}/`, { Cookie: "lng=es" });
  expect(chosen.cache).toBe("BYPASS");
  expect([chosen.status, chosen.location]).toEqual([302, "/?lng=es"]);
  const asked = await ask(`${front}/`, { "Accept-Language": "es-NG,es;q=0.9" });
  expect([asked.status, asked.location, asked.cacheControl]).toEqual([302, "/?lng=es", "private, no-store"]);
  // The Spanish address is kept for those who chose Spanish (a first visit there saves the choice in a
  // cookie, and an answer that sets a cookie is never kept).
  const spanish = () => ask(`${front}/?lng=es`, { Cookie: "lng=es" });
  await expect.poll(async () => (await spanish()).cache, { timeout: 20_000, intervals: [100] }).toBe("HIT");
  expect((await spanish()).body).toContain('lang="es"');
});

test("a catalogue change on one instance is on every instance's pages at once, on the other's kept cards within a second, and through nginx within twice SHARED_CACHE_SECONDS", async () => {
  const [{ id }, { id: other }] = await database.db.selectFrom("products").select("id").where("stock", ">", 0).where("archived_at", "is", null).orderBy("id", "desc").limit(2).execute();
  await setSize(database.db, id, { stock: 1 });
  // The product's page kept by nginx while it is in stock.
  // (The page's texts always include 'Sold out' for the client; its structured data says the truth.)
  await expect
    .poll(async () => {
      const page = await ask(`${front}/shop/${id}`);
      return `${page.cache} ${page.body.includes("https://schema.org/InStock")}`;
    }, { timeout: 20_000, intervals: [100] })
    .toBe("HIT true");
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

  // The last bottle is bought on A: the product is sold out, and every instance and nginx must say so.
  const bought = await checkoutOnce(a.base, { cookie: await customerCookie(`last-bottle-${Date.now()}@example.com`) }, id);
  expect(bought).toMatch(/^UB-\d+$/);
  const soldAt = Date.now();
  for (const shop of [a, b]) {
    await expect.poll(async () => (await ask(`${shop.base}/shop/${id}`)).body.includes("https://schema.org/OutOfStock"), { timeout: 1000, intervals: [50] }).toBe(true);
  }
  await expect.poll(async () => (await rowCard()).includes('class="badge'), { timeout: 1000, intervals: [50] }).toBe(true);
  expect(Date.now() - soldAt).toBeLessThan(1000);
  // nginx answers the kept page for up to KEPT_SECONDS, then the kept one once more while it asks for
  // the new one (stale-while-revalidate): the change shows within twice that, with room for a slow
  // render on a busy machine.
  const bound = 2 * KEPT_SECONDS * 1000 + 4000;
  const seen: string[] = [];
  await expect
    .poll(async () => {
      const page = await ask(`${front}/shop/${id}`);
      seen.push(`${page.cache}`);
      return page.body.includes("https://schema.org/OutOfStock");
    }, { timeout: bound + 10_000, intervals: [100] })
    .toBe(true);
  expect(Date.now() - soldAt, `nginx's answers meanwhile: ${seen.join(" ")}`).toBeLessThan(bound);
  // Kept again from then on.
  await expect.poll(async () => (await ask(`${front}/shop/${id}`)).cache, { timeout: 20_000, intervals: [100] }).toBe("HIT");

  // A page nobody asked for since a change is not answered older than that either: the kept page of
  // another product, then its new price, then a quiet spell longer than twice SHARED_CACHE_SECONDS;
  // the first shopper after it gets the new price.
  await expect.poll(async () => (await ask(`${front}/shop/${other}`)).cache, { timeout: 20_000, intervals: [100] }).toBe("HIT");
  expect((await ask(`${front}/shop/${other}`)).body).not.toContain("₦23,456.00");
  await setSize(database.db, other, { price: 2_345_600 });
  await new Promise((resolve) => setTimeout(resolve, 2 * KEPT_SECONDS * 1000 + 1000));
  const afterQuiet = await ask(`${front}/shop/${other}`);
  expect(afterQuiet.cache).toBe("EXPIRED");
  expect(afterQuiet.body).toContain("₦23,456.00");
});
