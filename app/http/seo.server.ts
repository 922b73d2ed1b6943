import type { AppLoadContext, MetaDescriptor } from "react-router";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../lib/i18n";

export interface PageSeo {
  title: string;
  description: string;
  /** site-relative path of the page's picture */
  image?: string | null;
  type?: "website" | "product";
  /** structured data (schema.org), rendered as application/ld+json */
  jsonLd?: Record<string, unknown>;
}

/** An absolute URL on the shop's public address (never the request's Host header). */
export function absoluteUrl(context: Pick<AppLoadContext, "config">, path: string): string {
  return `${context.config.publicUrl}${path}`;
}

/** Descriptions are cut at a word boundary to what search results show. */
export function shortDescription(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  return `${clean.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}

/**
 * Title, description, canonical URL, Open Graph tags and structured data for a page, built by its
 * loader (so no SEO code reaches the browser) and returned by its meta function.
 */
export function seoMeta(context: Pick<AppLoadContext, "config">, locale: Locale, path: string, seo: PageSeo): MetaDescriptor[] {
  const url = absoluteUrl(context, inLanguage(path, locale));
  const description = shortDescription(seo.description);
  const tags: MetaDescriptor[] = [
    { title: seo.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    // Each language has its own address, so a shared cache keyed on the address never mixes them.
    ...LOCALES.map((lng) => ({ tagName: "link", rel: "alternate", hrefLang: lng, href: absoluteUrl(context, inLanguage(path, lng)) })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: absoluteUrl(context, inLanguage(path, DEFAULT_LOCALE)) },
    { property: "og:site_name", content: "Unboxed" },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:title", content: seo.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:locale", content: locale === "es" ? "es_ES" : "en_NG" },
    { name: "twitter:card", content: seo.image ? "summary_large_image" : "summary" },
  ];
  if (seo.image) tags.push({ property: "og:image", content: absoluteUrl(context, seo.image) });
  if (seo.jsonLd) tags.push({ "script:ld+json": seo.jsonLd });
  return tags;
}

/** A site-relative path in `locale`: the default language's address has no `lng`, another's has it. */
export function inLanguage(path: string, locale: Locale): string {
  const [pathname, query = ""] = path.split("?", 2);
  const params = new URLSearchParams(query);
  params.delete("lng");
  if (locale !== DEFAULT_LOCALE) params.set("lng", locale);
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}
