import { absoluteUrl } from "~/http/seo.server";
import type { Route } from "./+types/robots.txt";

/** Search engines may read the shop; the admin and account areas are off limits. */
export function loader({ context }: Route.LoaderArgs) {
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /auth",
    "Disallow: /profile",
    "Disallow: /checkout",
    "Disallow: /cart",
    "Disallow: /wishlist",
    "Disallow: /orders",
    "Disallow: /api",
    // A guest's privacy link and request form; the notice itself (/privacy) is read.
    "Disallow: /privacy/",
    "",
    `Sitemap: ${absoluteUrl(context, "/sitemap.xml")}`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
