import { createElement, type ReactElement, type ReactNode } from "react";
import { createTranslator, DEFAULT_LOCALE, I18nProvider, isLocale, type Locale, type Messages, type Translate } from "~/lib/i18n";
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
