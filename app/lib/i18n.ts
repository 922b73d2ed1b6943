import { createContext, createElement, useContext, useMemo } from "react";

/**
 * Translations: one JSON file per area and language, locales/{lang}/{area}.json, addressed as
 * "area.key" (t("common.notFound.title")). Values may hold {{name}} placeholders; a key with a
 * `count` value picks "key_one" / "key_other" by the language's plural rules.
 *
 * The server knows every language (platform/translations.server.ts); the browser loads only the shopper's language
 * (i18n.client.ts), which keeps a whole translation library out of the page's JavaScript budget.
 */

export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_LABELS: Record<Locale, string> = { en: "ENGLISH", es: "ESPAÑOL" };

export interface Messages {
  [key: string]: string | Messages;
}
export type TranslateValues = Record<string, string | number>;
export type Translate = (key: string, values?: TranslateValues) => string;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

function lookUp(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

const MAX_COUNTS_KEPT = 1_000;

/** A count's plural form, kept per count: on the server, asking Intl took longer than the rest of a short text. */
function keptPluralForms(plurals: Intl.PluralRules): (count: number) => Intl.LDMLPluralRule {
  const forms = new Map<number, Intl.LDMLPluralRule>();
  return (count) => {
    let known = forms.get(count);
    if (known === undefined) {
      known = plurals.select(count);
      if (forms.size < MAX_COUNTS_KEPT) forms.set(count, known);
    }
    return known;
  };
}

export function createTranslator(locale: Locale, messages: Messages, fallback?: Messages): Translate {
  const plurals = new Intl.PluralRules(locale);
  // A page asks for the same few hundred texts on every render; each is looked up once. Only texts
  // found in the language's own messages are kept (so the cache holds at most every text there is):
  // a namespace loaded later in the browser adds texts, never changes one, and may replace a fallback.
  const found = new Map<string, string>();
  const find = (key: string) => {
    const known = found.get(key);
    if (known !== undefined) return known;
    const text = lookUp(messages, key);
    if (text === undefined) return fallback ? lookUp(fallback, key) : undefined;
    found.set(key, text);
    return text;
  };
  // Only the server's bundles keep them (see formatNaira): the browser's stays within its JavaScript budget.
  const form = import.meta.env?.SSR ? keptPluralForms(plurals) : (count: number) => plurals.select(count);
  return (key, values) => {
    let text: string | undefined;
    if (typeof values?.count === "number") text = find(`${key}_${form(values.count)}`) ?? find(`${key}_other`);
    text ??= find(key);
    if (text === undefined) return key;
    if (!values) return text;
    // Plain text in, plain text out: React escapes it when rendering.
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      values[name] === undefined ? whole : String(values[name]),
    );
  };
}

// The server renders every page with the same few message objects: their translators are made once,
// not once per request (Intl.PluralRules is costly to build).
const translators = new WeakMap<Messages, { locale: Locale; fallback?: Messages; t: Translate }>();

function sharedTranslator(locale: Locale, messages: Messages, fallback?: Messages): Translate {
  const known = translators.get(messages);
  if (known && known.locale === locale && known.fallback === fallback) return known.t;
  const t = createTranslator(locale, messages, fallback);
  translators.set(messages, { locale, fallback, t });
  return t;
}

interface I18nValue {
  locale: Locale;
  t: Translate;
}

const I18nContext = createContext<I18nValue>({ locale: DEFAULT_LOCALE, t: (key) => key });

export function I18nProvider({
  locale,
  messages,
  fallback,
  children,
}: {
  locale: Locale;
  messages: Messages;
  fallback?: Messages;
  children: React.ReactNode;
}) {
  const value = useMemo(() => ({ locale, t: sharedTranslator(locale, messages, fallback) }), [locale, messages, fallback]);
  return createElement(I18nContext.Provider, { value }, children);
}

/** The shopper's language and its translate function. */
export function useT(): I18nValue {
  return useContext(I18nContext);
}
