import { type Messages, type Locale } from "./i18n";

// One small chunk per language and area: the browser fetches only the shopper's language.
const files = import.meta.glob<Messages>("../locales/*/*.json", { import: "default" });

export async function loadMessages(locale: Locale): Promise<Messages> {
  const entries = Object.entries(files).filter(([file]) => file.includes(`/locales/${locale}/`));
  const loaded = await Promise.all(
    entries.map(async ([file, load]) => [file.match(/([\w-]+)\.json$/)![1], await load()] as const),
  );
  return Object.fromEntries(loaded);
}
