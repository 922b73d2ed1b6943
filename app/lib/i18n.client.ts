import { type Messages, type Locale } from "./i18n";

// One small chunk per language and area: the browser fetches only the shopper's language. The e-mails'
// texts, the WhatsApp and SMS messages', and the privacy pages' (which their loaders write, docs/decisions/221), are written on the
// server only, so the browser build has no chunk for them.
const files = import.meta.glob<Messages>(["./*/*.json", "!./*/mail.json", "!./*/privacy.json", "!./*/messages.json"], { base: "../locales", import: "default" });

// Areas that only some pages use, with the paths they live under: loaded with those pages only, so a
// storefront page downloads only the texts it shows. A route of these areas reached by in-app
// navigation loads its texts in its clientLoader (ensureMessages).
const PAGE_AREAS: Record<string, string[]> = {
  admin: ["/admin"],
  auth: ["/auth"],
  // The order and payment status labels are the admin's too.
  account: ["/profile", "/orders", "/wishlist", "/admin", "/track/"],
  // The address form's and the saved addresses' texts: the profile's and the checkout's.
  address: ["/profile", "/checkout"],
  // The checkout's and paying's texts: not the profile's.
  purchase: ["/checkout", "/orders", "/track/"],
  // An order's page (an account's, or the one a guest's private link opens): not the checkout's.
  order: ["/orders", "/track/"],
  // The home page's and the listing's own texts (a path ending in "$" is that page only, not below it).
  catalogue: ["/$", "/shop$"],
  cart: ["/cart"],
  // The promotions screens; the shopper's discount-code texts are written by the loaders.
  promotions: ["/admin/promotions"],
  // Store credit and gift cards: the admin screens; the shopper's texts are written by the loaders.
  credit: ["/admin"],
  invoice: ["/orders", "/admin/orders", "/track/"],
  // A product page's reviews and back-in-stock form (a prefix ending in "/" takes what is below it only).
  product: ["/shop/"],
};

const areaOf = (file: string) => file.match(/([\w-]+)\.json$/)![1];

function usedOn(area: string, pathname: string): boolean {
  const prefixes = PAGE_AREAS[area];
  return (
    !prefixes ||
    prefixes.some((prefix) =>
      prefix.endsWith("$") ? [prefix.slice(0, -1), `${prefix.slice(0, -1)}/`].includes(pathname) : prefix.endsWith("/") ? pathname.startsWith(prefix) : pathname === prefix || pathname.startsWith(`${prefix}/`),
    )
  );
}

let current: { locale: Locale; messages: Messages } | null = null;

export async function loadMessages(locale: Locale, pathname = "/"): Promise<Messages> {
  const entries = Object.entries(files).filter(([file]) => file.startsWith(`./${locale}/`) && usedOn(areaOf(file), pathname));
  const loaded = await Promise.all(entries.map(async ([file, load]) => [areaOf(file), await load()] as const));
  const messages: Messages = Object.fromEntries(loaded);
  current = { locale, messages };
  return messages;
}

/**
 * Adds an area's texts to the loaded language, before a client-side navigation shows a page that
 * needs them (translators read the same object, so they see the added area at once).
 */
export async function ensureMessages(area: string): Promise<void> {
  if (!current || current.messages[area]) return;
  const load = files[`./${current.locale}/${area}.json`];
  if (load) current.messages[area] = await load();
}
