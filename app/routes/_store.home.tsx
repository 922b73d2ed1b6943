import { useT } from "~/lib/i18n";
import { ProductCard } from "~/components/product-card";
import { newestProducts } from "~/domain/catalog.server";
import { wishlistedForRequest } from "~/domain/wishlist.server";
import { requestTranslator } from "~/lib/i18n.server";
import type { Route } from "./+types/_store.home";

const NEWEST_ON_HOME = 8;

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = requestTranslator(request);
  const products = await newestProducts(context.db, NEWEST_ON_HOME);
  return {
    products,
    wishlisted: await wishlistedForRequest(request, context.db, products.map((p) => p.id)),
    meta: { title: t("common.meta.title"), description: t("common.meta.description") },
  };
}

export function meta({ data }: Route.MetaArgs) {
  return data ? [{ title: data.meta.title }, { name: "description", content: data.meta.description }] : [];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <section aria-labelledby="newest-heading">
      <h1 id="newest-heading" className="font-serif text-3xl font-semibold">
        {t("common.home.heading")}
      </h1>
      <p className="mt-2 text-stone-600">{t("common.home.intro")}</p>
      <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
        {loaderData.products.map((product, i) => (
          <li key={product.id}>
            <ProductCard product={product} eager={i < 2} inWishlist={loaderData.wishlisted.includes(product.id)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
