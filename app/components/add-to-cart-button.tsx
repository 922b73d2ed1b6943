import { useT } from "~/lib/i18n";

/** Adds one of a product to the cart; a plain form, so it works without JavaScript. */
export function AddToCartButton({ productId, soldOut, className = "" }: { productId: number; soldOut: boolean; className?: string }) {
  const { t } = useT();
  return (
    <form method="post" action="/cart" className={className}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <button
        type="submit"
        disabled={soldOut}
        className="w-full rounded-full bg-ink px-4 py-2 text-sm font-medium text-white hover:bg-stone-700 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-600"
      >
        {soldOut ? t("common.product.soldOut") : t("common.product.addToCart")}
      </button>
    </form>
  );
}
