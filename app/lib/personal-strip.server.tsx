import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { ProductCarousel } from "~/components/carousel";
import { RECENT_HEADING_ID } from "~/components/recently-viewed";
import type { ProductCard } from "~/domain/catalog.server";
import { DEFAULT_LOCALE, I18nProvider, type Locale } from "./i18n";
import { messagesFor, translatorFor } from "./i18n.server";
import type { PersonalState } from "./personal";

/**
 * A signed-in shopper's "Recently viewed" row of a product page, rendered on its own by React, to be
 * written into a cached product page (docs/decisions/150): the same markup as the row rendered with
 * the page (the cards' hearts pressed as in `personal`). The row depends only on the cards, the hearts
 * among them and the language, so it is kept by those: a shopper who opens products already in their
 * row again, or another with the same row, costs no rendering.
 */

const KEPT = 300;
const rendered = new Map<string, string>();

export async function recentRowHtml(cards: ProductCard[], state: PersonalState, locale: Locale): Promise<string> {
  if (cards.length === 0) return "";
  const pressed = cards.filter((card) => state.wishlist.includes(card.id)).map((card) => card.id);
  const key = `${locale} ${pressed.join()} ${JSON.stringify(cards)}`;
  const kept = rendered.get(key);
  if (kept !== undefined) {
    // Most recently used last.
    rendered.delete(key);
    rendered.set(key, kept);
    return kept;
  }
  // The hearts read the root's `personal` (app/lib/personal.ts); only the wishlist matters to the row.
  const personal = JSON.stringify({ user: null, cart: { lines: 0, total: 0, items: [] }, wishlist: pressed } satisfies PersonalState);
  const handler = createStaticHandler([
    {
      id: "root",
      path: "*",
      loader: () => ({ personal }),
      element: <ProductCarousel title={translatorFor(locale)("product.recent")} products={cards} headingId={RECENT_HEADING_ID} />,
    },
  ]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("the recently viewed row could not be rendered");
  const html = renderToString(
    <I18nProvider locale={locale} messages={messagesFor(locale)} fallback={messagesFor(DEFAULT_LOCALE)}>
      <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
    </I18nProvider>,
  );
  rendered.set(key, html);
  if (rendered.size > KEPT) rendered.delete(rendered.keys().next().value as string);
  return html;
}
