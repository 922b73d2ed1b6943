import { type Locale, type Translate } from "~/lib/i18n";
import { LOCALE_COOKIE, pickLocale } from "~/lib/locale-detect";
import { translatorFor } from "~/platform/translations.server";
import { readCookie, serializeCookie } from "./cookies.server";

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
