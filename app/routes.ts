import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("routes/_store.tsx", [
    index("routes/_store.home.tsx"),
    route("cart", "routes/cart.tsx"),
    route("cart/whatsapp/:reference", "routes/cart.whatsapp.tsx"),
    // Anything unmatched renders the store's 'Page not found' with HTTP 404.
    route("*", "routes/_store.not-found.tsx"),
  ]),
] satisfies RouteConfig;
