import type { ProductCard as ProductCardData } from "~/domain/catalogue/catalog.server";
import { ProductCard } from "~/components/product-card";
import { useT } from "~/lib/i18n";

/** The profile's favourites tab: the shopper's wishlist as product cards. */
export default function Favourites({ products, emptyText }: { products: ProductCardData[]; emptyText: string }) {
  const { t } = useT();
  return (
    <section aria-labelledby="wishlist-heading">
      <h2 id="wishlist-heading" className="font-serif text-xl font-semibold">
        {t("account.wishlist.title")}
      </h2>
      {products.length === 0 ? (
        <p className="mt-3 text-stone-600">{emptyText}</p>
      ) : (
        <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
