import fs from "node:fs";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as profile from "~/routes/account.profile";
import * as shop from "~/routes/_store.shop";
import * as adminBrands from "~/routes/admin.brands";
import * as adminCustomers from "~/routes/admin.customers";
import * as adminOrders from "~/routes/admin.orders";
import * as adminOrdersExport from "~/routes/admin.orders.export";
import * as adminProducts from "~/routes/admin.products";
import { createSession } from "~/http/session.server";
import { MULTI_LINE_FIELDS } from "~/http/form.server";
import { addBrand, addCategory, addProduct, addUser } from "../support/catalogue";
import { testContext } from "../support/context";
import { type Action, everyRoute, outcome } from "../support/route-config";
import { ENGINES, freshDatabase, type TestDatabase } from "../support/databases";
import { insertOrder } from "../support/orders";

// A fuzzer for the text of forms (docs/decisions/212): every action in the route config, called as the
// server calls it over a real database on each engine, is sent NUL and other control characters,
// bytes that are not UTF-8 and UTF-8-encoded surrogates in every field the shop's forms have, signed in
// and signed out, in both form encodings. Never a 5xx; every route's form reader answers 400 with the
// translated message; and afterwards no text column of any table holds a control character or U+FFFD.
// The values are drawn from a fixed seed, so a failure comes back the same on the next run.

/** Every field name the shop's forms and actions use: inputs' names and the names actions read. */
function fieldNames(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const source = fs.readFileSync(full, "utf8");
        for (const pattern of [/\bname="([A-Za-z_][\w-]*)"/g, /\b(?:get|getAll|has|text)\("([A-Za-z_][\w-]*)"\)/g]) {
          for (const [, name] of source.matchAll(pattern)) names.add(name);
        }
        for (const [, list] of source.matchAll(/textFields\(\w+,\s*\[([^\]]*)\]/g)) for (const [, name] of list.matchAll(/"([\w-]+)"/g)) names.add(name);
      }
    }
  };
  walk(path.resolve("app"));
  return [...names].sort();
}

/** The values of `intent` an action tells apart, so the fuzzer reaches each of its branches. */
function intentsOf(file: string): string[] {
  const source = fs.readFileSync(path.resolve("app", file), "utf8");
  const intents = new Set<string>([""]);
  for (const [, intent] of source.matchAll(/intent\s*[!=]==\s*"([\w-]+)"/g)) intents.add(intent);
  for (const [, intent] of source.matchAll(/name="intent"\s+value="([\w-]+)"/g)) intents.add(intent);
  return [...intents];
}

// What is slipped into a field: each is refused wherever it appears (a tab or line break is text in a
// textarea's field, so those three are sent only to one-line fields).
const CONTROLS = [0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f].map((code) => Buffer.from([code]));
const C1 = [Buffer.from([0xc2, 0x80]), Buffer.from([0xc2, 0x85]), Buffer.from([0xc2, 0x9b]), Buffer.from([0xc2, 0x9f])];
const LINES = [Buffer.from([0x09]), Buffer.from([0x0a]), Buffer.from([0x0d]), Buffer.from([0x0d, 0x0a])];
const NOT_UTF8 = [
  [0xff],
  [0xfe],
  [0x80],
  [0xc3], // a two-byte sequence cut short
  [0xe2, 0x82], // a three-byte sequence cut short
  [0xc0, 0xaf], // an overlong "/"
  [0xed, 0xa0, 0x80], // a lone high surrogate written as UTF-8
  [0xed, 0xbf, 0xbf], // a lone low surrogate written as UTF-8
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
].map((bytes) => Buffer.from(bytes));
const ANYWHERE = [...CONTROLS, ...C1, ...NOT_UTF8];
const ONE_LINE_ONLY = [...ANYWHERE, ...LINES];

/** A small seeded generator (mulberry32): the same posts on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLAIN = ["12 Marina Road", "Lagos", "Ada", "ada@example.com", "Oud Wood", "3", "Nigeria", "Lekki Phase 1", "Una fragancia cálida"];

type Fields = [string, Buffer][];

function urlencoded(fields: Fields): Buffer {
  const escape = (bytes: Buffer) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  return Buffer.from(fields.map(([name, value]) => `${encodeURIComponent(name)}=${escape(value)}`).join("&"));
}

const BOUNDARY = "unboxed-fuzz-3f9a1c";
function multipart(fields: Fields): Buffer {
  const parts = fields.map(([name, value]) =>
    Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), value, Buffer.from("\r\n")]),
  );
  return Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

const TRANSLATED = /no es texto normal/;

/** Text a stored value must never hold (a textarea's tab and line breaks are text). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const STORED_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/;

async function storedHostileText(t: TestDatabase): Promise<string[]> {
  const found: string[] = [];
  for (const table of await t.db.introspection.getTables()) {
    const rows = (await t.db.selectFrom(table.name as never).selectAll().execute()) as Record<string, unknown>[];
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === "string" && STORED_CONTROL.test(value)) found.push(`${table.name}.${column}: ${JSON.stringify(value)}`);
      }
    }
  }
  return found;
}

describe.each(ENGINES)("text that is not text, in every field of every action, on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let adminCookie: string;
  let shopperCookie: string;
  const params: Record<string, string> = {};

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    const admin = await addUser(t.db, "owner");
    adminCookie = (await createSession(context, admin.id)).split(";")[0];
    const shopper = await addUser(t.db, "customer");
    shopperCookie = (await createSession(context, shopper.id)).split(";")[0];
    const product = await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: (await addCategory(t.db)).id, stock: 5 });
    const order = await insertOrder(t.db, { userId: shopper.id, items: [{ productId: product.id, quantity: 1 }] });
    Object.assign(params, { id: String(product.id), number: order.number, reference: order.number });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("a NUL in a saved address is a 400 in the shopper's language and is not stored; an empty address id is a 400", async () => {
    const post = (fields: Record<string, string>) =>
      new Request("http://shop.test/profile", {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Cookie: shopperCookie, Origin: "http://shop.test", "Accept-Language": "es" },
      });
    const address = { street: "12 Marina Road", city: "Lagos", state: "Lagos", country: "Nigeria" };
    for (const fields of [
      { intent: "add-address", ...address, street: "12 Marina\0Road" },
      { intent: "add-address", ...address, country: "Nige\0ria" },
      { intent: "update-address", addressId: "", ...address, street: "12 Marina\0Road" },
    ]) {
      const answer = await outcome(profile.action as Action, post(fields), context);
      expect(answer, JSON.stringify(fields)).toEqual({ status: 400, message: expect.stringMatching(TRANSLATED) });
    }
    for (const addressId of ["", "abc", "-1", "0", "1e3", "99999999999"]) {
      const answer = await outcome(profile.action as Action, post({ intent: "update-address", addressId, ...address }), context);
      expect(answer.status, `addressId=${addressId}`).toBe(400);
      expect(answer.message).toMatch(/No hemos podido leer/);
      expect((await outcome(profile.action as Action, post({ intent: "delete-address", addressId }), context)).status).toBe(400);
    }
    expect(await t.db.selectFrom("addresses").select("street").execute()).toEqual([]);
    // The same post with text in it is saved: the refusals above are the text's doing.
    expect((await outcome(profile.action as Action, post({ intent: "add-address", ...address }), context)).status).toBe(303);
    expect(await t.db.selectFrom("addresses").select("street").execute()).toEqual([{ street: "12 Marina Road" }]);
    await t.db.deleteFrom("addresses").execute();
  });

  it("a search whose address holds a control character is a 400 in the shopper's language, not a 500", async () => {
    const searches: [string, Action][] = [
      ["/shop", shop.loader as Action],
      ["/admin/products", adminProducts.loader as Action],
      ["/admin/customers", adminCustomers.loader as Action],
      ["/admin/brands", adminBrands.loader as Action],
      ["/admin/orders", adminOrders.loader as Action],
      ["/admin/orders/export", adminOrdersExport.loader as Action],
    ];
    for (const [path, loader] of searches) {
      for (const query of ["q=%00", "q=Oud%00Wood", "q=%1B%5B2J", "q=a%0Ab", "q=%C2%85", "q%00=x"]) {
        const request = new Request(`http://shop.test${path}?${query}`, { headers: { Cookie: adminCookie, "Accept-Language": "es" } });
        expect(await outcome(loader, request, context), `${path}?${query}`).toEqual({ status: 400, message: expect.stringMatching(TRANSLATED) });
      }
      const fine = await outcome(loader, new Request(`http://shop.test${path}?q=caf%C3%A9`, { headers: { Cookie: adminCookie } }), context);
      expect(fine.status, path).toBe(200);
    }
  });

  it("never answers 5xx, refuses every post with 400 and stores none of it", async () => {
    const names = fieldNames();
    expect(names).toEqual(expect.arrayContaining(["intent", "street", "country", "addressId", "email", "password", "body", "description", "note", "q"]));
    const withActions: { file: string; path: string; action: Action }[] = [];
    for (const entry of everyRoute()) {
      const module = (await import(/* @vite-ignore */ path.resolve("app", entry.file))) as { action?: Action };
      // The providers' webhooks (Paystack, WhatsApp, Termii) take JSON by design and are refused unless signed (their domain tests).
      if (module.action && !entry.path.startsWith("/webhooks/")) withActions.push({ ...entry, action: module.action });
    }
    expect(withActions.length).toBeGreaterThan(25);

    const next = random(0x5eed_0051);
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
    const plain = () => Buffer.from(pick(PLAIN));
    const hostile = (name: string) => {
      const base = pick(PLAIN);
      const at = Math.floor(next() * (base.length + 1));
      return Buffer.concat([Buffer.from(base.slice(0, at)), pick(MULTI_LINE_FIELDS.has(name) ? ANYWHERE : ONE_LINE_ONLY), Buffer.from(base.slice(at))]);
    };

    let posts = 0;
    const failures: string[] = [];
    const reachedReader = new Set<string>();
    for (const route of withActions) {
      const url = route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "1");
      const routeParams = Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, params[name] ?? "1"]));
      const intents = intentsOf(route.file);
      const send = async (fields: Fields, encoding: "urlencoded" | "multipart", cookie: string | null, what: string) => {
        posts++;
        const body = encoding === "urlencoded" ? urlencoded(fields) : multipart(fields);
        const type = encoding === "urlencoded" ? "application/x-www-form-urlencoded" : `multipart/form-data; boundary=${BOUNDARY}`;
        const headers: Record<string, string> = { "Content-Type": type, Origin: "http://shop.test", "Accept-Language": "es" };
        if (cookie) headers.Cookie = cookie;
        const request = new Request(`http://shop.test${url}`, { method: "POST", body: new Uint8Array(body), headers });
        const answer = await outcome(route.action, request, context, routeParams);
        if (answer.status >= 500) failures.push(`${what} to ${url}: ${answer.status} ${answer.message ?? ""}`);
        else if (answer.status === 400 && answer.message !== null && TRANSLATED.test(answer.message)) reachedReader.add(route.path);
        else if (answer.status < 300 || (answer.status === 400 && answer.message === null)) {
          // Read and not refused: the post got past the form reader with something that is not text in it.
          failures.push(`${what} to ${url}: accepted with ${answer.status} ${answer.message ?? ""}`);
        }
      };

      // Every field at once, with each thing that is not text, as signed out, a shopper or an admin.
      for (const bad of ONE_LINE_ONLY) {
        const intent = pick(intents);
        const fields: Fields = names.map((name) => [name, name === "intent" ? Buffer.from(intent) : MULTI_LINE_FIELDS.has(name) && LINES.includes(bad) ? plain() : Buffer.concat([plain(), bad])]);
        await send(fields, next() < 0.5 ? "urlencoded" : "multipart", pick([null, shopperCookie, adminCookie]), `${bad.toString("hex")} everywhere`);
      }
      // One field at a time, next to the action's intents in turn and a few plain fields.
      for (const [index, name] of names.entries()) {
        const intent = intents[index % intents.length];
        const fields: Fields = [["intent", name === "intent" ? hostile(name) : Buffer.from(intent)], ["street", plain()], ["email", plain()]];
        if (name !== "intent") fields.splice(1 + Math.floor(next() * 3), 0, [name, hostile(name)]);
        await send(fields, next() < 0.5 ? "urlencoded" : "multipart", pick([null, shopperCookie, adminCookie]), `${name}=${JSON.stringify(fields.find(([n]) => n === name)?.[1].toString("latin1"))}`);
      }
    }
    console.log(`${engine}: ${posts} hostile posts to ${withActions.length} actions`);

    expect(failures.slice(0, 20)).toEqual([]);
    expect(withActions.map((route) => route.path).filter((routePath) => !reachedReader.has(routePath))).toEqual([]);
    expect(await storedHostileText(t)).toEqual([]);
  });
});
