import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { ProductCarousel } from "~/components/carousel";
import { RECENT_HEADING_ID } from "~/components/recently-viewed";
import type { ProductCard } from "~/domain/catalog.server";
import type { Locale } from "./i18n";
import { inLanguage, translatorFor } from "./i18n.server";
import { keptBytes } from "./kept-bytes.server";
import { dataScriptPiece } from "./personal-page.server";
import type { PersonalState } from "./personal";
import { RecentlyUsed } from "./recently-used";
import { sharedPiece } from "./spliced-gzip.server";

/**
 * A signed-in shopper's "Recently viewed" row of a product page, to be written into a cached product
 * page (docs/decisions/150): the same markup as the row rendered with the page.
 *
 * React renders a row on its own (`renderRecentRow`), and the result is kept in pieces, as bytes: each
 * card's `<li>` by language, heart and card, and the row's frame (title, arrows, list) by language and
 * whether it has arrows (more than one card). A row whose pieces are all kept is put together by
 * copying them, without rendering or encoding text: a shopper browsing from product to product gets a
 * new row each time, made mostly of cards already seen, and only the cards not kept are rendered (as a
 * row of their own). A card is kept by its product's id with the card it was made from, and used only
 * for a card equal to that one, so nothing is invalidated: a changed card replaces the kept one, and
 * old ones go least recently used first. Each card's JSON is kept the same way, escaped as the page's
 * data script holds it, for the row's data there. The pieces are handed over as they are kept, for the
 * page's gzip to splice (docs/decisions/194).
 */

const CARDS_KEPT = 1_000;
const cards = new RecentlyUsed<string, { card: ProductCard; html: Buffer }>(CARDS_KEPT);
/** Each card's JSON as a piece of the page's data script, by product: first in the row, and after a card (after a comma). */
const cardsData = new RecentlyUsed<number, { card: ProductCard; first: Buffer; after: Buffer }>(CARDS_KEPT);
const frames = new Map<string, { head: Buffer; tail: Buffer }>();
const CARD_START = '<li><article class="card">';
const CARD_END = "</article></li>";
const NO_ROW: RecentRow = { html: [], data: [] };

const cardKey = (locale: Locale, card: ProductCard, pressed: boolean) => `${locale} ${pressed ? 1 : 0} ${card.id}`;
const frameKey = (locale: Locale, count: number) => `${locale} ${count > 1 ? "arrows" : "one"}`;

/** Whether two cards hold the same values, in the same order (their JSON is the same). */
function sameCard(a: ProductCard, b: ProductCard): boolean {
  // The catalogue keeps its cards (docs/decisions/196): mostly the very same object.
  if (a === b) return true;
  const fields = Object.keys(a) as (keyof ProductCard)[];
  const others = Object.keys(b);
  return fields.length === others.length && fields.every((field, i) => others[i] === field && a[field] === b[field]);
}

/** The row's markup and its cards' data, as pieces of bytes (most of them kept: `sharedPiece`). */
export interface RecentRow {
  /** the row's markup (none for no cards, or a visitor's null) */
  html: Buffer[];
  /**
   * each card's JSON as a piece of the product loader's data in the page's script (`dataScriptPiece`),
   * in the row's order, each after the first with the comma before it
   */
  data: Buffer[];
}

/** The row (none for no cards, or a visitor's null): kept as bytes, so a row is put together by copying them. */
export async function recentRow(row: ProductCard[] | null, state: PersonalState, locale: Locale): Promise<RecentRow> {
  if (!row?.length) return NO_ROW;
  const wished = new Set(state.wishlist);
  const keys = row.map((card) => cardKey(locale, card, wished.has(card.id)));
  return { html: await rowHtml(row, state, locale, keys), data: row.map((card, i) => cardData(card, i > 0)) };
}

function cardData(card: ProductCard, afterComma: boolean): Buffer {
  let piece = cardsData.get(card.id);
  if (piece === undefined || !sameCard(piece.card, card)) {
    const after = keptBytes(Buffer.concat([Buffer.from(","), dataScriptPiece(JSON.stringify(card))]));
    cardsData.set(card.id, (piece = { card, first: sharedPiece(after.subarray(1)), after: sharedPiece(after) }));
  }
  return afterComma ? piece.after : piece.first;
}

async function rowHtml(row: ProductCard[], state: PersonalState, locale: Locale, keys: string[]): Promise<Buffer[]> {
  const frame = frames.get(frameKey(locale, row.length));
  const pieces = new Map<string, Buffer>();
  keys.forEach((key, i) => {
    const kept = cards.get(key);
    if (kept !== undefined && sameCard(kept.card, row[i])) pieces.set(key, kept.html);
  });
  const assembled = (frame: { head: Buffer; tail: Buffer }) => [frame.head, ...keys.map((key) => pieces.get(key)!), frame.tail];
  if (frame && pieces.size === keys.length) return assembled(frame);

  // With the frame kept, only the cards not kept are rendered, as a row of their own: browsing from
  // product to product, that is the one product viewed last, not the whole row again.
  const rendering = frame ? row.filter((_, i) => !pieces.has(keys[i])) : row;
  const html = await renderRecentRow(rendering, state.wishlist, locale);
  const cut = cutIntoPieces(html, rendering.length);
  if (!cut) return [Buffer.from(frame ? await renderRecentRow(row, state.wishlist, locale) : html)];
  frames.set(frameKey(locale, rendering.length), cut.frame);
  const renderingKeys = rendering === row ? keys : keys.filter((key) => !pieces.has(key));
  renderingKeys.forEach((key, i) => {
    cards.set(key, { card: rendering[i], html: cut.cards[i] });
    pieces.set(key, cut.cards[i]);
  });
  return assembled(frame ?? cut.frame);
}

/** A rendered row cut into its frame and one piece per card, as bytes to keep; null for a row not of that shape (then only sent, not kept). */
function cutIntoPieces(html: string, count: number): { frame: { head: Buffer; tail: Buffer }; cards: Buffer[] } | null {
  const starts: number[] = [];
  for (let at = html.indexOf(CARD_START); at !== -1; at = html.indexOf(CARD_START, at + 1)) starts.push(at);
  if (starts.length !== count) return null;
  const ends = starts.map((start) => html.indexOf(CARD_END, start) + CARD_END.length);
  if (ends.some((end, i) => end < CARD_END.length || (i + 1 < starts.length && end !== starts[i + 1]))) return null;
  const bytes = (text: string) => sharedPiece(keptBytes(Buffer.from(text)));
  return {
    // The frame's head too: after the page's kept bytes (another carousel's frame and cards), it is
    // compressed once with them as its dictionary (docs/decisions/197).
    frame: { head: bytes(html.slice(0, starts[0])), tail: bytes(html.slice(ends[ends.length - 1])) },
    cards: starts.map((start, i) => bytes(html.slice(start, ends[i]))),
  };
}

/** The row as React renders it in the page: the page's carousel, in a data router whose root data carries the hearts. */
export async function renderRecentRow(row: ProductCard[], wishlist: number[], locale: Locale): Promise<string> {
  // The hearts read the root's `personal` (app/lib/personal.ts); only the wishlist matters to the row.
  const personal = JSON.stringify({ user: null, cart: { lines: 0, total: 0, items: [] }, wishlist } satisfies PersonalState);
  const handler = createStaticHandler([
    {
      id: "root",
      path: "*",
      loader: () => ({ personal }),
      element: <ProductCarousel title={translatorFor(locale)("product.recent")} products={row} headingId={RECENT_HEADING_ID} />,
    },
  ]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("the recently viewed row could not be rendered");
  return renderToString(inLanguage(locale, <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />));
}
