import { ProductCarousel } from "~/components/carousel";
import { HeroCarousel } from "~/components/hero-carousel";
import { Icon } from "~/components/icon";
import { homeCarousels } from "~/domain/catalogue/catalog.server";
import { pageContent } from "~/http/content.server";
import { useT } from "~/lib/i18n";
import { ensureMessages } from "~/lib/i18n.client";
import { seoMeta } from "~/http/seo.server";
import type { Route } from "./+types/_store.home";
import { ShopLink } from "~/components/shop-link";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale, content } = pageContent(request);
  const { newest, mens, womens } = await homeCarousels(context.db);
  const home = content.home;
  const pictures = [mens[0]?.image ?? newest[0]?.image ?? null, womens[0]?.image ?? newest[1]?.image ?? null];
  return {
    newest,
    mens,
    womens,
    hero: home.hero.map((slide, i) => ({ ...slide, image: pictures[i] ?? null })),
    promises: home.promises,
    deals: home.bestDeals,
    heading: home.heading,
    meta: seoMeta(context, locale, "/", content.meta.home),
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

const PROMISE_ICONS = ["truck", "clock", "chat"] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const { hero, promises, deals } = loaderData;
  return (
    <>
      <h1 className="sr-only">{loaderData.heading}</h1>
      <HeroCarousel slides={hero} />
      <ProductCarousel title={t("catalogue.home.newArrivals")} products={loaderData.newest} />
      <ul className="mt-12 grid gap-4 rounded-2xl bg-white p-6 sm:grid-cols-3">
        {promises.map((promise, i) => (
          <li key={promise.title} className="flex items-center gap-4">
            <span className="promise-icon">
              <Icon name={PROMISE_ICONS[i]} size={24} />
            </span>
            <span>
              <strong className="block text-sm tracking-wide">{promise.title}</strong>
              <span className="text-sm text-stone-600">{promise.text}</span>
            </span>
          </li>
        ))}
      </ul>
      <section aria-labelledby="best-deals" className="mt-12 rounded-2xl bg-ink px-6 py-10 text-center text-white">
        <h2 id="best-deals" className="font-serif text-3xl font-semibold tracking-wide">
          {deals.title}
        </h2>
        <p className="mx-auto mt-2 max-w-lg text-stone-300">{deals.text}</p>
        <ShopLink to="/shop" className="btn mt-5 bg-white text-ink hover:bg-brand-100">
          {t("store.shopNow")}
        </ShopLink>
      </section>
      <ProductCarousel title={t("catalogue.home.mens")} products={loaderData.mens} />
      <ProductCarousel title={t("catalogue.home.womens")} products={loaderData.womens} backward />
    </>
  );
}
