import { readCookie, serializeCookie } from "./cookies.server";
import { createTranslator, DEFAULT_LOCALE, isLocale, type Locale, type Messages, type Translate } from "./i18n";

export const LOCALE_COOKIE = "lng";

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

/** Best match from an Accept-Language header, honouring q-values; undefined when none is ours. */
function fromAcceptLanguage(header: string | null): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((entry) => {
      const [tag, ...params] = entry.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { lang: tag.toLowerCase().split("-")[0], q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  return ranked.find((r) => r.q > 0 && isLocale(r.lang))?.lang as Locale | undefined;
}

/**
 * The shopper's language: `?lng=` first (and then remembered in a cookie), the cookie next,
 * then the browser's Accept-Language, and English when nothing matches.
 */
export function detectLocale(request: Request): { locale: Locale; fromQuery: boolean } {
  const query = new URL(request.url).searchParams.get("lng");
  if (isLocale(query)) return { locale: query, fromQuery: true };
  const cookie = readCookie(request, LOCALE_COOKIE);
  if (isLocale(cookie)) return { locale: cookie, fromQuery: false };
  return { locale: fromAcceptLanguage(request.headers.get("Accept-Language")) ?? DEFAULT_LOCALE, fromQuery: false };
}

/** The translate function for this request's language. */
export function requestTranslator(request: Request): Translate {
  return translatorFor(detectLocale(request).locale);
}

export function localeCookie(locale: Locale): string {
  return serializeCookie(LOCALE_COOKIE, locale, { maxAgeSeconds: 365 * 24 * 3600 });
}
