import { describe, expect, it } from "vitest";
import { createTranslator } from "~/lib/i18n";
import { detectLocale, localeCookie } from "~/http/language.server";
import { messagesFor, translatorFor } from "~/platform/translations.server";

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const request = (url: string, headers: Record<string, string> = {}) => new Request(`http://shop.test${url}`, { headers });

describe("languages", () => {
  it("has every key in both English and Spanish, and no empty text", () => {
    const en = keys(messagesFor("en"));
    expect(en.length).toBeGreaterThan(5);
    expect(keys(messagesFor("es")).sort()).toEqual([...en].sort());
    for (const key of en) {
      expect(translatorFor("en")(key), key).not.toBe(key);
      expect(translatorFor("es")(key).trim(), key).not.toBe("");
    }
  });

  it("translates with placeholders, plurals and an English fallback", () => {
    const t = createTranslator(
      "en",
      { cart: { items_one: "{{count}} item", items_other: "{{count}} items", hi: "Hi {{name}}, {{name}}!" } },
      { only: { english: "fallback" } },
    );
    expect(t("cart.items", { count: 1 })).toBe("1 item");
    expect(t("cart.items", { count: 3 })).toBe("3 items");
    expect(t("cart.hi", { name: "<b>Ada</b>" })).toBe("Hi <b>Ada</b>, <b>Ada</b>!");
    expect(t("only.english")).toBe("fallback");
    expect(t("no.such.key")).toBe("no.such.key");
  });

  it("shows a text loaded after the first render in place of the fallback or the key it stood for", () => {
    // The browser adds a namespace to the same messages when a page needs it (i18n.client.ts).
    const messages: Record<string, Record<string, string>> = { common: { hello: "Hola" } };
    const t = createTranslator("es", messages, { cart: { title: "Your cart" } });
    expect(t("common.hello")).toBe("Hola");
    expect(t("cart.title")).toBe("Your cart");
    expect(t("account.title")).toBe("account.title");
    messages.cart = { title: "Tu carrito" };
    messages.account = { title: "Tu cuenta" };
    expect(t("cart.title")).toBe("Tu carrito");
    expect(t("account.title")).toBe("Tu cuenta");
    expect(t("common.hello")).toBe("Hola");
  });

  it("detects the language from ?lng=, then the cookie, then Accept-Language, else English", () => {
    expect(detectLocale(request("/?lng=es", { Cookie: "lng=en" }))).toEqual({ locale: "es", fromQuery: true });
    expect(detectLocale(request("/", { Cookie: "theme=x; lng=es" })).locale).toBe("es");
    expect(detectLocale(request("/", { "Accept-Language": "fr-FR, es;q=0.8, en;q=0.5" })).locale).toBe("es");
    expect(detectLocale(request("/", { "Accept-Language": "en-GB,en;q=0.9" })).locale).toBe("en");
    expect(detectLocale(request("/", { "Accept-Language": "de" })).locale).toBe("en");
    expect(detectLocale(request("/?lng=<script>", { Cookie: "lng=zz" })).locale).toBe("en");
  });

  it("remembers the choice in a cookie", () => {
    expect(localeCookie("es")).toMatch(/^lng=es; Path=\/; SameSite=Lax; Max-Age=\d+$/);
  });

  it("translates the storefront in both languages", () => {
    expect(translatorFor("en")("store.nav.shop")).toBe("Shop");
    expect(translatorFor("es")("store.nav.shop")).toBe("Tienda");
  });
});
