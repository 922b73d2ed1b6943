import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { viewedIds } from "~/domain/shopper/recently-viewed.server";
import { createSession } from "~/http/session.server";
import * as cards from "./api.products.cards";
import * as auth from "./auth";
import * as cart from "./cart";
import * as product from "./_store.shop.$id";
import { parseProductPersonal } from "~/lib/personal";

describe.each(ENGINES)("recently viewed pages on %s", (engine) => {
  let t: TestDatabase;
  let ids: number[];

  beforeAll(async () => {
    t = await freshDatabase(engine);
    ids = await makeProducts(t.db, [
      { name: "Api Santal", price: 4_000_000, stock: 2 },
      { name: "Api Neroli", price: 5_000_000, stock: 0 },
      { name: "Api Archived", price: 6_000_000, stock: 4 },
    ]);
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", ids[2]).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  const ask = (query: string, headers: Record<string, string> = {}) => cards.loader({ request: browserRequest(`/api/products/cards${query}`, { headers }), context: testContext(t), params: {} } as never);

  it("answers the cards asked for, in that order, without unknown or archived ones, cacheable by anyone", async () => {
    const response = await ask(`?ids=${ids[1]},${ids[2]},987654,${ids[0]}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=60");
    const body = (await response.json()) as { products: { id: number; name: string; soldOut: number }[] };
    expect(body.products.map((p) => [p.name, p.soldOut])).toEqual([
      ["Api Neroli", 1],
      ["Api Santal", 0],
    ]);
    expect(Object.keys(body.products[0]).sort()).toEqual(["brandName", "discount", "id", "image", "name", "price", "priceMax", "ratingTotal", "reviewCount", "saleEnds", "slug", "soldOut"]);
  });

  it("refuses bad ids with 400 and a message in the shopper's language, never a 500", async () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => i + 1).join(",");
    for (const query of ["", "?ids=", "?ids=abc", "?ids=1,,2", "?ids=-4", "?ids=0", "?ids=1.5", "?ids=99999999999", "?ids=1,2,3,4,5,6,7,8,9", `?ids=${thousand}`, "?ids=%00", "?ids=2'--", "?ids=1&ids=2"]) {
      const response = await ask(query);
      expect(response.status, query.slice(0, 30)).toBe(400);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(await response.json()).toEqual({ error: "Ask for 1 to 8 products by their numbers, separated by commas." });
    }
    const spanish = await ask("?ids=abc", { "Accept-Language": "es" });
    expect(await spanish.json()).toEqual({ error: "Pide de 1 a 8 productos por su número, separados por comas." });
  });

  it("records a signed-in shopper's views and renders their strip on the product page and the cart", async () => {
    const context = testContext(t);
    const user = await addUser(t.db, "customer");
    const cookie = await createSession(context, user.id);
    const open = (id: number) => run(product.loader, browserRequest(`/shop/${id}`, { cookies: [cookie] }), context, { id: String(id) });
    const recent = async (id: number) => parseProductPersonal(((await open(id)).body as { personal: string }).personal).recent;
    expect(await recent(ids[0])).toEqual([]);
    expect((await recent(ids[1]))?.map((p) => p.name)).toEqual(["Api Santal"]);
    const cartPage = await run(cart.loader, browserRequest("/cart", { cookies: [cookie] }), context);
    expect((cartPage.body as { recent: { name: string }[] }).recent.map((p) => p.name)).toEqual(["Api Neroli", "Api Santal"]);
  });

  it("leaves a visitor's product page strip to the browser (nothing recorded, nothing personal in the page) and reads their cookie for the cart", async () => {
    const context = testContext(t);
    const before = await t.db.selectFrom("recently_viewed").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    const page = await run(product.loader, browserRequest(`/shop/${ids[0]}`, { cookies: [`recently_viewed=${ids[1]}.${ids[0]}`] }), context, { id: String(ids[0]) });
    expect(parseProductPersonal((page.body as { personal: string }).personal).recent).toBeNull();
    expect(page.headers.get("Set-Cookie")).toBeNull();
    // The cart is private and never cached: the server reads the visitor's cookie (ids only; archived left out).
    const cartPage = await run(cart.loader, browserRequest("/cart", { cookies: [`recently_viewed=${ids[2]}.${ids[1]}.x.${ids[0]}`] }), context);
    expect((cartPage.body as { recent: { name: string }[] }).recent.map((p) => p.name)).toEqual(["Api Neroli", "Api Santal"]);
    expect(cartPage.headers.get("Cache-Control")).toBe("private, no-store");
    const after = await t.db.selectFrom("recently_viewed").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("takes a visitor's views into the account when they sign in, and deletes the cookie", async () => {
    const context = testContext(t);
    const email = `viewer-${engine}@example.com`;
    const account = await registerCustomer(context, { firstName: "Ife", lastName: "Ade", email, password: "a good long password" });
    expect(account).toMatchObject({ ok: true });
    const signIn = await run(
      auth.action,
      browserRequest("/auth?redirectTo=%2Fcart", {
        method: "POST",
        body: new URLSearchParams({ email, password: "a good long password" }),
        cookies: [`recently_viewed=${ids[1]}.${ids[0]}`],
        headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" },
      }),
      context,
    );
    expect(signIn.status).toBe(303);
    expect(signIn.headers.getSetCookie()).toContain("recently_viewed=; Path=/; SameSite=Lax; Max-Age=0");
    const user = await t.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(await viewedIds(t.db, user.id)).toEqual([ids[1], ids[0]]);
  });
});
