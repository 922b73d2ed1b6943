import { useEffect, useRef } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { LOCALE_LABELS, LOCALES, useT } from "~/lib/i18n";
import { usePersonal } from "~/lib/personal";
import type { RootData } from "~/root";
import { Drawer, DrawerButton } from "./drawer";
import { HeaderCart } from "./header-cart";
import { Icon } from "./icon";
import { SearchForm } from "./search-form";
import { ShopLink, ShopNavLink } from "~/components/shop-link";

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

function LanguageMenu() {
  const { t, locale } = useT();
  const { pathname, search } = useLocation();
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
        {LOCALES.map((lng) => (
          <li key={lng}>
            <a href={languageHref(pathname, search, lng)} hrefLang={lng} lang={lng} aria-current={lng === locale ? "true" : undefined}>
              {LOCALE_LABELS[lng]}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Sign in, or the shopper's name and Sign out. */
function UserArea() {
  const { t } = useT();
  const { user } = usePersonal();
  if (!user)
    return (
      <ShopLink to="/auth" className="top-link">
        <Icon name="user" size={16} />
        <span className="max-sm:sr-only">{t("store.header.signIn")}</span>
      </ShopLink>
    );
  return (
    <>
      <ShopLink to="/profile" className="top-link min-w-0">
        <Icon name="user" size={16} />
        <span className="sr-only">{t("store.header.profile")}: </span>
        <span className="max-w-[6.5rem] truncate sm:max-w-[12rem]">{user.firstName}</span>
      </ShopLink>
      <form method="post" action="/auth/logout">
        <button type="submit" className="top-link">
          <Icon name="logout" size={16} className="sm:hidden" />
          <span className="max-sm:sr-only">{t("store.header.signOut")}</span>
        </button>
      </form>
    </>
  );
}

/** Shop pages, then the admin pages for admins; the active one is highlighted. */
function NavLinks({ className }: { className: string }) {
  const { t } = useT();
  const role = usePersonal().user?.role;
  const admin = !!role && role !== "customer";
  return (
    <ul className={className}>
      {NAV.filter((link) => admin || !link.admin).map(({ to, key }) => (
        <li key={to}>
          <ShopNavLink to={to} end={NAV_ENDS.has(to)} className="nav-link">
            {t(`store.nav.${key}`)}
          </ShopNavLink>
        </li>
      ))}
    </ul>
  );
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

/** Top bar (phone, currency, language, account), main bar, navigation bar and menu drawer. */
export function StoreHeader() {
  const { t } = useT();
  const shop = useRoot()?.shop;
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
