import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { useShopFetcher } from "./shop-form";
import { useT } from "~/lib/i18n";

/** A refused cart change: the message comes translated from the server. */
export interface CartActionError {
  error: { message: string };
}

/**
 * Adds one of a product to the cart. Without JavaScript it is a plain form (post, redirect back, the
 * toast as a flash message); with it, a fetcher: no reload, the header badge moves at once, the
 * server's toast follows.
 */
export function AddToCartButton({
  productId,
  soldOut,
  className = "",
  children,
}: {
  productId: number;
  soldOut: boolean;
  className?: string;
  /** more fields of the form: the product page's size choice (docs/decisions/121) */
  children?: React.ReactNode;
}) {
  const { t } = useT();
  const fetcher = useShopFetcher<CartActionError>();
  const busy = fetcher.state !== "idle";
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  const revalidator = useRevalidator();

  // Refused (e.g. sold out since the page was shown): refresh what the page shows about it.
  useEffect(() => {
    if (error) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [error]);

  return (
    <fetcher.Form
      method="post"
      action="/cart"
      preventScrollReset
      className={className}
      onSubmit={(event) => {
        // One add at a time: a double tap must not send two.
        if (busy) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      {children}
      <button
        type="submit"
        disabled={soldOut}
        aria-disabled={busy || undefined}
        className="cart-button"
      >
        {busy && (
          <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" className="animate-spin" fill="none" stroke="currentColor" strokeWidth="3">
            <path d="M12 3a9 9 0 1 0 9 9" strokeLinecap="round" />
          </svg>
        )}
        {busy ? t("common.product.adding") : soldOut ? t("common.product.soldOut") : t("common.product.addToCart")}
      </button>
      {error && (
        <p role="alert" className="mt-1 text-center text-xs font-medium text-red-700">
          {error.message}
        </p>
      )}
    </fetcher.Form>
  );
}
