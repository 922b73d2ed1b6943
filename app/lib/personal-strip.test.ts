import { describe, expect, it } from "vitest";
import type { ProductCard } from "~/domain/catalog.server";
import { NOBODY, type PersonalState } from "./personal";
import { recentRowHtml, renderRecentRow } from "./personal-strip.server";

// The recently viewed row written into a cached product page (docs/decisions/150) is kept in pieces
// and put together again: it must be exactly the row React renders.

const card = (id: number, more: Partial<ProductCard> = {}): ProductCard => ({
  id,
  slug: `perfume-${id}`,
  name: `Perfume <${id}> & "co"`,
  price: 5_000_000 + id * 100,
  discount: id % 2 ? 500_000 : null,
  priceMax: 5_000_000 + id * 100 + (id % 3 ? 0 : 2_000_000),
  stock: id === 3 ? 0 : 5,
  image: id % 2 ? `img${id}abcdef0123456789` : null,
  brandName: "Maison",
  reviewCount: id === 2 ? 3 : 0,
  ratingTotal: id === 2 ? 13 : 0,
  ...more,
});
const shopper = (wishlist: number[]): PersonalState => ({ ...NOBODY, wishlist });

describe("the recently viewed row of a filled-in product page", () => {
  it("is the row React renders, whether rendered or put together from kept cards", async () => {
    const [a, b, c, d] = [card(1), card(2), card(3), card(4)];
    const rows: [ProductCard[], number[], "en" | "es"][] = [
      [[a, b, c], [2], "en"],
      // Every card and the frame kept: put together.
      [[c, a], [2], "en"],
      [[b, c, a], [2], "en"],
      // A heart pressed differently, a single card (no arrows), a changed card, another language.
      [[b, a], [], "en"],
      [[a], [1], "en"],
      [[c], [], "en"],
      [[d, card(1, { price: 4_000_000 }), b], [2], "en"],
      // One card new among kept ones: it alone is rendered, and put in the kept frame.
      [[card(5), a, b], [2], "en"],
      [[b, card(6, { stock: 0 }), d, a], [], "en"],
      [[a, b, c], [2], "es"],
      [[c, b], [2], "es"],
    ];
    for (const [row, wishlist, locale] of rows) {
      const label = `${locale} ${row.map((r) => r.id).join()} hearts ${wishlist.join()}`;
      const html = (await recentRowHtml(row, shopper(wishlist), locale)).toString();
      expect(html, label).toBe(await renderRecentRow(row, wishlist, locale));
      expect(html.match(/<li><article class="card">/g)?.length, label).toBe(row.length);
      expect(html, label).toContain('aria-labelledby="recently-viewed-title"');
    }
    const spanish = (await recentRowHtml([c, b], shopper([2]), "es")).toString();
    expect(spanish).toContain("Vistos recientemente");
    expect(spanish).toContain('aria-label="Quitar de la lista de deseos" aria-pressed="true"');
  });

  it("is nothing for a shopper with no other views, or a visitor", async () => {
    expect((await recentRowHtml([], shopper([1]), "en")).length).toBe(0);
    expect((await recentRowHtml(null, NOBODY, "en")).length).toBe(0);
  });
});
