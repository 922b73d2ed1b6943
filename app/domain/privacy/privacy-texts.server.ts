import type en from "~/locales/en/privacy.json";
import type { Config } from "~/platform/config.server";
import type { Locale, Messages } from "~/lib/i18n";
import { messagesFor } from "~/platform/translations.server";
import { ORDER_RECORD_YEARS } from "./data-rights.server";

/**
 * The privacy pages' texts (locales/{lang}/privacy.json). They are written by the pages' loaders and
 * never sent to the browser as a translation chunk (lib/i18n.client.ts leaves the area out), so the
 * profile keeps its JavaScript budget and a long notice is not in every page's scripts.
 */
export type PrivacyTexts = typeof en;

/** Every {{name}} in every text of the value, filled. */
function fillAll<T>(value: T, values: Record<string, string | number>): T {
  if (typeof value === "string") return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name]))) as T;
  if (Array.isArray(value)) return value.map((v) => fillAll(v, values)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillAll(v, values)])) as T;
  return value;
}

export function privacyTexts(locale: Locale): PrivacyTexts {
  return (messagesFor(locale) as Messages & { privacy: PrivacyTexts }).privacy;
}

/** The notice with the owner's details from the settings. */
export function privacyNotice(locale: Locale, shop: Pick<Config["shop"], "name" | "email" | "phone" | "address">): PrivacyTexts["notice"] {
  return fillAll(privacyTexts(locale).notice, { shop: shop.name, email: shop.email, phone: shop.phone, address: shop.address, years: ORDER_RECORD_YEARS });
}
