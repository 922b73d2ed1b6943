import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "./i18n";

export const LOCALE_COOKIE = "lng";

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
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
  const cookie = readCookie(request.headers.get("Cookie"), LOCALE_COOKIE);
  if (isLocale(cookie)) return { locale: cookie, fromQuery: false };
  return { locale: fromAcceptLanguage(request.headers.get("Accept-Language")) ?? DEFAULT_LOCALE, fromQuery: false };
}

export function localeCookie(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

export { LOCALES };
