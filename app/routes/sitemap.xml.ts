import { sitemapProducts } from "~/domain/catalogue/catalog.server";
import { absoluteUrl } from "~/http/seo.server";
import type { Route } from "./+types/sitemap.xml";

const PAGES = ["/", "/shop", "/about", "/faq", "/contact", "/returns-refunds", "/privacy"];

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Every public page and every product on sale, for search engines. */
export async function loader({ context }: Route.LoaderArgs) {
  const products = await sitemapProducts(context.db);
  const url = (path: string, lastmod?: string) =>
    `<url><loc>${escapeXml(absoluteUrl(context, path))}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod.slice(0, 10))}</lastmod>` : ""}</url>`;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PAGES.map((path) => url(path)),
    ...products.map((p) => url(`/shop/${p.id}`, p.updatedAt)),
    "</urlset>",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
