import { useEffect, useState } from "react";
import type { ProductCard } from "~/domain/catalogue/catalog.server";
import { rememberView, RECENT_SHOWN } from "~/lib/recently-viewed";
import { ProductCarousel } from "./carousel";

/** The row's title id: the same whether the row is rendered with the page or on its own. */
export const RECENT_HEADING_ID = "recently-viewed-title";

/**
 * "Recently viewed" on the product page (docs/decisions/126), a row of cards like "Related Items". A
 * signed-in shopper's perfumes come with the page (`products`), rendered by the server, without
 * JavaScript too. For a visitor `products` is null: the page may come from a shared cache (nginx, a
 * CDN), so their browser records the view in its own cookie and fetches the row from
 * /api/products/cards. Without JavaScript a visitor sees no row.
 */
export function RecentlyViewed({ title, products, productId }: { title: string; products: ProductCard[] | null; productId: number }) {
  const [fetched, setFetched] = useState<{ on: number; products: ProductCard[] }>();
  const visitor = !products;
  useEffect(() => {
    if (!visitor) return;
    const ids = rememberView(productId).slice(0, RECENT_SHOWN);
    // An answer for an earlier page is not shown (`on`); a refusal has no products.
    if (ids.length)
      fetch(`/api/products/cards?ids=${ids.join()}`)
        .then((response) => response.json())
        .then((answer: { products?: ProductCard[] }) => answer.products && setFetched({ on: productId, products: answer.products }))
        .catch(() => {});
  }, [visitor, productId]);
  return (
    <div>
      <ProductCarousel title={title} products={products ?? (fetched?.on === productId ? fetched.products : [])} headingId={RECENT_HEADING_ID} />
    </div>
  );
}
