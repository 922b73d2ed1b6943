import { useT } from "~/lib/i18n";
import { Link } from "react-router";
import type { ProductCard as ProductCardData } from "~/domain/catalog.server";
import { responsiveImage } from "~/lib/images";
import { AddToCartButton } from "./add-to-cart-button";
import { Price } from "./price";
import { WishlistButton } from "./wishlist-button";

export function ProductCard({
  product,
  eager = false,
  inWishlist = false,
}: {
  product: ProductCardData;
  eager?: boolean;
  inWishlist?: boolean;
}) {
  const { t } = useT();
  const image = product.image ? responsiveImage(product.image) : null;
  const soldOut = product.stock <= 0;
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white">
      <div className="relative aspect-[4/5] bg-brand-50">
        {image && (
          <img
            src={image.src}
            srcSet={image.srcSet}
            sizes="(min-width: 1024px) 240px, (min-width: 640px) 33vw, 50vw"
            width={image.width}
            height={image.height}
            alt=""
            loading={eager ? "eager" : "lazy"}
            decoding="async"
            fetchPriority={eager ? "high" : undefined}
            className="h-full w-full object-cover"
          />
        )}
        <div className="absolute right-2 top-2 z-10">
          <WishlistButton productId={product.id} inWishlist={inWishlist} />
        </div>
        {soldOut && (
          <span className="absolute left-2 top-2 rounded-full bg-ink px-2.5 py-1 text-xs font-semibold uppercase tracking-wide text-white">
            {t("common.product.soldOut")}
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <p className="text-xs uppercase tracking-wide text-stone-500">{product.brandName}</p>
        <h3 className="text-sm font-medium leading-snug">
          <Link to={`/shop/${product.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {product.name}
          </Link>
        </h3>
        <Price price={product.price} discount={product.discount} className="mt-auto pt-1" />
        <AddToCartButton productId={product.id} soldOut={soldOut} className="relative z-10 mt-2" />
      </div>
    </article>
  );
}
