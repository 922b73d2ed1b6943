import { DEFAULT_LOCALE, isLocale, type Locale } from "./i18n";

/** The cookie that remembers the shopper's language. */
export const LOCALE_COOKIE = "lng";

/** Best match from an Accept-Language header, honouring q-values; undefined when none is ours. */
function fromAcceptLanguage(header: string | null | undefined): Locale | undefined {
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
 * The shopper's language from the raw request parts: `?lng=` first, the cookie next, then the
 * browser's Accept-Language, and English when nothing matches. Plain code with no translation files,
 * so the HTTP server (page cache) and the app decide the same way.
 */
export function pickLocale(input: {
  query: string | null;
  cookie: string | undefined;
  acceptLanguage: string | null | undefined;
}): { locale: Locale; fromQuery: boolean } {
  if (isLocale(input.query)) return { locale: input.query, fromQuery: true };
  if (isLocale(input.cookie)) return { locale: input.cookie, fromQuery: false };
  return { locale: fromAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LOCALE, fromQuery: false };
}
