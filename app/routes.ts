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
    route("cart", "routes/cart.tsx"),
    route("cart/whatsapp/:reference", "routes/cart.whatsapp.tsx"),
    route("auth", "routes/auth.tsx"),
    route("auth/register", "routes/auth.register.tsx"),
    route("auth/forgot-password", "routes/auth.forgot-password.tsx"),
    route("auth/reset-password", "routes/auth.reset-password.tsx"),
    route("auth/change-password", "routes/auth.change-password.tsx"),
    route("profile", "routes/account.profile.tsx"),
    route("wishlist", "routes/account.wishlist.tsx"),
    route("orders/:number", "routes/account.order.tsx"),
    route("orders/:number/pay", "routes/account.order.pay.tsx"),
    route("checkout", "routes/account.checkout.tsx"),
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
    route("delivery", "routes/admin.delivery.tsx"),
    route("audit", "routes/admin.audit.tsx"),
  ]),
  route("auth/logout", "routes/auth.logout.tsx"),
  route("payments/paystack/callback", "routes/payments.paystack.callback.tsx"),
  route("webhooks/paystack", "routes/webhooks.paystack.ts"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
] satisfies RouteConfig;
