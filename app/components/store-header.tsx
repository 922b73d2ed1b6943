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

function useRoot(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}

/** The language switch reloads the same page with ?lng= (the choice is then kept in a cookie). */
function LanguageMenu() {
  const { t, locale } = useT();
  const { pathname, search } = useLocation();
  const hrefFor = (lng: string) => {
    const params = new URLSearchParams(search);
    params.set("lng", lng);
    return `${pathname}?${params}`;
  };
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
            <a href={hrefFor(lng)} hrefLang={lng} lang={lng} aria-current={lng === locale ? "true" : undefined}>
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
          <ShopNavLink to={to} end={to === "/" || to === "/admin"} className="nav-link">
            {t(`store.nav.${key}`)}
          </ShopNavLink>
        </li>
      ))}
    </ul>
  );
}

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
      <div className="bar gap-3 py-3">
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
      <nav aria-label={t("store.nav.label")} className="border-y border-stone-200 max-lg:hidden">
        <div className="bar gap-6">
          <ShopLink to="/shop" className="departments">
            <Icon name="grid" size={16} />
            {t("store.nav.allDepartments")}
          </ShopLink>
          <NavLinks className="flex flex-wrap gap-x-5" />
        </div>
      </nav>
      <Drawer id={NAV_DRAWER} title={t("store.nav.menu")}>
        <SearchForm id="drawer-search" />
        <nav aria-label={t("store.nav.label")}>
          <NavLinks className="flex flex-col" />
        </nav>
      </Drawer>
    </header>
  );
}
