import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import type { ShopFacets } from "~/domain/catalog.server";
import { type Fragments, FragmentsContext } from "~/lib/fragments";
import { forgetFragments } from "~/lib/fragments.server";
import { I18nProvider, type Locale } from "~/lib/i18n";
import { messagesFor } from "~/lib/i18n.server";
import { NO_FILTERS, type ShopFilters as Filters } from "~/lib/shop-url";
import { countingFragments } from "../../tests/support/fragments";
import { ShopFilters } from "./shop-filters";

const CATEGORIES = [
  { id: 1, name: "Men" },
  { id: 2, name: "Women" },
];
const BRANDS = [
  { id: 3, name: "Dolce & Gabbana" },
  { id: 4, name: 'Maison "Francis" <Kurkdjian>' },
];
const FACETS: ShopFacets = {
  concentration: { parfum: 0, edp: 12, edt: 7, edc: 1 },
  family: { woody: 4, floral: 3, amber: 0, fresh: 5, citrus: 1, gourmand: 0, aromatic: 2, chypre: 0, leather: 1, musky: 0, fruity: 2 },
};

/** The filters beside a listing and in its drawer, as the shop writes them. */
function filtersOf(filters: Filters, { locale = "en" as Locale, facets = FACETS, fragments = null as Fragments | null } = {}) {
  const props = { filters, categories: CATEGORIES, brands: BRANDS, facets };
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/shop",
      Component: () => (
        <>
          <ShopFilters {...props} step={1} idPrefix="side" />
          <ShopFilters {...props} step={10} idPrefix="drawer" inDrawer />
        </>
      ),
    },
  ]);
  return renderToString(
    <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor("en")}>
      <FragmentsContext.Provider value={fragments}>
        <Stub initialEntries={["/shop"]} />
      </FragmentsContext.Provider>
    </I18nProvider>,
  );
}

const CASES: { filters: Filters; locale: Locale }[] = [
  { filters: NO_FILTERS, locale: "en" },
  { filters: { ...NO_FILTERS, q: 'crème "<b>"', sort: "price-asc", page: 3 }, locale: "es" },
  { filters: { ...NO_FILTERS, category: 2, brand: 4, concentrations: ["edp", "parfum"], families: ["amber"], min: 50_000, max: 300_000 }, locale: "en" },
];

describe("the shop's filters from kept HTML (docs/decisions/171)", () => {
  beforeEach(() => forgetFragments());

  it.each(CASES)("writes exactly what rendering in place writes, first and then from what it kept: %o", ({ filters, locale }) => {
    const inPlace = filtersOf(filters, { locale });
    expect(inPlace).toContain(`<form class="flex flex-col gap-6" action="/shop" method="get">`);
    const { fragments, counts } = countingFragments(locale);
    expect(filtersOf(filters, { locale, fragments })).toBe(inPlace);
    expect(filtersOf(filters, { locale, fragments })).toBe(inPlace);
    expect(counts).toEqual({ asked: 4, kept: 4 });
  });

  it("is the same on every page of a listing, and another for other filters, counts or languages", () => {
    const { fragments } = countingFragments("en");
    const searched = { ...NO_FILTERS, q: "oud" };
    const first = filtersOf(searched, { fragments });
    expect(filtersOf({ ...searched, page: 4 }, { fragments })).toBe(first);
    expect(filtersOf({ ...searched, page: 4 })).toBe(first);
    for (const other of [{ ...searched, q: "rose" }, { ...searched, brand: 3 }, { ...searched, sort: "discount" as const }, { ...searched, max: 200_000 }]) {
      expect(filtersOf(other, { fragments })).toBe(filtersOf(other));
      expect(filtersOf(other, { fragments })).not.toBe(first);
    }
    const fewer = { ...FACETS, family: { ...FACETS.family, woody: 1 } };
    expect(filtersOf(searched, { fragments, facets: fewer })).toBe(filtersOf(searched, { facets: fewer }));
    expect(filtersOf(searched, { fragments, facets: fewer })).toContain("(<!-- -->1<!-- -->)");
    expect(filtersOf(searched, { locale: "es", fragments: countingFragments("es").fragments })).toBe(filtersOf(searched, { locale: "es" }));
  });
});
