import { describe, expect, it } from "vitest";
import en from "~/locales/en.json";
import es from "~/locales/es.json";
import { i18nFor } from "./i18n";
import { detectLocale, localeCookie } from "./i18n.server";

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const request = (url: string, headers: Record<string, string> = {}) => new Request(`http://shop.test${url}`, { headers });

describe("languages", () => {
  it("has every key in both English and Spanish", () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    for (const key of keys(es)) expect(i18nFor("es").t(key), key).not.toBe(key);
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
    expect(localeCookie("es")).toMatch(/^lng=es; Path=\/; Max-Age=\d+; SameSite=Lax$/);
  });

  it("translates the home heading in both languages", () => {
    expect(i18nFor("en").t("home.heading")).toBe("New in the shop");
    expect(i18nFor("es").t("home.heading")).toBe("Novedades en la tienda");
  });
});
