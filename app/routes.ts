import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("routes/_store.tsx", [
    index("routes/_store.home.tsx"),
    route("shop", "routes/_store.shop.tsx"),
    route("shop/:id", "routes/_store.shop.$id.tsx"),
    route("about", "routes/_store.about.tsx"),
    route("returns-refunds", "routes/_store.returns-refunds.tsx"),
    route("faq", "routes/_store.faq.tsx"),
    route("contact", "routes/_store.contact.tsx"),
    // Anything unmatched renders the store's 'Page not found' with HTTP 404.
    route("*", "routes/_store.not-found.tsx"),
  ]),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
] satisfies RouteConfig;
