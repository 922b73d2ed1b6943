import i18next, { type i18n } from "i18next";
import en from "~/locales/en.json";
import es from "~/locales/es.json";

export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_LABELS: Record<Locale, string> = { en: "ENGLISH", es: "ESPANYOL" };

export const resources = { en: { translation: en }, es: { translation: es } } as const;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * One synchronously initialised instance per language, shared by every request: an instance never
 * changes language after it is made, so sharing it is safe and saves building one per page.
 */
const instances = new Map<Locale, i18n>();

export function i18nFor(locale: Locale): i18n {
  let instance = instances.get(locale);
  if (!instance) {
    instance = createI18n(locale);
    instances.set(locale, instance);
  }
  return instance;
}

function createI18n(locale: Locale): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    resources,
    initAsync: false,
    // React escapes every string it renders; translations are never injected as HTML.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
