import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, makeProducts } from "../../tests/support/catalogue";
import { browserRequest, runRoute as run, testContext } from "../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../tests/support/databases";
import { LIMITS } from "~/domain/operations/rate-limits.server";
import { createSession } from "~/http/session.server";
import * as product from "./_store.shop.$id";
import * as stop from "./back-in-stock.stop";
import { NOBODY_ON_PRODUCT, parseProductPersonal, waitsForAll } from "~/lib/personal";


describe.each(ENGINES)("back-in-stock pages on %s", (engine) => {
  let t: TestDatabase;
  let soldOut: number;
  let inStock: number;

  beforeAll(async () => {
    t = await freshDatabase(engine);
    [soldOut, inStock] = await makeProducts(t.db, [
      { name: "Route Santal", price: 4_000_000, stock: 0 },
      { name: "Route Neroli", price: 4_000_000, stock: 3 },
    ]);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const ask = (context: AppLoadContext, id: number, fields: Record<string, string>, init: { cookies?: string[]; lng?: string } = {}) =>
    run(
      product.action,
      browserRequest(`/shop/${id}${init.lng ? `?lng=${init.lng}` : ""}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "notify", ...fields }),
        cookies: init.cookies,
        headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" },
      }),
      context,
      { id: String(id) },
    );

  it("takes a visitor's address with a toast, and answers bad input with a message in the shopper's language", async () => {
    const context = { ...testContext(t), clientIp: "198.51.100.1" };
    expect(await ask(context, soldOut, { email: "visitor@example.com" })).toMatchObject({ status: 303, location: `/shop/${soldOut}` });
    expect(await ask(context, soldOut, { email: "nope" }, { lng: "es" })).toMatchObject({ status: 400, body: { error: "Introduce un correo electrónico válido." } });
    expect(await ask(context, inStock, { email: "visitor@example.com" })).toMatchObject({ status: 409, body: { error: "Good news: it is in stock now. Add it to your cart." } });
    expect(await ask(context, 987_654, { email: "visitor@example.com" })).toMatchObject({ status: 404 });
  });

  it("signs a signed-in shopper up in one click, and the page then says so", async () => {
    const context = { ...testContext(t), clientIp: "198.51.100.2" };
    const user = await addUser(t.db, "customer", `one-click-${engine}@example.com`);
    const cookie = await createSession(context, user.id);
    expect(await ask(context, soldOut, {}, { cookies: [cookie] })).toMatchObject({ status: 303 });
    const page = await run(product.loader, browserRequest(`/shop/${soldOut}`, { cookies: [cookie] }), context, { id: String(soldOut) });
    // The shopper's part of the page: they wait for the one sold-out size.
    const { backInStock, personal } = page.body as { backInStock: { soldOut: { id: number }[]; choose: boolean }; personal: string };
    expect(backInStock.choose).toBe(false);
    const waited = parseProductPersonal(personal).waited;
    expect(waited).toEqual(backInStock.soldOut.map((s) => s.id));
    expect(waitsForAll(true, null, waited)).toBe(true);
    // A visitor sees the empty form; an in-stock product has none.
    const visitor = (await run(product.loader, browserRequest(`/shop/${soldOut}`), context, { id: String(soldOut) })).body as { backInStock: unknown; personal: string };
    expect(visitor.backInStock).toMatchObject({ choose: false, soldOut: backInStock.soldOut });
    expect(parseProductPersonal(visitor.personal)).toEqual(NOBODY_ON_PRODUCT);
    expect((await run(product.loader, browserRequest(`/shop/${inStock}`), context, { id: String(inStock) })).body).toMatchObject({ backInStock: null });
  });

  it("refuses requests past the limit from one address with 429 and a Retry-After", async () => {
    const context = { ...testContext(t), clientIp: "198.51.100.3" };
    for (let i = 0; i < LIMITS.backInStockIp.points; i++) expect((await ask(context, soldOut, { email: `many-${i}@example.com` })).status).toBe(303);
    const refused = await ask(context, soldOut, { email: "one-more@example.com" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await t.db.selectFrom("back_in_stock_requests").select("id").where("email", "=", "one-more@example.com").execute()).toEqual([]);
  });

  it("asks before stopping the alerts from the e-mail's link, and 404s a made-up token", async () => {
    const context = testContext(t);
    const { token } = await t.db.selectFrom("back_in_stock_requests").select("token").where("email", "=", "visitor@example.com").executeTakeFirstOrThrow();
    const page = await run(stop.loader, browserRequest(`/back-in-stock/stop?token=${token}`), context);
    expect(page).toMatchObject({ status: 200, body: { token, texts: { title: "Stop back-in-stock e-mails", confirm: "Stop the alerts" } } });
    expect(await t.db.selectFrom("back_in_stock_requests").select("id").where("email", "=", "visitor@example.com").execute()).toHaveLength(1);
    const done = await run(stop.action, browserRequest("/back-in-stock/stop", { method: "POST", body: new URLSearchParams({ token }), headers: { Origin: "http://shop.test", "Content-Type": "application/x-www-form-urlencoded" } }), context);
    expect(done).toMatchObject({ status: 200, body: { message: expect.stringContaining("visitor@example.com") } });
    expect(await t.db.selectFrom("back_in_stock_requests").select("id").where("email", "=", "visitor@example.com").execute()).toEqual([]);
    expect((await run(stop.loader, browserRequest("/back-in-stock/stop?token=made-up-token-made-up-token"), context)).status).toBe(404);
  });
});
