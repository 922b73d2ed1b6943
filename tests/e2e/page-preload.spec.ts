import { expect, test } from "@playwright/test";
import { checkoutOnce, customerWithSession } from "../../scripts/support/shopper";
import { makeProducts } from "../support/catalogue";
import { askPage as ask, cartBadge as badge, cartCookie, shopForThisSpec } from "../support/own-shop";

/**
 * The page store's preload (docs/decisions/211), as a shop runs unless told otherwise: once shoppers
 * come, product pages are rendered into the page store while the render thread is free, so a
 * product's first ask is answered from there; a catalogue change empties the store and the next
 * request starts a new pass, of the changed catalogue.
 */

const own = shopForThisSpec("unboxed-preload-", { LOG_LEVEL: "info", PAGE_PRELOAD: "true" });

/** How many passes the server has ended, and how. */
const passes = (log: string) => [...log.matchAll(/"ended":"([a-z ]+)".*"msg":"page preload: pass ended"/g)].map((found) => found[1]);

test("a product's first ask is answered from the store, a shopper's filled in, and a catalogue change is preloaded again", async () => {
  test.setTimeout(60_000);
  const { shop, database } = own;
  const names = ["Preloaded Neroli", "Preloaded Oud", "Preloaded Iris", "Last Bottle Musk"];
  const ids = await makeProducts(
    database.db,
    names.map((name, i) => ({ name, price: 3_000_000 + i * 100_000, stock: i === 3 ? 1 : 5 })),
  );
  // Nothing is rendered before a shopper comes.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(passes(shop.log())).toEqual([]);

  // The first storefront request starts a pass.
  expect((await ask(`${shop.base}/`)).via).toBeTruthy();
  await expect.poll(() => passes(shop.log()), { timeout: 20_000 }).toEqual(["done"]);
  for (const [i, id] of ids.entries()) {
    const visitor = await ask(`${shop.base}/shop/${id}`);
    expect(visitor.via, names[i]).toBe("stored");
    expect(visitor.html).toContain(`${names[i]}<`);
    expect(badge(visitor.html)).toBe("0");
    expect(visitor.caching).not.toBe("private, no-cache");
  }

  // A shopper with a cart gets their own page made from the preloaded one, and no one else sees it.
  const cart = await cartCookie(shop.base, [ids[0], ids[1]]);
  const mine = await ask(`${shop.base}/shop/${ids[2]}`, cart);
  expect([mine.via, mine.caching, badge(mine.html)]).toEqual(["personal", "private, no-cache", "2"]);
  expect(mine.html).toContain(`${names[2]}<`);
  expect(badge((await ask(`${shop.base}/shop/${ids[2]}`)).html)).toBe("0");

  // The last bottle is bought: the catalogue changed, and the pages preloaded next say so.
  const bought = await checkoutOnce(shop.base, { cookie: await customerWithSession(database.db, `preload-${Date.now()}@example.com`, "Ife", "Preload") }, ids[3]);
  expect(bought).toMatch(/^UB-\d+$/);
  await ask(`${shop.base}/`);
  await expect.poll(() => passes(shop.log()).filter((ended) => ended === "done").length, { timeout: 20_000 }).toBe(2);
  const soldOut = await ask(`${shop.base}/shop/${ids[3]}`);
  expect(soldOut.via).toBe("stored");
  expect(soldOut.html).toContain("https://schema.org/OutOfStock");
});
