import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import type { ProductCard as ProductCardData } from "~/domain/catalog.server";
import { type Fragments, FragmentsContext } from "~/lib/fragments";
import { FRAGMENTS_KEPT, forgetFragments, fragmentsFor } from "~/lib/fragments.server";
import { I18nProvider, type Locale } from "~/lib/i18n";
import { messagesFor } from "~/lib/i18n.server";
import { NOBODY } from "~/lib/personal";
import { ProductCard } from "./product-card";

const SAUVAGE: ProductCardData = {
  id: 12,
  slug: "sauvage-eau-de-parfum",
  name: "Sauvage Eau de Parfum",
  price: 9_800_000,
  discount: 8_900_000,
  priceMax: 15_000_000,
  soldOut: 0,
  image: "47f048fa725181d90303",
  brandName: "Dior",
  reviewCount: 3,
  ratingTotal: 13,
};
const SOLD_OUT: ProductCardData = { ...SAUVAGE, id: 13, soldOut: 1, discount: null, priceMax: SAUVAGE.price, reviewCount: 0, ratingTotal: 0, image: null };

type CardProps = Parameters<typeof ProductCard>[0];

/** A page of cards as the shop renders it: in a data router, with the shopper's hearts, in a language. */
function page(cards: CardProps[], { locale = "en" as Locale, wishlist = [] as number[], fragments = null as Fragments | null } = {}) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      Component: () => (
        <ul>
          {cards.map((props, i) => (
            <li key={i}>
              <ProductCard {...props} />
            </li>
          ))}
        </ul>
      ),
    },
  ]);
  return renderToString(
    <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor("en")}>
      <FragmentsContext.Provider value={fragments}>
        <Stub initialEntries={["/"]} hydrationData={{ loaderData: { root: { personal: JSON.stringify({ ...NOBODY, wishlist }) } } }} />
      </FragmentsContext.Provider>
    </I18nProvider>,
  );
}

const CARDS: CardProps[] = [
  { product: SAUVAGE },
  { product: SOLD_OUT, sizes: "33vw" },
  { product: SAUVAGE, eager: true, priority: true },
  { product: { ...SAUVAGE, id: 14, name: "J'adore <Eau> & \"Parfum\"" } },
];

describe("product cards from kept HTML (docs/decisions/168)", () => {
  beforeEach(() => forgetFragments());

  it.each([
    { locale: "en" as Locale, wishlist: [] },
    { locale: "es" as Locale, wishlist: [] },
    { locale: "en" as Locale, wishlist: [12, 14] },
    { locale: "es" as Locale, wishlist: [13] },
  ])("writes exactly what rendering in place writes, first and then from what it kept: %o", ({ locale, wishlist }) => {
    const inPlace = page(CARDS, { locale, wishlist });
    expect(inPlace).toContain('class="card"');
    const fragments = fragmentsFor(locale);
    expect(page(CARDS, { locale, wishlist, fragments })).toBe(inPlace);
    expect(page(CARDS, { locale, wishlist, fragments })).toBe(inPlace);
  });

  it("renders a card once for each thing it shows, and in place when its picture is preloaded", () => {
    const rendered: string[] = [];
    const counting: Fragments = {
      innerHtml: (key, opening, part) => {
        rendered.push(key);
        return fragmentsFor("en").innerHtml(key, opening, part);
      },
    };
    page([{ product: SAUVAGE }, { product: SAUVAGE }, { product: SAUVAGE, eager: true }], { fragments: counting });
    // the eager card is not asked for: React hoists its picture's preload into the page's head
    expect(rendered).toHaveLength(2);
    expect(rendered[0]).toBe(rendered[1]);
  });

  it("never shows a card as it was: new data, another heart or another language is another card", () => {
    const fragments = fragmentsFor("en");
    page([{ product: SAUVAGE }], { fragments });
    const cheaper = { ...SAUVAGE, price: 5_000_000, discount: null };
    expect(page([{ product: cheaper }], { fragments })).toBe(page([{ product: cheaper }]));
    expect(page([{ product: cheaper }], { fragments })).toContain("₦50,000.00");
    expect(page([{ product: SAUVAGE }], { fragments, wishlist: [12] })).toContain('aria-pressed="true"');
    expect(page([{ product: SAUVAGE }], { fragments })).toContain('aria-pressed="false"');
    const spanish = page([{ product: SAUVAGE }], { fragments: fragmentsFor("es"), locale: "es" });
    expect(spanish).toBe(page([{ product: SAUVAGE }], { locale: "es" }));
    expect(spanish).not.toBe(page([{ product: SAUVAGE }], { fragments }));
  });

  it("keeps a bounded number of cards", () => {
    const fragments = fragmentsFor("en");
    const first = { ...SAUVAGE, id: 1 };
    page([{ product: first }], { fragments });
    let calls = 0;
    const counted: Fragments = { innerHtml: (key, opening, part) => fragments.innerHtml(key, opening, () => (calls++, part())) };
    page([{ product: first }], { fragments: counted });
    expect(calls).toBe(0);
    page(Array.from({ length: FRAGMENTS_KEPT }, (_, i) => ({ product: { ...SAUVAGE, id: 100 + i } })), { fragments });
    page([{ product: first }], { fragments: counted });
    expect(calls).toBe(1);
  });
});
