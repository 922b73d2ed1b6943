import { expect, test } from "@playwright/test";
import { makeProducts } from "../support/catalogue";
import { askPage as ask, cartBadge as badge, cartCookie, shopForThisSpec } from "../support/own-shop";

/**
 * PAGE_CACHE_MIN_ASKS (docs/decisions/201), at its default: a page is kept in memory from its second
 * ask. Its first is rendered for its asker alone, a shopper's with their own parts, and never reaches
 * anyone else. Memory alone here (no page store, PAGE_STORE_MB=0); with the store, which keeps first
 * asks on disk, see page-store.spec.ts.
 */

const shopOf = shopForThisSpec("unboxed-asks-", { PAGE_STORE_MB: "0" });

test("a page is kept from its second ask, and its first asker's page is theirs alone", async () => {
  const { shop, database } = shopOf;
  const [kept, wanted] = await makeProducts(database.db, [
    { name: "Asked Oud", price: 4_500_000, stock: 5 },
    { name: "Wanted Musk", price: 3_000_000, stock: 5 },
  ]);
  const visitor = await ask(`${shop.base}/shop/${kept}`);
  expect(visitor.via).toBe("first");
  const second = await ask(`${shop.base}/shop/${kept}`);
  expect(second.via).toBe("miss");
  const third = await ask(`${shop.base}/shop/${kept}`);
  expect(third.via).toBe("hit");
  expect(second.html).toBe(visitor.html);
  expect(third.html).toBe(visitor.html);
  // A page's data for a client-side navigation too.
  expect((await ask(`${shop.base}/shop/${kept}.data`)).via).toBe("first");
  expect((await ask(`${shop.base}/shop/${kept}.data`)).via).toBe("miss");
  expect((await ask(`${shop.base}/shop/${kept}.data`)).via).toBe("hit");

  // A shopper with a cart asks first for a page nobody asked for yet: rendered in full for them.
  const cart = await cartCookie(shop.base, [kept]);
  const own = await ask(`${shop.base}/shop/${wanted}`, cart);
  expect(own.via).toBe("first");
  expect(own.caching).toBe("private, no-cache");
  expect(badge(own.html)).toBe("1");
  // The next visitor's ask is the page's second: rendered for them and kept, with no cart in it.
  const next = await ask(`${shop.base}/shop/${wanted}`);
  expect(next.via).toBe("miss");
  expect(badge(next.html)).toBe("0");
  // The shopper's page is now made from the kept one, their parts filled in.
  const filled = await ask(`${shop.base}/shop/${wanted}`, cart);
  expect(filled.via).toBe("personal");
  expect(badge(filled.html)).toBe("1");
  expect(filled.html).toBe(own.html);
});
