import { imageVariantUrl } from "~/lib/images";
import type { ProductDetail } from "./catalog.server";
import type { GalleryPhoto } from "./product-photos.server";
import type { ReviewPage } from "./reviews.server";

/**
 * A product page's schema.org description for search engines: the product, its photos, its rating
 * with the first reviews, and its offer (one per size, with their range, when it comes in several;
 * docs/decisions/121). Prices in naira with two decimals.
 */
export function productJsonLd(
  product: ProductDetail,
  photos: GalleryPhoto[],
  reviews: Pick<ReviewPage, "average" | "count" | "reviews">,
  absolute: (path: string) => string,
  path: string,
): Record<string, unknown> {
  return {
      "@context": "https://schema.org",
      "@type": "Product",
      name: product.name,
      description: product.description,
      sku: String(product.id),
      category: product.categoryName,
      brand: { "@type": "Brand", name: product.brandName },
      ...(photos.length ? { image: photos.map((p) => absolute(imageVariantUrl(p.key, 1024))) } : {}),
      ...(reviews.average !== null
        ? {
            aggregateRating: { "@type": "AggregateRating", ratingValue: reviews.average, reviewCount: reviews.count, bestRating: 5, worstRating: 1 },
            review: reviews.reviews.slice(0, 5).map((r) => ({
              "@type": "Review",
              reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5 },
              author: { "@type": "Person", name: r.author },
              datePublished: r.createdAt.slice(0, 10),
              reviewBody: r.body,
            })),
          }
        : {}),
      offers:
        product.sizes.length > 1
          ? {
              // Several sizes (docs/decisions/121): one offer per size, and their range.
              "@type": "AggregateOffer",
              priceCurrency: "NGN",
              lowPrice: (product.price / 100).toFixed(2),
              highPrice: (product.priceMax / 100).toFixed(2),
              offerCount: product.sizes.length,
              offers: product.sizes.map((s) => ({
                "@type": "Offer",
                name: s.label,
                ...(s.sku ? { sku: s.sku } : {}),
                url: absolute(path),
                priceCurrency: "NGN",
                price: (s.price / 100).toFixed(2),
                availability: s.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
                itemCondition: "https://schema.org/NewCondition",
              })),
            }
          : {
              "@type": "Offer",
              url: absolute(path),
              priceCurrency: "NGN",
              price: (product.price / 100).toFixed(2),
              availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
              itemCondition: "https://schema.org/NewCondition",
            },
  };
}
