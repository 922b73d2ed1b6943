import { expect, test } from "@playwright/test";
import { makeProducts } from "../support/catalogue";
import { askPage as ask, cartBadge as badge, cartCookie, shopForThisSpec } from "../support/own-shop";

/**
 * The page store (docs/decisions/203), as a shop runs unless told otherwise: a page rendered for its
 * first asker is kept on disk, and its next asks are answered from there, a shopper's with their own
 * parts filled in. No shopper's parts ever reach the store or another shopper.
 */

const own = shopForThisSpec("unboxed-store-");

test("a page rendered for its first asker is answered from the store next, a shopper's filled in, and from memory after", async () => {
  const { shop, database } = own;
  const [stored, wanted] = await makeProducts(database.db, [
    { name: "Stored Amber", price: 5_200_000, stock: 5 },
    { name: "Wanted Vetiver", price: 2_800_000, stock: 5 },
  ]);
  const visitor = await ask(`${shop.base}/shop/${stored}`);
  expect(visitor.via).toBe("first");
  const second = await ask(`${shop.base}/shop/${stored}`);
  expect(second.via).toBe("stored");
  expect(second.html).toBe(visitor.html);
  // Asked twice, it is kept in memory too.
  const third = await ask(`${shop.base}/shop/${stored}`);
  expect(third.via).toBe("hit");
  expect(third.html).toBe(visitor.html);
  // A page's data for a client-side navigation too.
  expect((await ask(`${shop.base}/shop/${stored}.data`)).via).toBe("first");
  expect((await ask(`${shop.base}/shop/${stored}.data`)).via).toBe("stored");
  expect((await ask(`${shop.base}/shop/${stored}.data`)).via).toBe("hit");

  // A shopper with a cart asks first for a page nobody asked for yet: their page is made from the
  // anonymous page, which is rendered and stored without their parts.
  const cart = await cartCookie(shop.base, [stored]);
  const mine = await ask(`${shop.base}/shop/${wanted}`, cart);
  expect(mine.via).toBe("personal");
  expect(mine.caching).toBe("private, no-cache");
  expect(badge(mine.html)).toBe("1");
  expect(mine.html).toContain("Wanted Vetiver");
  // The next visitor gets the stored page: no cart in it.
  const next = await ask(`${shop.base}/shop/${wanted}`);
  expect(next.via).toBe("stored");
  expect(badge(next.html)).toBe("0");
  expect(next.caching).not.toBe("private, no-cache");
  // The shopper's page made again, now from the page kept in memory, is the same page.
  const again = await ask(`${shop.base}/shop/${wanted}`, cart);
  expect(again.via).toBe("personal");
  expect(again.html).toBe(mine.html);
});

test("two shoppers and visitors asking at once for pages not yet kept each get their own page, stored or not", async () => {
  const { shop, database } = own;
  const ids = await makeProducts(
    database.db,
    Array.from({ length: 12 }, (_, i) => ({ name: `Interleaved Attar ${i}`, price: 1_000_000 + i * 10_000, stock: 5 })),
  );
  const shoppers = [
    { cookie: await cartCookie(shop.base, [ids[0]]), badge: "1" },
    { cookie: await cartCookie(shop.base, [ids[1], ids[2]]), badge: "2" },
    { cookie: undefined, badge: "0" },
  ];
  // Every page asked by all three at once, four times over: first asks, stored pages, kept pages.
  for (let round = 0; round < 4; round++) {
    const answers = await Promise.all(
      ids.flatMap((id) => shoppers.map(async (shopper) => ({ id, shopper, answer: await ask(`${shop.base}/shop/${id}`, shopper.cookie) }))),
    );
    for (const { id, shopper, answer } of answers) {
      expect(badge(answer.html), `${id} ${shopper.badge} ${answer.via}`).toBe(shopper.badge);
      expect(answer.html).toContain(`Interleaved Attar ${ids.indexOf(id)}<`);
      if (shopper.cookie) expect(answer.caching).toBe("private, no-cache");
      else expect(["first", "stored", "hit", "miss"]).toContain(answer.via);
    }
  }
});
