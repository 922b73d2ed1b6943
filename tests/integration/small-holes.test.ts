import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { createSession } from "~/http/session.server";
import { loadConfig } from "~/platform/config.server";
import { sendMail } from "~/platform/mail.server";
import { backTo } from "~/http/toast.server";
import * as cart from "~/routes/cart";
import * as wishlist from "~/routes/account.wishlist";
import { addBrand, addCategory, addProduct, addUser } from "../support/catalogue";
import { testContext } from "../support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../support/databases";

// The smaller holes found by attacking the shop: the "back" redirect, a refused add-to-cart leaving
// traces, and files readable by other users of the machine.

type Handler = (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => Promise<unknown>;

async function run(handler: Handler, request: Request, context: AppLoadContext) {
  let value: unknown;
  try {
    value = await handler({ request, context, params: {} });
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, headers: value.headers };
  const wrapped = value as { init?: ResponseInit | null };
  return { status: wrapped.init?.status ?? 200, headers: new Headers(wrapped.init?.headers) };
}

function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(`http://shop.test${url}`, { method: "POST", body: new URLSearchParams(fields), headers: { Origin: "http://shop.test", ...headers } });
}

const HOSTILE_REFERERS = [
  "http://shop.test//evil.example/x",
  "http://shop.test/\\evil.example/x",
  "http://shop.test//evil.example",
  "http://evil.example/cart",
  "javascript:alert(1)",
  "not a url",
];

describe("the back redirect", () => {
  it.each(HOSTILE_REFERERS)("never leaves the shop for Referer %s", (referer) => {
    const request = new Request("http://shop.test/cart", { method: "POST", headers: { Referer: referer } });
    expect(backTo(request, "/cart")).toBe("/cart");
  });
  it("goes back to the shop's own page, with its query", () => {
    const request = new Request("http://shop.test/cart", { method: "POST", headers: { Referer: "http://shop.test/shop?brand=2&page=3" } });
    expect(backTo(request, "/cart")).toBe("/shop?brand=2&page=3");
  });
});

describe.each(ENGINES)("smaller holes on %s", (engine) => {
  let t: TestDatabase;
  let context: AppLoadContext;
  let productId: number;
  let customerCookie: string;
  let customerId: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    context = testContext(t);
    productId = (await addProduct(t.db, { brandId: (await addBrand(t.db)).id, categoryId: (await addCategory(t.db)).id, stock: 5 })).id;
    const customer = await addUser(t.db, "customer");
    customerId = customer.id;
    customerCookie = (await createSession(context, customer.id)).split(";")[0];
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("the cart and wishlist send a hostile Referer home, not to another site", async () => {
    const referer = "http://shop.test//evil.example/x";
    const added = await run(cart.action as Handler, post("/cart", { intent: "add", productId: String(productId) }, { Referer: referer }), context);
    expect(added.status).toBe(303);
    expect(added.headers.get("Location")).toBe("/cart");
    const wished = await run(wishlist.action as Handler, post("/wishlist", { productId: String(productId) }, { Referer: referer, Cookie: customerCookie }), context);
    expect(wished.status).toBe(303);
    expect(wished.headers.get("Location")).toBe("/");
    // and a signed-out shopper is sent to sign in with a safe way back
    const signedOut = await run(wishlist.action as Handler, post("/wishlist", { productId: String(productId) }, { Referer: referer }), context);
    expect(signedOut.headers.get("Location")).toBe("/auth?redirectTo=%2F");
  });

  it("an add-to-cart refused with 404 creates no cart and sets no cookie", async () => {
    const cartsBefore = await t.db.selectFrom("carts").select(t.db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    for (const headers of [{}, { Cookie: customerCookie }] as Record<string, string>[]) {
      const refused = await run(cart.action as Handler, post("/cart", { intent: "add", productId: "999999" }, headers), context);
      expect(refused.status).toBe(404);
      expect(refused.headers.getSetCookie().filter((c) => c.startsWith("ub_cart="))).toEqual([]);
    }
    const cartsAfter = await t.db.selectFrom("carts").select(t.db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(cartsAfter.n)).toBe(Number(cartsBefore.n));
    expect(await t.db.selectFrom("carts").select("id").where("user_id", "=", customerId).execute()).toEqual([]);

    // A product that exists still makes the cart and its cookie.
    const added = await run(cart.action as Handler, post("/cart", { intent: "add", productId: String(productId) }), context);
    expect(added.status).toBe(303);
    expect(added.headers.getSetCookie().some((c) => c.startsWith("ub_cart="))).toBe(true);
  });
});

describe("files in the data folder", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-perms-"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const mode = (file: string) => fs.statSync(file).mode & 0o777;

  it("creates the data folder 0700, and the database, its journal and the outbox 0600", async () => {
    const dataDir = path.join(root, "data");
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", PUBLIC_URL: "http://shop.test" });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, "session-secret"))).toBe(0o600);

    const database = await openDatabase({ databaseUrl: null, sqlitePath: config.sqlitePath });
    await database.db.schema.createTable("probe").addColumn("id", "integer").execute();
    await database.db.insertInto("probe" as never).values({ id: 1 } as never).execute();
    expect(mode(config.sqlitePath)).toBe(0o600);
    expect(mode(`${config.sqlitePath}-wal`)).toBe(0o600);
    await database.close();

    const sent = await sendMail(config, { to: "ada@example.com", subject: "Hello", text: "Hi", html: "<p>Hi</p>" });
    expect(mode(sent.file!)).toBe(0o600);
    expect(mode(path.dirname(sent.file!))).toBe(0o700);
  });

  it("tightens a database file an older version left readable by others", async () => {
    const file = path.join(root, "old", "shop.db");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const first = await openDatabase({ databaseUrl: null, sqlitePath: file });
    await first.close();
    fs.chmodSync(file, 0o644);
    const again = await openDatabase({ databaseUrl: null, sqlitePath: file });
    expect(mode(file)).toBe(0o600);
    await again.close();
  });
});
