import { createContext, useContext, useEffect, useRef } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { useKeptHtml } from "~/lib/fragments";
import { LOCALE_LABELS, LOCALES, useT } from "~/lib/i18n";
import { usePersonal } from "~/lib/personal";
import type { RootData } from "~/root";
import { useCartSummary } from "./cart-summary";
import { Drawer, DrawerButton } from "./drawer";
import { HeaderCart } from "./header-cart";
import { Icon } from "./icon";
import { SearchForm, useSearchedWords } from "./search-form";
import { isActivePath, ShopLink, ShopNavLink } from "~/components/shop-link";

const NAV_DRAWER = "nav-drawer";
const PAGES = [
  ["/", "home"],
  ["/shop", "shop"],
  ["/about", "about"],
  ["/faq", "faq"],
  ["/contact", "contact"],
] as const;
const ADMIN_PAGES = [
  ["/admin", "dashboard"],
  ["/admin/products", "products"],
  ["/admin/categories", "categories"],
  ["/admin/brands", "brands"],
] as const;

const NAV = [...PAGES.map(([to, key]) => ({ to, key, admin: false })), ...ADMIN_PAGES.map(([to, key]) => ({ to, key, admin: true }))];
/** Links active on their own page only, not on the pages under it. */
const NAV_ENDS = new Set(["/", "/admin"]);
const BAR_CLASS = "bar gap-3 py-3";
const NAV_CLASS = "border-y border-stone-200 max-lg:hidden";

function useRoot(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}

/** The address of the same page in `lng`: the language switch reloads it with ?lng= (the choice is then kept in a cookie). */
function languageHref(pathname: string, search: string, lng: string): string {
  const params = new URLSearchParams(search);
  params.set("lng", lng);
  return `${pathname}?${params}`;
}

/**
 * On the server, while the kept header is rendered: the marks its language links carry instead of the
 * page's own addresses, in the order of LOCALES (useKeptHtml's values). The browser's scripts have none.
 */
const LanguageMarks = /* @__PURE__ */ createContext<readonly string[] | null>(null);

function LanguageMenu() {
  const { t, locale } = useT();
  const { pathname, search } = useLocation();
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const marks = import.meta.env.SSR ? useContext(LanguageMarks) : null;
  const menu = useRef<HTMLDetailsElement>(null);
  // Like any menu: a click or tap elsewhere, or Escape, closes it.
  useEffect(() => {
    const close = (event: Event) => {
      const el = menu.current;
      if (!el?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !el.contains(event.target as Node)) el.open = false;
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={menu} className="menu">
      <summary className="top-link cursor-pointer">
        <span className="sr-only">{t("store.header.language")}: </span>
        {LOCALE_LABELS[locale]}
      </summary>
      <ul className="menu-list">
        {LOCALES.map((lng, i) => (
          <li key={lng}>
            <a href={marks ? marks[i] : languageHref(pathname, search, lng)} hrefLang={lng} lang={lng} aria-current={lng === locale ? "true" : undefined}>
              {LOCALE_LABELS[lng]}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * Sign in, or the shopper's name and Sign out. Both are always in the page and one is hidden: a cached
 * page becomes a shopper's by moving `hidden` and filling in the name (data-pp, docs/decisions/141).
 */
function UserArea() {
  const { t } = useT();
  const { user } = usePersonal();
  return (
    <>
      <span data-pp="guest" className="contents" hidden={user ? true : undefined}>
        <ShopLink to="/auth" className="top-link">
          <Icon name="user" size={16} />
          <span className="max-sm:sr-only">{t("store.header.signIn")}</span>
        </ShopLink>
      </span>
      <span data-pp="member" className="contents" hidden={user ? undefined : true}>
        <ShopLink to="/profile" className="top-link min-w-0">
          <Icon name="user" size={16} />
          <span className="sr-only">{t("store.header.profile")}: </span>
          <span data-pp="first-name" className="max-w-[6.5rem] truncate sm:max-w-[12rem]">
            {user?.firstName ?? ""}
          </span>
        </ShopLink>
        <form method="post" action="/auth/logout">
          <button type="submit" className="top-link">
            <Icon name="logout" size={16} className="sm:hidden" />
            <span className="max-sm:sr-only">{t("store.header.signOut")}</span>
          </button>
        </form>
      </span>
    </>
  );
}

/** Shop pages, then the admin pages for admins; the active one is highlighted. */
function NavLinks({ className }: { className: string }) {
  const { t } = useT();
  const admin = usePersonal().user?.role === "admin";
  return (
    <ul className={className}>
      {NAV.map(({ to, key, admin: forAdmins }) => (
        // Admin pages are listed for everyone and hidden but for admins (data-pp, docs/decisions/141).
        <li key={to} data-pp={forAdmins ? "admin" : undefined} hidden={forAdmins && !admin ? true : undefined}>
          <ShopNavLink to={to} end={NAV_ENDS.has(to)} className="nav-link">
            {t(`store.nav.${key}`)}
          </ShopNavLink>
        </li>
      ))}
    </ul>
  );
}

/** Which of the navigation's links are the current page's, and whether the admin's are shown: what the lists show. */
function useNavState(): string {
  const { pathname } = useLocation();
  const admin = usePersonal().user?.role === "admin";
  return `${NAV.map(({ to }) => (isActivePath(pathname, to, { end: NAV_ENDS.has(to) }) ? 1 : 0)).join("")}${admin ? "a" : ""}`;
}

/** Menu button, logo, search and cart. */
function HeaderBar() {
  const { t } = useT();
  return (
    <div className={BAR_CLASS}>
      <DrawerButton target={NAV_DRAWER} className="icon-btn lg:hidden">
        <Icon name="menu" size={24} />
        <span className="sr-only">{t("store.nav.open")}</span>
      </DrawerButton>
      <ShopLink to="/" className="logo">
        {t("common.brand.name")}
      </ShopLink>
      <SearchForm id="header-search" className="mx-auto w-full max-w-md max-md:hidden" />
      <div className="ml-auto md:ml-0">
        <HeaderCart />
      </div>
    </div>
  );
}

/** The navigation bar of wide screens. */
function HeaderNav() {
  const { t } = useT();
  return (
    <nav aria-label={t("store.nav.label")} className={NAV_CLASS}>
      <div className="bar gap-6">
        <ShopLink to="/shop" className="departments">
          <Icon name="grid" size={16} />
          {t("store.nav.allDepartments")}
        </ShopLink>
        <NavLinks className="flex flex-wrap gap-x-5" />
      </div>
    </nav>
  );
}

/** The menu of narrow screens: search and the navigation. */
function NavDrawer() {
  const { t } = useT();
  return (
    <Drawer id={NAV_DRAWER} title={t("store.nav.menu")}>
      <SearchForm id="drawer-search" />
      <nav aria-label={t("store.nav.label")}>
        <NavLinks className="flex flex-col" />
      </nav>
    </Drawer>
  );
}

/**
 * On the server, the header's HTML kept from an earlier page (docs/decisions/171, 198): it is the same
 * on most pages but for the page's address in the language links, which are filled in. The key names
 * everything else it shows besides the language (which the fragments add): the words searched for,
 * the cart, which navigation links are the current page's and whether the admin's are shown, the
 * shopper's name, and the shop's phone.
 */
function useKeptHeaderHtml(): string | null {
  const { pathname, search } = useLocation();
  const searched = useSearchedWords();
  const cart = useCartSummary();
  const navState = useNavState();
  const user = usePersonal().user;
  const phone = useRoot()?.shop.phone ?? null;
  const key = JSON.stringify(["header", searched, cart.lines, cart.total, navState, user ? user.firstName : null, phone]);
  const hrefs = LOCALES.map((lng) => languageHref(pathname, search, lng));
  return useKeptHtml(
    key,
    HEADER_OPENING,
    (marks) => (
      <LanguageMarks.Provider value={marks}>
        <StoreHeader />
      </LanguageMarks.Provider>
    ),
    hrefs,
  );
}

/** The opening tag React writes for the header (its class as written below, twice). */
const HEADER_OPENING = '<header class="bg-white">';

/** Top bar (phone, currency, language, account), main bar, navigation bar and menu drawer. */
export function StoreHeader() {
  const { t } = useT();
  const shop = useRoot()?.shop;
  // On the server only (a constant of the build), and last of the hooks (see useKeptHtml).
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const kept = import.meta.env.SSR ? useKeptHeaderHtml() : null;
  if (kept !== null) return <header className="bg-white" dangerouslySetInnerHTML={{ __html: kept }} />;
  return (
    <header className="bg-white">
      <div className="whitespace-nowrap bg-ink text-xs text-stone-200">
        <div className="bar justify-between gap-3">
          <a href={`tel:${shop?.phone.replace(/[^\d+]/g, "")}`} className="top-link">
            <Icon name="phone" size={14} />
            <span className="max-sm:sr-only">{t("store.header.callUs")}</span> <span className="max-sm:sr-only">{shop?.phone}</span>
          </a>
          <div className="flex min-w-0 items-center gap-2">
            <abbr title={t("store.header.currency")} className="no-underline">NGN</abbr>
            <LanguageMenu />
            <UserArea />
          </div>
        </div>
      </div>
      <HeaderBar />
      <HeaderNav />
      <NavDrawer />
    </header>
  );
}
