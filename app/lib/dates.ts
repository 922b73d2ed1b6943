import type { Locale } from "./i18n";

const formatters = new Map<Locale, Intl.DateTimeFormat>();

/** A stored ISO time as the shop's customers read it: Lagos time, in their language. */
export function formatLagosTime(iso: string, locale: Locale): string {
  let format = formatters.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "es" ? "es-NG" : "en-NG", {
      timeZone: "Africa/Lagos",
      dateStyle: "medium",
      timeStyle: "short",
    });
    formatters.set(locale, format);
  }
  return format.format(new Date(iso));
}

const dateFormatters = new Map<Locale, Intl.DateTimeFormat>();

/** A stored ISO time as a day in Lagos (no time of day), in the reader's language. */
export function formatLagosDate(iso: string, locale: Locale): string {
  let format = dateFormatters.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "es" ? "es-NG" : "en-NG", { timeZone: "Africa/Lagos", dateStyle: "medium" });
    dateFormatters.set(locale, format);
  }
  return format.format(new Date(iso));
}
