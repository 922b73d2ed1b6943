import { isRouteErrorResponse, Outlet, useRouteError } from "react-router";
import { StoreFooter } from "~/components/store-footer";
import { StoreHeader } from "~/components/store-header";
import { useT } from "~/lib/i18n";
import { refusalMessage } from "~/lib/refusal";
import { ShopLink } from "~/components/shop-link";

/** The storefront frame: header (top bar, main bar, nav or drawer), content, footer. */
function StoreFrame({ children }: { children: React.ReactNode }) {
  const { t } = useT();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="skip-link">
        {t("store.skipToContent")}
      </a>
      <StoreHeader />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        {children}
      </main>
      <StoreFooter />
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
  // A refused request (4xx) is the visitor's mistake, not ours: only failures are logged.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  const title = notFound ? t("common.notFound.title") : t("common.error.title");
  // A refused request (a body that is not a form, or too large) says why, in the shopper's language.
  const refusal = refusalMessage(error);
  return (
    <StoreFrame>
      <title>{`${title} | ${t("common.brand.name")}`}</title>
      <div className="mx-auto max-w-xl py-16 text-center">
        <h1 className="font-serif text-3xl font-semibold">{title}</h1>
        <p className="mt-3 text-stone-600">{notFound ? t("common.notFound.body") : (refusal ?? t("common.error.body"))}</p>
        <ShopLink className="btn mt-6" to="/">
          {t("common.notFound.backHome")}
        </ShopLink>
      </div>
    </StoreFrame>
  );
}
