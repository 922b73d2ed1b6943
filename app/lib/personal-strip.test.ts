import { describe, expect, it } from "vitest";
import type { ProductCard } from "~/domain/catalog.server";
import { NOBODY, type PersonalState } from "./personal";
import { dataScriptPiece, productDataScript } from "./personal-page.server";
import { recentRow, renderRecentRow } from "./personal-strip.server";

// The recently viewed row written into a cached product page (docs/decisions/150) is kept in pieces
// and put together again: it must be exactly the row React renders.

const card = (id: number, more: Partial<ProductCard> = {}): ProductCard => ({
  id,
  slug: `perfume-${id}`,
  name: `Perfume <${id}> & "co"`,
  price: 5_000_000 + id * 100,
  discount: id % 2 ? 500_000 : null,
  priceMax: 5_000_000 + id * 100 + (id % 3 ? 0 : 2_000_000),
  soldOut: id === 3 ? 1 : 0,
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
      [[b, card(6, { soldOut: 1 }), d, a], [], "en"],
      [[a, b, c], [2], "es"],
      [[c, b], [2], "es"],
    ];
    for (const [row, wishlist, locale] of rows) {
      const label = `${locale} ${row.map((r) => r.id).join()} hearts ${wishlist.join()}`;
      const { html: bytes, data } = await recentRow(row, shopper(wishlist), locale);
      const html = Buffer.concat(bytes).toString();
      // Each card's data, after the first with the comma between them.
      expect(data.map(String), label).toEqual(row.map((card, i) => `${i ? "," : ""}${dataScriptPiece(JSON.stringify(card))}`));
      expect(html, label).toBe(await renderRecentRow(row, wishlist, locale));
      expect(html.match(/<li><article class="card">/g)?.length, label).toBe(row.length);
      expect(html, label).toContain('aria-labelledby="recently-viewed-title"');
    }
    const spanish = Buffer.concat((await recentRow([c, b], shopper([2]), "es")).html).toString();
    expect(spanish).toContain("Vistos recientemente");
    expect(spanish).toContain('aria-label="Quitar de la lista de deseos" aria-pressed="true"');
  });

  it("is nothing for a shopper with no other views, or a visitor", async () => {
    for (const row of [[], null]) expect(await recentRow(row, row ? shopper([1]) : NOBODY, "en")).toEqual({ html: [], data: [] });
  });
});

describe("the recently viewed row's data in a filled-in product page's script", () => {
  it("is the product's data escaped whole, when put together from each card's kept piece", async () => {
    const hostile = [
      card(1, { name: 'Crème </script><script>alert("x")</script> & <!--' }),
      card(2, { name: "Line\u2028break\u2029 and \\ back\\slash", brandName: "Émile 🌸" }),
      card(3),
    ];
    for (const mine of [
      { review: "eligible" as const, waited: [], recent: hostile },
      { review: "notBought" as const, waited: [4, 7], recent: hostile.slice(0, 1) },
      { review: "alreadyReviewed" as const, waited: [], recent: [] },
    ]) {
      const { data: pieces } = await recentRow(mine.recent, shopper([]), "en");
      const whole = Buffer.concat(productDataScript(mine, undefined)).toString();
      expect(Buffer.concat(productDataScript(mine, pieces)).toString()).toBe(whole);
      // Safe in the page, and read back by the browser as the same data.
      expect(whole).not.toMatch(/[<>&\u2028\u2029]/);
      expect(JSON.parse(JSON.parse(JSON.parse(`"${whole}"`)))).toEqual(mine);
    }
  });
});
