import { useT } from "~/lib/i18n";
import { usePersonal } from "~/lib/personal";
import { useShopFetcher } from "./shop-form";

/**
 * The heart on product cards and the product page: toggles the product in the signed-in shopper's
 * wishlist (anonymous shoppers are sent to sign in and back). A plain form without JavaScript; with it,
 * a fetcher that shows the new state at once.
 */
export function WishlistButton({ productId }: { productId: number }) {
  const { t } = useT();
  const inWishlist = usePersonal().wishlist.includes(productId);
  const fetcher = useShopFetcher();
  const pressed = fetcher.formData ? !inWishlist : inWishlist;
  const label = pressed ? t("common.product.removeFromWishlist") : t("common.product.addToWishlist");
  return (
    <fetcher.Form method="post" action="/wishlist" preventScrollReset>
      <input type="hidden" name="productId" value={productId} />
      <button
        type="submit"
       
        aria-label={label}
        aria-pressed={pressed}
        title={label}
        className="heart-button"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill={pressed ? "currentColor" : "none"} stroke="currentColor" strokeWidth="2">
          <path d="M12 21s-7.5-4.6-9.5-9.1C1.1 8.6 3.2 5 6.7 5c2.1 0 3.6 1.2 4.3 2.6h2C13.7 6.2 15.2 5 17.3 5c3.5 0 5.6 3.6 4.2 6.9C19.5 16.4 12 21 12 21z" />
        </svg>
      </button>
    </fetcher.Form>
  );
}
