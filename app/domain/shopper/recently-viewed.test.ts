import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { makeProducts, makeUser } from "../../../tests/support/catalogue";
import { RECENT_SHOWN } from "~/lib/recently-viewed";
import { countingStatements } from "../../../tests/support/statements";
import { mergeVisitorViews, RECENT_KEPT, recentCards, recentlyViewed, recentlyViewedInCart, recordView, viewedIds, viewProduct } from "./recently-viewed.server";
import { catalogChanged } from "../catalogue/catalog.server";

describe.each(ENGINES)("recently viewed on %s", (engine) => {
  let t: TestDatabase;
  let ada: number;
  let bola: number;
  let ids: number[];

  beforeAll(async () => {
    t = await freshDatabase(engine);
    ada = await makeUser(t.db, "ada@example.com");
    bola = await makeUser(t.db, "bola@example.com");
    ids = await makeProducts(
      t.db,
      Array.from({ length: 16 }, (_, i) => ({ name: `Perfume ${String(i).padStart(2, "0")}`, price: 1_000_000 + i, stock: i === 2 ? 0 : 5 })),
    );
  });
  afterAll(async () => {
    await t?.drop();
  });

  const rows = (userId: number) => t.db.selectFrom("recently_viewed").select(["product_id", "seq"]).where("user_id", "=", userId).execute();

  it("keeps the shopper's views latest first, a view again moving the product to the front", async () => {
    for (const id of [ids[0], ids[1], ids[2]]) await recordView(t.db, ada, id);
    expect(await viewedIds(t.db, ada)).toEqual([ids[2], ids[1], ids[0]]);
    await recordView(t.db, ada, ids[0]);
    expect(await viewedIds(t.db, ada)).toEqual([ids[0], ids[2], ids[1]]);
    // Opening the latest again writes nothing.
    const before = await rows(ada);
    await recordView(t.db, ada, ids[0]);
    expect(await rows(ada)).toEqual(before);
    // Each shopper has their own.
    await recordView(t.db, bola, ids[5]);
    expect(await viewedIds(t.db, bola)).toEqual([ids[5]]);
    expect(await viewedIds(t.db, ada)).toEqual([ids[0], ids[2], ids[1]]);
  });

  // SQLite only: PostgreSQL records a view in the statement that reads the page's parts.
  if (engine === "sqlite") it("writes a view without waiting for the disk, and no other write meanwhile (decision 172)", async () => {
    const dee = await makeUser(t.db, "dee@example.com");
    const eve = await makeUser(t.db, "eve@example.com");
    const synchronous = async () => (await sql<{ synchronous: number }>`pragma synchronous`.execute(t.db)).rows[0].synchronous;
    expect(await synchronous()).toBe(2);
    // Orders written while views are being written still wait for the disk: a view holds the connection
    // while its setting is relaxed, so no other transaction runs in between.
    const seen: number[] = [];
    let viewing = true;
    const orders = (async () => {
      while (viewing) {
        await t.db.transaction().execute(async (trx) => {
          seen.push((await sql<{ synchronous: number }>`pragma synchronous`.execute(trx)).rows[0].synchronous);
        });
      }
    })();
    for (const id of ids.slice(0, 10)) await recordView(t.db, eve, id);
    await Promise.all([recordView(t.db, dee, ids[7]), recordView(t.db, dee, ids[9])]);
    viewing = false;
    await orders;
    expect(seen.length).toBeGreaterThan(10);
    expect(new Set(seen)).toEqual(new Set([2]));
    expect(await synchronous()).toBe(2);
    expect(await viewedIds(t.db, dee)).toEqual([ids[9], ids[7]]);
    expect(await viewedIds(t.db, eve)).toEqual(ids.slice(0, 10).reverse());
  });

  it(`keeps only the latest ${RECENT_KEPT} views, removing older ones in the same write`, async () => {
    for (const id of ids) await recordView(t.db, ada, id);
    const kept = [...ids].reverse().slice(0, RECENT_KEPT);
    expect(await viewedIds(t.db, ada)).toEqual(kept);
    expect((await rows(ada)).length).toBe(RECENT_KEPT);
    expect((await rows(bola)).length).toBe(1);
  });

  it(`shows at most ${RECENT_SHOWN}, without the page's own product, archived ones, or those left out; sold-out ones stay`, async () => {
    const strip = await viewProduct(t.db, ada, ids[15]);
    expect(strip.map((p) => p.id)).toEqual([ids[14], ids[13], ids[12], ids[11], ids[10], ids[9], ids[8], ids[7]]);
    expect((await viewedIds(t.db, ada))[0]).toBe(ids[15]);
    // Opening the latest view again records nothing and shows the same strip.
    const written = await rows(ada);
    expect((await viewProduct(t.db, ada, ids[15])).map((p) => p.id)).toEqual(strip.map((p) => p.id));
    expect(await rows(ada)).toEqual(written);
    expect(strip[0]).toMatchObject({ id: ids[14], name: "Perfume 14", brandName: expect.any(String), price: 1_000_014, discount: null, soldOut: 0, image: null });

    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "in", [ids[14], ids[12]]).execute();
    // Cards are kept until the catalogue changes (docs/decisions/196): archiving says so, as the admin's does.
    expect((await recentlyViewed(t.db, ada)).map((p) => p.id)).toContain(ids[14]);
    catalogChanged();
    // The views, then the cards not kept; once kept, the views alone (one round trip on PostgreSQL).
    const counted = countingStatements(t.db);
    const shown = [ids[13], ids[10], ids[9], ids[8], ids[7], ids[6], ids[5], ids[4]];
    expect((await recentlyViewed(counted.db, ada, [ids[15], ids[11]])).map((p) => p.id)).toEqual(shown);
    expect(counted.statements).toHaveLength(2);
    expect((await recentlyViewed(counted.db, ada, [ids[15], ids[11]])).map((p) => p.id)).toEqual(shown);
    expect(counted.statements).toHaveLength(3);
    // The cart page's strip leaves out what is in the cart, read beside it.
    const inCart = new Promise<number[]>((resolve) => setTimeout(() => resolve([ids[15], ids[11]]), 20));
    expect((await recentlyViewedInCart(t.db, ada, "", inCart)).map((p) => p.id)).toEqual([ids[13], ids[10], ids[9], ids[8], ids[7], ids[6], ids[5], ids[4]]);
    await t.db.updateTable("products").set({ archived_at: null }).where("id", "in", [ids[14], ids[12]]).execute();
    catalogChanged();

    await recordView(t.db, bola, ids[2]);
    expect((await recentlyViewed(t.db, bola)).map((p) => [p.id, p.soldOut])).toEqual([
      [ids[2], 1],
      [ids[5], 0],
    ]);
    expect(await recentlyViewed(t.db, await makeUser(t.db, "new@example.com"))).toEqual([]);
  });

  it("gives a visitor's cart page the products in their cookie, latest first, without those in the cart, and reads no more ids than the browser keeps", async () => {
    const cookie = (list: number[]) => `theme=dark; recently_viewed=${list.join(".")}`;
    const strip = await recentlyViewedInCart(t.db, null, cookie([ids[9], ids[8], ids[7], 999_999, ids[6]]), Promise.resolve([ids[8]]));
    expect(strip.map((p) => p.id)).toEqual([ids[9], ids[7], ids[6]]);
    expect(await recentlyViewedInCart(t.db, null, "theme=dark", Promise.resolve([]))).toEqual([]);
    // A cookie written by hand with hundreds of ids: one statement, for no more ids than the browser
    // keeps (one more than a strip shows), and a strip no longer than the page shows.
    const counted = countingStatements(t.db);
    const forged = await recentlyViewedInCart(counted.db, null, cookie([...ids, ...Array.from({ length: 500 }, (_, i) => 1_000_000 + i)]), Promise.resolve([ids[0]]));
    expect(forged.map((p) => p.id)).toEqual(ids.slice(1, RECENT_SHOWN + 1));
    expect(counted.statements).toHaveLength(1);
    const unknownFirst = Array.from({ length: RECENT_SHOWN + 1 }, (_, i) => 2_000_000 + i);
    expect(await recentlyViewedInCart(t.db, null, cookie([...unknownFirst, ids[9]]), Promise.resolve([]))).toEqual([]);
  });

  it("gives cards in the order asked, leaving out unknown and archived products", async () => {
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", ids[3]).execute();
    catalogChanged();
    expect((await recentCards(t.db, [ids[4], 999_999, ids[3], ids[1]])).map((p) => p.name)).toEqual(["Perfume 04", "Perfume 01"]);
    expect(await recentCards(t.db, [])).toEqual([]);
  });

  it("makes a visitor's views the account's latest at sign-in, and deletes their cookie", async () => {
    const carol = await makeUser(t.db, "carol@example.com");
    await recordView(t.db, carol, ids[9]);
    await recordView(t.db, carol, ids[8]);
    expect(await mergeVisitorViews(t.db, carol, "")).toBe(false);
    expect(await mergeVisitorViews(t.db, carol, "lng=es; ub_cart=abc")).toBe(false);
    expect(await viewedIds(t.db, carol)).toEqual([ids[8], ids[9]]);

    // Latest first in the cookie; an unknown id and a malformed one are skipped.
    expect(await mergeVisitorViews(t.db, carol, `lng=es; recently_viewed=${ids[4]}.999999.${ids[5]}.x.${ids[9]}`)).toBe(true);
    expect(await viewedIds(t.db, carol)).toEqual([ids[4], ids[5], ids[9], ids[8]]);
    // A cookie with nothing usable is only deleted (the sign-in clears it: app/http/sign-in.server.ts).
    expect(await mergeVisitorViews(t.db, carol, "recently_viewed=abc")).toBe(true);
    expect(await viewedIds(t.db, carol)).toEqual([ids[4], ids[5], ids[9], ids[8]]);
  });

  it("forgets a shopper's views with the account", async () => {
    const gone = await makeUser(t.db, "gone@example.com");
    await recordView(t.db, gone, ids[0]);
    await t.db.deleteFrom("users").where("id", "=", gone).execute();
    expect(await rows(gone)).toEqual([]);
  });
});
