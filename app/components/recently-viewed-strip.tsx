import { useId } from "react";
import type { ProductCard } from "~/domain/catalogue/catalog.server";
import { useT } from "~/lib/i18n";
import { imageVariantUrl } from "~/lib/images";
import { formatNaira } from "~/lib/money";
import { ShopLink } from "~/components/shop-link";

/** The cart's "Recently viewed" (docs/decisions/126): small links to the perfumes, rendered by the server. */
export function RecentStrip({ title, products }: { title: string; products: Pick<ProductCard, "id" | "name" | "brandName" | "price" | "priceMax" | "soldOut" | "image">[] }) {
  const { t } = useT();
  const id = useId();
  if (!products.length) return null;
  return (
    <section aria-labelledby={id} className="mt-12">
      <h2 id={id} className="section-title mb-4">
        {title}
      </h2>
      <ul className="flex gap-3 overflow-x-auto pb-2">
        {products.map((product) => (
          <li key={product.id} className="card w-32 shrink-0">
            <div className="aspect-[4/5] bg-brand-50">
              {product.image && <img src={imageVariantUrl(product.image, 320)} alt="" width={128} height={160} loading="lazy" decoding="async" className="h-full w-full object-cover" />}
            </div>
            <div className="p-2 text-xs">
              <p className="uppercase tracking-wide text-stone-600">{product.brandName}</p>
              <ShopLink to={`/shop/${product.id}`} className="card-link text-sm font-medium">
                {product.name}
              </ShopLink>
              <p className="font-semibold">{product.soldOut === 1
                  ? t("common.product.soldOut")
                  : product.priceMax > product.price
                    ? t("common.product.fromPrice", { price: formatNaira(product.price) })
                    : formatNaira(product.price)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
