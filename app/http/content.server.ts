import en from "~/content/en.json";
import es from "~/content/es.json";
import { detectLocale } from "./language.server";
import type { Locale } from "../lib/i18n";

/**
 * The storefront's page copy (content pages, home banners, page titles and descriptions) in both
 * languages. It stays on the server: a loader hands a page only its own text, so long texts never
 * travel with every page's JavaScript (docs/decisions/012). Both files have the same shape (a test checks).
 */
export type PageContent = typeof en;

const CONTENT: Record<Locale, PageContent> = { en, es };

export function contentFor(locale: Locale): PageContent {
  return CONTENT[locale];
}

/** The request's language and the copy in it. */
export function pageContent(request: Request): { locale: Locale; content: PageContent } {
  const { locale } = detectLocale(request);
  return { locale, content: CONTENT[locale] };
}

/** Fills {{name}} placeholders in a text. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
}
