import { createElement } from "react";
import { Link, type LinkProps, NavLink, type NavLinkProps, useLocation } from "react-router";

// One of the shop's own paths, as the router would write it unchanged: no dot segments, no doubled
// slashes, an ASCII query that is not empty, no fragment.
export const PLAIN_PATH = /^\/(?![/\\])[\w\-~%/]*(?:\?[\x21-\x22\x24-\x7e]+)?$/;

/**
 * On the server, a link to one of the shop's own paths is written as the router's `<Link>` writes it,
 * without the router's hooks: a page has dozens of links (cards, filters, pages), and resolving each
 * through the router was about a tenth of what a page render allocates (#14, docs/decisions/162).
 * Anything else (a relative or external target, prefetching, reloadDocument) is the router's `<Link>`.
 */
export function ServerLink(props: LinkProps) {
  const { to, discover = "render", prefetch = "none", relative, reloadDocument, target } = props;
  if (
    typeof to !== "string" ||
    !PLAIN_PATH.test(to) ||
    to.includes("//") ||
    relative ||
    reloadDocument ||
    prefetch !== "none" ||
    "mask" in props
  ) {
    return <Link {...props} />;
  }
  // The attributes are copied key by key: an object rest leaving out the options was most of this
  // function's time, and a page has dozens of links.
  const attributes: Record<string, unknown> = {};
  for (const key in props) if (!LINK_OPTIONS.has(key)) attributes[key] = props[key as keyof LinkProps];
  attributes.href = to;
  attributes.target = target;
  attributes["data-discover"] = discover === "render" ? "true" : undefined;
  return createElement("a", attributes);
}

/** The router's navigation options: they act on a click in the browser and write nothing. */
const LINK_OPTIONS: ReadonlySet<string> = new Set([
  "to",
  "discover",
  "prefetch",
  "relative",
  "reloadDocument",
  "replace",
  "state",
  "target",
  "preventScrollReset",
  "viewTransition",
] satisfies (keyof LinkProps)[]);

/**
 * The shop's link: the router's `<Link>` in the browser (client-side navigation, as ever); on the
 * server, `ServerLink`, which writes the same markup for less work. Vite drops `ServerLink` from the
 * browser's scripts.
 */
export const ShopLink: typeof Link = import.meta.env.SSR
  ? (ServerLink as typeof Link)
  : Link;

/**
 * On the server, a navigation link to one of the shop's own paths, written as the router's `<NavLink>`
 * writes it (the `active` class and `aria-current` on the current page's link; nothing is pending on
 * the server), through `ServerLink`. The header lists its pages twice (bar and drawer). Anything else
 * (class, style or children as functions, a target `ServerLink` leaves to the router) is `<NavLink>`.
 */
export function ServerNavLink(props: NavLinkProps) {
  const { "aria-current": ariaCurrent = "page", caseSensitive = false, className = "", end = false, style, to, viewTransition, children } = props;
  const { pathname } = useLocation();
  if (typeof to !== "string" || !PLAIN_PATH.test(to) || typeof className !== "string" || typeof style === "function" || typeof children === "function") {
    return <NavLink {...props} />;
  }
  const active = isActivePath(pathname, to, { end, caseSensitive });
  const linkProps: Record<string, unknown> = {};
  for (const key in props) if (!NAV_LINK_OPTIONS.has(key)) linkProps[key] = props[key as keyof NavLinkProps];
  linkProps["aria-current"] = active ? ariaCurrent : undefined;
  linkProps.className = [className, active ? "active" : null].filter(Boolean).join(" ");
  linkProps.style = style;
  linkProps.to = to;
  linkProps.viewTransition = viewTransition;
  return createElement(ServerLink, linkProps as unknown as LinkProps, children);
}

/** What `ServerNavLink` writes itself rather than passing on to `ServerLink`. */
const NAV_LINK_OPTIONS: ReadonlySet<string> = new Set([
  "aria-current",
  "caseSensitive",
  "className",
  "end",
  "style",
  "to",
  "viewTransition",
  "children",
] satisfies (keyof NavLinkProps)[]);

/** Whether a navigation link to `to` is the current page's: the router's rule, for a path without dot segments (PLAIN_PATH). */
export function isActivePath(pathname: string, to: string, { end = false, caseSensitive = false } = {}): boolean {
  const fold = (path: string) => (caseSensitive ? path : path.toLowerCase());
  const current = fold(pathname);
  const target = fold(to.split("?")[0]);
  const endSlash = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  return current === target || (!end && current.startsWith(target) && current.charAt(endSlash) === "/");
}

/** The shop's navigation link: the router's `<NavLink>` in the browser; on the server, `ServerNavLink`. */
export const ShopNavLink: typeof NavLink = import.meta.env.SSR ? (ServerNavLink as typeof NavLink) : NavLink;
