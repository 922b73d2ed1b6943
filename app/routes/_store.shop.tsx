import { Drawer, DrawerButton } from "~/components/drawer";
import { Icon } from "~/components/icon";
import { Pagination } from "~/components/pagination";
import { ProductCard } from "~/components/product-card";
import { ShopFilters } from "~/components/shop-filters";
import { ShopSortForm } from "~/components/shop-sort";
import { shopListing } from "~/domain/catalogue/catalog.server";
import { fill, pageContent } from "~/http/content.server";
import { requireTextQuery } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { ensureMessages } from "~/lib/i18n.client";
import { seoMeta } from "~/http/seo.server";
import { SHOP_PAGE_SIZE, shopHref } from "~/lib/shop-url";
import type { Route } from "./+types/_store.shop";
import { ShopLink } from "~/components/shop-link";

const FILTERS_DRAWER = "filters-drawer";

export async function loader({ request, context }: Route.LoaderArgs) {
  // The search box is a form too: a control character in it is a 400, never handed to the database.
  requireTextQuery(request);
  const { locale, content } = pageContent(request);
  const listing = await shopListing(context.db, new URL(request.url).searchParams, locale);
  const { filters } = listing;
  const text = content.meta.shop;
  const title = filters.q ? fill(text.titleSearch, { q: filters.q }) : filters.page > 1 ? fill(text.titlePage, { page: filters.page }) : text.title;
  return {
    ...listing,
    meta: seoMeta(context, locale, shopHref(filters, { q: "", sort: null, page: filters.page }), { title, description: text.description }),
  };
}

// An anonymous visitor's page may be kept by nginx or a CDN (docs/decisions/216).
export const handle = { sharedCache: true };

export const meta = ({ data }: Route.MetaArgs) => data?.meta ?? [];

/** Reached by in-app navigation: the listing's texts are loaded with the page's data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("catalogue")]);
  return data;
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const { products, total, page, pageCount, filters, categories, brands, facets } = loaderData;
  const first = (page - 1) * SHOP_PAGE_SIZE + 1;
  const filterProps = { filters, categories, brands, facets };
  return (
    <div className="lg:grid lg:grid-cols-[15rem_1fr] lg:gap-8">
      <aside aria-label={t("catalogue.filters.title")} className="max-lg:hidden">
        <ShopFilters {...filterProps} step={1} idPrefix="side" />
      </aside>
      <div>
        <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 className="font-serif text-3xl font-semibold">{t("catalogue.shop.title")}</h1>
            <p className="mt-1 text-sm text-stone-600" role="status">
              {total === 0 ? t("catalogue.shop.none") : t("catalogue.shop.showing", { from: first, to: first + products.length - 1, count: total })}
              {filters.q && (
                <>
                    {" · "}
                    {t("catalogue.shop.searchFor", { q: filters.q })}{" "}
                    <ShopLink to={shopHref(filters, { q: "" })} className="underline">
                      {t("catalogue.shop.clearSearch")}
                    </ShopLink>
                </>
              )}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <ShopSortForm filters={filters} />
            <DrawerButton target={FILTERS_DRAWER} className="btn-outline lg:hidden">
              <Icon name="filter" size={18} />
              {t("catalogue.filters.open")}
            </DrawerButton>
          </div>
        </div>
        {products.length === 0 ? (
          <div className="rounded-2xl bg-white p-10 text-center">
            <p className="text-lg font-medium">{t("catalogue.shop.emptyTitle")}</p>
            <p className="mt-1 text-stone-600">{t("catalogue.shop.emptyText")}</p>
            <ShopLink to="/shop" className="btn mt-5">
              {t("catalogue.shop.resetAll")}
            </ShopLink>
          </div>
        ) : (
          <>
            <h2 className="sr-only">{t("catalogue.shop.listHeading")}</h2>
            <ul className="product-grid fade-in" key={shopHref(filters)}>
              {products.map((product, i) => (
                <li key={product.id}>
                  <ProductCard product={product} eager={i < 4} priority={i < 2} sizes="(min-width: 1280px) 210px, (min-width: 1024px) 23vw, (min-width: 640px) 31vw, calc(50vw - 24px)" />
                </li>
              ))}
            </ul>
          </>
        )}
        <Pagination page={page} pageCount={pageCount} href={(p) => shopHref(filters, { page: p })} />
      </div>
      <Drawer id={FILTERS_DRAWER} title={t("catalogue.filters.title")}>
        <ShopFilters {...filterProps} step={10} idPrefix="drawer" inDrawer />
      </Drawer>
    </div>
  );
}
