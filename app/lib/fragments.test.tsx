import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { StoreFooter } from "~/components/store-footer";
import { type Fragments, FragmentsContext, useKeptHtml, withValues } from "./fragments";
import { forgetFragments, fragmentsFor } from "./fragments.server";
import { I18nProvider, type Locale } from "./i18n";
import { messagesFor } from "./i18n.server";

const SHOP = { socials: { instagram: "https://www.instagram.com/unboxed.ng", tiktok: "https://www.tiktok.com/@unboxed.ng" } };

function page(Part: () => React.ReactNode, { locale = "en" as Locale, fragments = null as Fragments | null, shop = SHOP } = {}) {
  const Stub = createRoutesStub([{ id: "root", path: "/", Component: () => <main><Part /></main> }]);
  return renderToString(
    <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor("en")}>
      <FragmentsContext.Provider value={fragments}>
        <Stub initialEntries={["/"]} hydrationData={{ loaderData: { root: { shop } } }} />
      </FragmentsContext.Provider>
    </I18nProvider>,
  );
}

describe("parts of pages from kept HTML (docs/decisions/168)", () => {
  beforeEach(() => forgetFragments());

  it.each(["en", "es"] as Locale[])("writes the footer exactly as in place, first and from what it kept (%s)", (locale) => {
    const inPlace = page(StoreFooter, { locale });
    expect(inPlace).toContain("<footer");
    expect(page(StoreFooter, { locale, fragments: fragmentsFor(locale) })).toBe(inPlace);
    expect(page(StoreFooter, { locale, fragments: fragmentsFor(locale) })).toBe(inPlace);
    const otherLinks = { socials: { instagram: "https://www.instagram.com/other", tiktok: "https://www.tiktok.com/@other" } };
    expect(page(StoreFooter, { locale, fragments: fragmentsFor(locale), shop: otherLinks })).toBe(page(StoreFooter, { locale, shop: otherLinks }));
  });

  it("renders in place a part whose outer element is not the one it says, or that React writes more around", () => {
    const fragments = fragmentsFor("en");
    let kept: (string | null)[] = [];
    function Part({ opening, children }: { opening: string; children: React.ReactNode }) {
      const html = useKeptHtml(`part ${opening}`, opening, () => <section className="x">{children}</section>);
      kept.push(html);
      return html === null ? <section className="x">{children}</section> : <section className="x" dangerouslySetInnerHTML={{ __html: html }} />;
    }
    page(() => <Part opening='<section class="x">'>one</Part>, { fragments });
    page(() => <Part opening='<section class="y">'>two</Part>, { fragments });
    expect(kept).toEqual(["one", null]);
    kept = [];
    const preloaded = () => <Part opening='<section class="x">'>{<img src="/a.webp" alt="" fetchPriority="high" />}</Part>;
    expect(page(preloaded, { fragments: fragmentsFor("es") })).toBe(page(preloaded));
    // on its own, React writes the picture's preload before the part: it cannot be kept
    expect(kept[0]).toBeNull();
  });
});

describe("a kept part's values (docs/decisions/198)", () => {
  const mark = (i: number) => `\uE000${i}\uE000`;

  it("writes each value escaped where its mark is, in any order", () => {
    expect(withValues(`<a href="${mark(1)}">x</a><a href="${mark(0)}">y</a>`, ['/a?b=1&c="2"', "/d'<e>"])).toBe(
      '<a href="/d&#x27;&lt;e&gt;">x</a><a href="/a?b=1&amp;c=&quot;2&quot;">y</a>',
    );
  });

  it("never reads a value as a mark", () => {
    expect(withValues(`${mark(0)}|${mark(1)}`, [mark(1), "b"])).toBe(`${mark(1)}|b`);
  });

  it("is null when the kept HTML lacks a value's mark or has one it was not given, so the part is rendered in place", () => {
    expect(withValues(`<a href="${mark(0)}">`, ["a", "b"])).toBeNull();
    expect(withValues(`<a href="${mark(2)}">`, ["a"])).toBeNull();
  });
});
