import { renderToString } from "react-dom/server";
import { createRoutesStub, Link, type LinkProps, NavLink, type NavLinkProps } from "react-router";
import { describe, expect, it } from "vitest";
import { ServerLink, ServerNavLink } from "./shop-link";

// Rendered inside a data router (as pages are), at a nested location, so relative targets differ.
function render(
  Component: (props: LinkProps) => React.ReactNode,
  props: LinkProps,
) {
  const Stub = createRoutesStub([
    { path: "/shop/:id", Component: () => <Component {...props} /> },
  ]);
  return renderToString(<Stub initialEntries={["/shop/7?q=x"]} />);
}

const CASES: LinkProps[] = [
  { to: "/shop/12", className: "card-link", children: "Dior Sauvage" },
  {
    to: "/shop?brand=dior&min=50000&max=300000&page=2",
    preventScrollReset: true,
    rel: "next",
    "aria-label": "Next",
  },
  { to: "/", className: "logo", children: "Unboxed" },
  { to: "/shop/", children: "trailing slash" },
  { to: "/shop?", children: "empty query" },
  { to: "/shop?q=crème", children: "non-ASCII query" },
  { to: "/shop#reviews", children: "fragment" },
  { to: "/shop/../faq", children: "dot segments" },
  { to: "//evil.example/x", children: "protocol-relative" },
  {
    to: "https://wa.me/2348000000000",
    target: "_blank",
    rel: "noopener",
    children: "external",
  },
  { to: "reviews", children: "relative" },
  { to: "..", relative: "path", children: "relative up" },
  { to: { pathname: "/shop", search: "?brand=dior" }, children: "object" },
  { to: "/auth", reloadDocument: true, children: "reload" },
  { to: "/auth", discover: "none", children: "no discovery" },
  {
    to: "/profile",
    replace: true,
    state: { from: "x" },
    viewTransition: true,
    target: "_self",
    children: "with navigation options",
  },
];

describe("the server's shop link", () => {
  it.each(CASES)(
    "writes exactly what the router's Link writes: %o",
    (props) => {
      expect(render(ServerLink, props)).toBe(render(Link, props));
    },
  );
});

const NAV_CASES: [string, NavLinkProps][] = [
  ["/shop/7?q=x", { to: "/", end: true, className: "nav-link", children: "Home" }],
  ["/", { to: "/", end: true, className: "nav-link", children: "Home" }],
  ["/shop/7?q=x", { to: "/shop", className: "nav-link", children: "Shop" }],
  ["/shop", { to: "/shop", className: "nav-link", children: "Shop" }],
  ["/shop/", { to: "/shop", end: true, className: "nav-link", children: "Shop" }],
  ["/SHOP/7", { to: "/shop", children: "case" }],
  ["/SHOP/7", { to: "/shop", caseSensitive: true, children: "case sensitive" }],
  ["/shopping", { to: "/shop", children: "prefix only" }],
  ["/shop/7", { to: "/shop/", children: "trailing slash" }],
  ["/admin/orders", { to: "/admin", end: true, className: "nav-link", "aria-current": "location", children: "Admin" }],
  ["/admin/orders", { to: "/admin/orders?status=new", children: "with a query" }],
  ["/shop/7", { to: "/shop", className: ({ isActive }) => (isActive ? "on" : "off"), children: "class function" }],
  ["/shop/7", { to: "/shop", children: ({ isActive }) => (isActive ? "on" : "off") }],
  ["/shop/7", { to: "reviews", children: "relative" }],
  ["/shop/7", { to: { pathname: "/shop" }, children: "object" }],
];

describe("the server's navigation link", () => {
  it.each(NAV_CASES)("at %s, writes exactly what the router's NavLink writes: %o", (at, props) => {
    const render = (Component: (props: NavLinkProps) => React.ReactNode) => {
      const Stub = createRoutesStub([{ path: "*", Component: () => <Component {...props} /> }]);
      return renderToString(<Stub initialEntries={[at]} />);
    };
    expect(render(ServerNavLink)).toBe(render(NavLink));
  });
});
