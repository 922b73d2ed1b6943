import { Link, type LinkProps } from "react-router";

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
  // Navigation options act on a click in the browser; they write nothing.
  const {
    to,
    discover = "render",
    prefetch = "none",
    relative,
    reloadDocument,
    replace: _replace,
    state: _state,
    target,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    ...rest
  } = props;
  if (
    typeof to !== "string" ||
    !PLAIN_PATH.test(to) ||
    to.includes("//") ||
    relative ||
    reloadDocument ||
    prefetch !== "none" ||
    "mask" in rest
  ) {
    return <Link {...props} />;
  }
  return (
    <a
      {...rest}
      href={to}
      target={target}
      data-discover={discover === "render" ? "true" : undefined}
    />
  );
}

/**
 * The shop's link: the router's `<Link>` in the browser (client-side navigation, as ever); on the
 * server, `ServerLink`, which writes the same markup for less work. Vite drops `ServerLink` from the
 * browser's scripts.
 */
export const ShopLink: typeof Link = import.meta.env.SSR
  ? (ServerLink as typeof Link)
  : Link;
