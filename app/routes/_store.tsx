import { useT } from "~/lib/i18n";
import { isRouteErrorResponse, Link, NavLink, Outlet, useRouteError, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { CartLink } from "~/components/cart-link";

/** The storefront frame: header, content, footer. The full layout grows with the storefront. */
function StoreFrame({ children }: { children: React.ReactNode }) {
  const { t } = useT();
  const user = useRouteLoaderData<typeof rootLoader>("root")?.user;
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-4">
          <Link to="/" className="font-serif text-2xl font-semibold tracking-tight">
            {t("common.brand.name")}
          </Link>
          <nav aria-label="Main">
            <NavLink to="/" end className={({ isActive }) => (isActive ? "font-semibold text-brand-700" : "text-stone-700")}>
              Home
            </NavLink>
          </nav>
          {user ? (
            <form method="post" action="/auth/logout">
              <button type="submit" className="min-h-11 rounded-full px-3 text-sm font-medium text-stone-700 hover:text-ink">
                {t("auth.header.signOut")}
              </button>
            </form>
          ) : (
            <Link to="/auth" className="inline-flex min-h-11 items-center rounded-full px-3 text-sm font-medium text-stone-700 hover:text-ink">
              {t("auth.header.signIn")}
            </Link>
          )}
          <CartLink />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="border-t border-stone-200 bg-ink py-8 text-sm text-stone-300">
        <div className="mx-auto max-w-6xl px-4">
          <p className="font-serif text-lg text-white">{t("common.brand.tagline")}</p>
          <p className="mt-2">© {new Date().getFullYear()} {t("common.brand.name")}</p>
        </div>
      </footer>
    </div>
  );
}

export default function StoreLayout() {
  return (
    <StoreFrame>
      <Outlet />
    </StoreFrame>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useT();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <StoreFrame>
      <div className="mx-auto max-w-xl py-16 text-center">
        <h1 className="font-serif text-3xl font-semibold">{notFound ? t("common.notFound.title") : t("common.error.title")}</h1>
        <p className="mt-3 text-stone-600">{notFound ? t("common.notFound.body") : t("common.error.body")}</p>
        <Link className="mt-6 inline-block rounded-full bg-ink px-5 py-2.5 text-white" to="/">
          {t("common.notFound.backHome")}
        </Link>
      </div>
    </StoreFrame>
  );
}
