import { createElement, type ReactElement, type ReactNode } from "react";
import { readCookie, serializeCookie } from "./cookies.server";
import { createTranslator, DEFAULT_LOCALE, I18nProvider, isLocale, type Locale, type Messages, type Translate } from "./i18n";
import { LOCALE_COOKIE, pickLocale } from "./locale-detect";

export { LOCALE_COOKIE };

// Every language, for the server: pages, meta tags and e-mails.
const files = import.meta.glob<Messages>("../locales/*/*.json", { eager: true, import: "default" });

const all: Record<Locale, Messages> = { en: {}, es: {} };
for (const [file, content] of Object.entries(files)) {
  const [, lang, area] = file.match(/locales\/(\w+)\/([\w-]+)\.json$/) ?? [];
  if (isLocale(lang)) all[lang][area] = content;
}

export function messagesFor(locale: Locale): Messages {
  return all[locale];
}

/** What the server renders (a page, or a part of one), in `locale`, with English for a missing text. */
export function inLanguage(locale: Locale, children: ReactNode): ReactElement {
  return createElement(I18nProvider, { locale, messages: all[locale], fallback: all[DEFAULT_LOCALE], children });
}

const translators = new Map<Locale, Translate>();

/** Translate on the server (loaders, meta, e-mails); a key missing in Spanish falls back to English. */
export function translatorFor(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) {
    t = createTranslator(locale, all[locale], locale === DEFAULT_LOCALE ? undefined : all[DEFAULT_LOCALE]);
    translators.set(locale, t);
  }
  return t;
}

/**
 * The shopper's language: `?lng=` first (and then remembered in a cookie), the cookie next,
 * then the browser's Accept-Language, and English when nothing matches.
 */
export function detectLocale(request: Request): { locale: Locale; fromQuery: boolean } {
  return pickLocale({
    query: new URL(request.url).searchParams.get("lng"),
    cookie: readCookie(request, LOCALE_COOKIE),
    acceptLanguage: request.headers.get("Accept-Language"),
  });
}

/** The translate function for this request's language. */
export function requestTranslator(request: Request): Translate {
  return translatorFor(detectLocale(request).locale);
}

export function localeCookie(locale: Locale): string {
  return serializeCookie(LOCALE_COOKIE, locale, { maxAgeSeconds: 365 * 24 * 3600 });
}
