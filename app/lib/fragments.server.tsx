import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { Locale } from "~/lib/i18n";
import { inLanguage } from "~/lib/i18n.server";
import type { Fragments } from "./fragments";
import { RecentlyUsed } from "./recently-used";

/** Parts kept per server, the most recently used; a product card's HTML is 2–4 KB in memory. */
export const FRAGMENTS_KEPT = 1_000;

const kept = new RecentlyUsed<string, string | null>(FRAGMENTS_KEPT);

/**
 * The HTML inside the part's outer element, when the part is that one element opened as `opening`.
 * Anything React writes before or around it (a hoisted preload, a style) would be lost, so such a
 * part is rendered in place.
 */
function innerHtmlOf(html: string, opening: string): string | null {
  const tag = /^<([a-z]+)/.exec(opening)?.[1];
  const closing = `</${tag}>`;
  if (!tag || !html.startsWith(opening) || !html.endsWith(closing)) return null;
  return html.slice(opening.length, -closing.length);
}

const byLocale = new Map<Locale, Fragments>();

/**
 * The fragments of a page in `locale`: each part is rendered on its own, in the shopper's language,
 * with the router's context the part was given, and its HTML kept under its key. Keys name the part's
 * whole content (its data, language and the shopper's state it shows), so a change to any of them is
 * another key and nothing needs emptying; old keys leave as new ones come.
 */
export function fragmentsFor(locale: Locale): Fragments {
  let fragments = byLocale.get(locale);
  if (!fragments) {
    fragments = {
      innerHtml(key: string, opening: string, part: () => ReactElement): string | null {
        const fullKey = `${locale}\n${opening}\n${key}`;
        if (kept.has(fullKey)) return kept.get(fullKey) as string | null;
        const html = innerHtmlOf(renderToString(inLanguage(locale, part())), opening);
        kept.set(fullKey, html);
        return html;
      },
    };
    byLocale.set(locale, fragments);
  }
  return fragments;
}

/** Forgets every kept part (tests). */
export function forgetFragments(): void {
  kept.clear();
}
