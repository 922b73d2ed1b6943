import type { ProductCard as ProductCardData } from "~/domain/catalogue/catalog.server";
import { useT } from "~/lib/i18n";
import { responsiveImage } from "~/lib/images";
import { AddToCartButton } from "./add-to-cart-button";
import { Price } from "./price";
import { Stars } from "./stars";
import { WishlistButton } from "./wishlist-button";
import { ShopLink } from "~/components/shop-link";

interface ProductCardProps {
  product: ProductCardData;
  /** load at once (above the fold) */
  eager?: boolean;
  /** fetch before other pictures (the first ones seen) */
  priority?: boolean;
  sizes?: string;
}

/**
 * A product in a grid or carousel: picture, brand, name (the link to the product page), price pair,
 * Add to Cart and the wishlist heart. The whole card is clickable; the two controls sit above it.
 */
export function ProductCard({
  product,
  eager = false,
  priority = false,
  sizes = "(min-width: 1024px) 240px, (min-width: 640px) 33vw, 50vw",
}: ProductCardProps) {
  const { t } = useT();
  const image = product.image ? responsiveImage(product.image) : null;
  const soldOut = product.soldOut === 1;
  return (
    <article className="card">
      <div className="relative aspect-[4/5] bg-brand-50">
        {image && (
          <img
            src={image.src}
            srcSet={image.srcSet}
            sizes={sizes}
            width={image.width}
            height={image.height}
            alt=""
            loading={eager ? "eager" : "lazy"}
            decoding="async"
            fetchPriority={priority ? "high" : undefined}
            className="h-full w-full object-cover"
          />
        )}
        {soldOut && <span className="badge absolute left-2 top-2">{t("common.product.soldOut")}</span>}
        <div className="absolute right-1 top-1 z-10">
          <WishlistButton productId={product.id} />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <p className="text-xs uppercase tracking-wide text-stone-600">{product.brandName}</p>
        <h3 className="text-sm font-medium leading-snug">
          <ShopLink to={`/shop/${product.id}`} className="card-link">
            {product.name}
          </ShopLink>
        </h3>
        {product.reviewCount > 0 && (
          <p className="flex items-center gap-1 text-xs text-stone-600">
            <Stars rating={product.ratingTotal / product.reviewCount} />
            <span aria-hidden="true">({product.reviewCount})</span>
          </p>
        )}
        <Price {...product} from={product.priceMax > product.price} className="mt-auto pt-1" />
        <AddToCartButton productId={product.id} soldOut={soldOut} className="relative z-10 mt-2" />
      </div>
    </article>
  );
}
