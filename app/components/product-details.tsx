import { useState } from "react";
import { BackInStockForm, type BackInStockState } from "~/components/back-in-stock-form";
import { ProductReviews, type ShownReviewPage } from "~/components/product-reviews";
import { RecentlyViewed } from "~/components/recently-viewed";
import { AddToCartButton } from "~/components/add-to-cart-button";
import { ProductCarousel } from "~/components/carousel";
import { Icon } from "~/components/icon";
import { Price } from "~/components/price";
import { ProductGallery } from "~/components/product-gallery";
import { WishlistButton } from "~/components/wishlist-button";
import type { ProductCard, ProductDetail } from "~/domain/catalogue/catalog.server";
import type { GalleryPhoto } from "~/domain/catalogue/product-photos.server";
import { useT } from "~/lib/i18n";
import { parseProductPersonal } from "~/lib/personal";

export interface ProductDetailsData {
  product: ProductDetail;
  photos: GalleryPhoto[];
  related: ProductCard[];
  together: ProductCard[];
  backInStock: BackInStockState | null;
  reviews: ShownReviewPage;
  reviewPath: string;
  /** the shopper's own parts of the page (JSON), read after the shared ones */
  personal: string;
  /** the shop's delivery and service promises, written by the loader (the page's script carries no words of them) */
  promises: { delivery: { title: string; text: string }; service: { title: string; text: string } };
}

/** What a refused back-in-stock request or review answers. */
export interface ProductAnswer {
  error: string | null;
  reviewErrors: Record<string, string>;
}

/** A product's page: its gallery, details, sizes and buttons; its reviews; the rows of other products. */
export function ProductDetails({ loaderData, actionData }: { loaderData: ProductDetailsData; actionData?: ProductAnswer }) {
  const { t } = useT();
  const { product, related } = loaderData;
  const mine = parseProductPersonal(loaderData.personal);
  // The size chosen (docs/decisions/121): the first one in stock, as the server would pick; without
  // JavaScript the radios alone carry the choice, with it the price and "Sold out" follow it.
  const [sizeId, setSizeId] = useState(() => (product.sizes.find((s) => s.stock > 0) ?? product.sizes[0]).id);
  const size = product.sizes.find((s) => s.id === sizeId) ?? product.sizes[0];
  const soldOut = size.stock <= 0;
  return (
    <>
      <article className="grid gap-6 md:grid-cols-2 md:gap-10">
        <ProductGallery
          photos={loaderData.photos}
          name={product.name}
          badge={soldOut && <span className="badge absolute left-3 top-3">{t("common.product.soldOut")}</span>}
        />
        <div className="flex flex-col gap-4">
          <p className="text-sm uppercase tracking-widest text-stone-600">{product.brandName}</p>
          <h1 className="font-serif text-3xl font-semibold leading-tight">{product.name}</h1>
          <Price {...size} className="text-xl" />
          {(product.concentration || product.family) && (
            <p className="text-sm text-stone-700">
              {[product.concentration && t(`store.facts.concentration.${product.concentration}`), product.family && t(`store.facts.family.${product.family}`)].filter(Boolean).join(" · ")}
            </p>
          )}
          <p className="leading-relaxed text-stone-700">{product.description}</p>
          <div className="flex items-center gap-3">
            <AddToCartButton productId={product.id} soldOut={soldOut} className="max-w-xs flex-1">
              {/* One size: nothing to choose, the server takes it. */}
              {product.sizes.length > 1 && (
                <fieldset className="size-choices">
                  <legend>{t("product.details.size")}</legend>
                  {product.sizes.map((s) => (
                    <label key={s.id} className="size-choice">
                      <input type="radio" name="sizeId" value={s.id} checked={s.id === size.id} disabled={s.stock <= 0} onChange={() => setSizeId(s.id)} className="sr-only" />
                      {s.label}
                      {s.stock <= 0 && <small>{t("common.product.soldOut")}</small>}
                    </label>
                  ))}
                </fieldset>
              )}
            </AddToCartButton>
            <WishlistButton productId={product.id} />
          </div>
          {loaderData.backInStock && <BackInStockForm state={loaderData.backInStock} waited={mine.waited} error={actionData?.error ?? null} />}
          <ul className="mt-2 grid gap-3 sm:grid-cols-2">
            <li className="info-box">
              <Icon name="truck" size={28} className="text-brand-600" />
              <span>
                <strong className="block">{loaderData.promises.delivery.title}</strong>
                <span className="text-sm text-stone-600">{loaderData.promises.delivery.text}</span>
              </span>
            </li>
            <li className="info-box">
              <Icon name="clock" size={28} className="text-brand-600" />
              <span>
                <strong className="block">{loaderData.promises.service.title}</strong>
                <span className="text-sm text-stone-600">{loaderData.promises.service.text}</span>
              </span>
            </li>
          </ul>
        </div>
      </article>
      <ProductReviews page={loaderData.reviews} form={{ eligibility: mine.review, path: loaderData.reviewPath }} errors={actionData?.reviewErrors ?? {}} />
      <ProductCarousel title={t("product.boughtTogether")} products={loaderData.together} />
      <ProductCarousel title={t("product.details.related")} products={related} />
      <RecentlyViewed title={t("product.recent")} products={mine.recent} productId={product.id} />
    </>
  );
}
