import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("routes/_store.tsx", [
    index("routes/_store.home.tsx"),
    // Anything unmatched renders the store's 'Page not found' with HTTP 404.
    route("*", "routes/_store.not-found.tsx"),
  ]),
  // The admin area: every loader and action checks the admin role on the server.
  route("admin", "routes/admin.tsx", [
    index("routes/admin._index.tsx"),
    route("orders", "routes/admin.orders.tsx"),
    route("orders/:number", "routes/admin.orders.$number.tsx"),
    route("products", "routes/admin.products.tsx"),
    route("categories", "routes/admin.categories.tsx"),
    route("brands", "routes/admin.brands.tsx"),
    route("regions", "routes/admin.regions.tsx"),
    route("audit", "routes/admin.audit.tsx"),
  ]),
] satisfies RouteConfig;
