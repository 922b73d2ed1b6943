import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { I18nProvider, type Locale } from "~/lib/i18n";
import { messagesFor } from "~/platform/translations.server";
import { NOBODY, type PersonalState } from "~/lib/personal";
import { StoreHeader } from "./store-header";

const SHOP = { phone: "+234 801 234 5678", socials: null };
const MEMBER: PersonalState = {
  user: { firstName: "Adaeze <&>", lastName: "Okafor", email: "ada@example.com", role: "customer" },
  cart: { lines: 2, total: 17_400_000, items: [] },
  wishlist: [],
};
const ADMIN: PersonalState = { ...MEMBER, user: { ...MEMBER.user!, firstName: "Tunde", role: "owner" } };

/** The header as a page at `url` renders it, for a shopper, in a language. */
function header(url: string, { locale = "en" as Locale, personal = NOBODY } = {}) {
  const Stub = createRoutesStub([{ id: "root", path: "*", Component: StoreHeader }]);
  return renderToString(
    <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor("en")}>
      <Stub initialEntries={[url]} hydrationData={{ loaderData: { root: { shop: SHOP, personal: JSON.stringify(personal) } } }} />
    </I18nProvider>,
  );
}

describe("the store header", () => {
  it("shows the shopper's own name and cart, escaped, and a visitor's empty cart", () => {
    const member = header("/about", { personal: MEMBER });
    expect(member).toContain("Adaeze &lt;&amp;&gt;");
    expect(member).toContain("₦174,000.00");
    const visitor = header("/about");
    expect(visitor).not.toContain("Adaeze");
    expect(visitor).toContain("₦0.00");
  });

  it("lists the admin pages for admins only", () => {
    expect(header("/", { personal: ADMIN })).toContain('href="/admin/products"');
    expect(header("/", { personal: MEMBER })).not.toMatch(/<li>\s*<a[^>]*href="\/admin\/products"/);
  });

  it("marks the current page and keeps the words searched for", () => {
    expect(header("/about")).toMatch(/<a aria-current="page" class="nav-link active" href="\/about"/);
    expect(header("/shop?q=rose")).toContain('value="rose"');
    expect(header("/shop")).not.toContain('value="rose"');
  });

  it("links the same page in each language, keeping its query", () => {
    expect(header("/shop/12")).toContain('href="/shop/12?lng=es"');
    expect(header("/shop/12?ref=a%22b&x=%3C%26%3E")).toContain('href="/shop/12?ref=a%22b&amp;x=%3C%26%3E&amp;lng=es"');
    expect(header("/shop", { locale: "es" })).not.toBe(header("/shop"));
  });
});
