/**
 * Times are stored in UTC; people read them in the shop's time zone (Lagos), the same on the server
 * and in the browser, so a page renders the same text before and after hydration.
 */
export const SHOP_TIME_ZONE = "Africa/Lagos";

const formats = new Map<string, Intl.DateTimeFormat>();

function format(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale === "es" ? "es-ES" : "en-GB", { ...options, timeZone: SHOP_TIME_ZONE });
    formats.set(key, f);
  }
  return f;
}

/** "21 Nov 2026, 14:05" */
export function formatDateTime(iso: string, locale: string): string {
  return format(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** "21 Nov" for a shop date "2026-11-21" */
export function formatShortDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale === "es" ? "es-ES" : "en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00.000Z`),
  );
}
