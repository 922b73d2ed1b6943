import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { type Fragments, FragmentsContext } from "~/lib/fragments";
import { forgetFragments } from "~/lib/fragments.server";
import { I18nProvider, type Locale } from "~/lib/i18n";
import { messagesFor } from "~/lib/i18n.server";
import { NOBODY, type PersonalState } from "~/lib/personal";
import { countingFragments } from "../../tests/support/fragments";
import { StoreHeader } from "./store-header";

const SHOP = { phone: "+234 801 234 5678", socials: null };
const MEMBER: PersonalState = {
  user: { firstName: "Adaeze <&>", lastName: "Okafor", email: "ada@example.com", role: "customer" },
  cart: { lines: 2, total: 17_400_000, items: [] },
  wishlist: [],
};
const ADMIN: PersonalState = { ...MEMBER, user: { ...MEMBER.user!, firstName: "Tunde", role: "admin" } };

/** The header as a page at `url` renders it, for a shopper, in a language. */
function header(url: string, { locale = "en" as Locale, personal = NOBODY, fragments = null as Fragments | null } = {}) {
  const Stub = createRoutesStub([{ id: "root", path: "*", Component: StoreHeader }]);
  return renderToString(
    <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor("en")}>
      <FragmentsContext.Provider value={fragments}>
        <Stub initialEntries={[url]} hydrationData={{ loaderData: { root: { shop: SHOP, personal: JSON.stringify(personal) } } }} />
      </FragmentsContext.Provider>
    </I18nProvider>,
  );
}

describe("the header from kept HTML (docs/decisions/171, 198)", () => {
  beforeEach(() => forgetFragments());

  it.each([
    { url: "/", locale: "en" as Locale, personal: NOBODY },
    { url: "/shop", locale: "es" as Locale, personal: NOBODY },
    { url: "/shop?q=cr%C3%A8me%20%22%3Cb%3E&page=2", locale: "en" as Locale, personal: NOBODY },
    { url: "/shop/12", locale: "en" as Locale, personal: MEMBER },
    { url: "/Shop/12?lng=es", locale: "es" as Locale, personal: ADMIN },
    { url: "/about", locale: "en" as Locale, personal: ADMIN },
    { url: "/cart", locale: "es" as Locale, personal: MEMBER },
    { url: "/nowhere/", locale: "en" as Locale, personal: NOBODY },
  ])("writes exactly what rendering in place writes, first and then from what it kept: $url", ({ url, locale, personal }) => {
    const inPlace = header(url, { locale, personal });
    expect(inPlace).toContain("<header");
    const { fragments, counts } = countingFragments(locale);
    expect(header(url, { locale, personal, fragments })).toBe(inPlace);
    expect(header(url, { locale, personal, fragments })).toBe(inPlace);
    // the whole header, twice: it never fell back to rendering in place
    expect(counts).toEqual({ asked: 2, kept: 2 });
  });

  it("shows what each page and shopper needs, never what another was shown", () => {
    const { fragments } = countingFragments("en");
    for (const [url, personal] of [
      ["/shop?q=oud", NOBODY],
      ["/shop", NOBODY],
      ["/about", MEMBER],
      ["/", ADMIN],
      ["/shop/7", NOBODY],
      ["/shop?q=rose", MEMBER],
    ] as const) {
      expect(header(url, { personal, fragments }), `${url} ${personal.user?.role ?? "anonymous"}`).toBe(header(url, { personal }));
    }
    // the pieces that differ are in the page
    expect(header("/shop?q=rose", { fragments })).toContain('value="rose"');
    expect(header("/shop", { fragments })).not.toContain('value="rose"');
    expect(header("/about", { fragments, personal: MEMBER })).toContain("₦174,000.00");
    expect(header("/about", { fragments })).toContain("₦0.00");
    expect(header("/about", { fragments })).toMatch(/<a aria-current="page" class="nav-link active" href="\/about"/);
    expect(header("/", { fragments, personal: ADMIN })).not.toMatch(/<li data-pp="admin" hidden="">/);
    expect(header("/", { fragments })).toMatch(/<li data-pp="admin" hidden="">/);
  });

  it("links each page's own address in both languages, kept once for all of them", () => {
    const { fragments, counts } = countingFragments("en");
    for (const url of ["/shop/7", "/shop/12", "/shop/9999999999", "/shop/12?ref=a%22b&x=%3C%26%3E"]) {
      const page = header(url, { fragments });
      expect(page, url).toBe(header(url));
      expect(page).toContain(`href="${url.split("?")[0]}?`);
    }
    expect(header("/shop/12", { fragments })).toContain('href="/shop/12?lng=es"');
    expect(header("/shop/12", { fragments })).not.toContain("/shop/7?");
    expect(header("/shop/12?ref=a%22b&x=%3C%26%3E", { fragments })).toContain('href="/shop/12?ref=a%22b&amp;x=%3C%26%3E&amp;lng=es"');
    // one part kept for all those product pages
    expect(counts.kept).toBe(counts.asked);
  });

  it("is written in the shopper's language", () => {
    const spanish = header("/shop", { locale: "es", fragments: countingFragments("es").fragments });
    expect(spanish).toBe(header("/shop", { locale: "es" }));
    expect(spanish).not.toBe(header("/shop", { fragments: countingFragments("en").fragments }));
  });
});
