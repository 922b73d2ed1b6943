import { ShoppingBag } from "lucide-react";
import { Link } from "react-router";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { useCartSummary } from "./cart-summary";

/** The header's cart: icon with the count of distinct lines, and the cart total; both follow the cart. */
export function CartLink() {
  const { t } = useT();
  const cart = useCartSummary();
  const total = formatNaira(cart.total);
  return (
    <Link
      to="/cart"
      className="inline-flex min-h-11 items-center gap-2 rounded-full px-2 text-sm font-medium text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      aria-label={t("cart.header.summary", { count: cart.lines, total })}
    >
      <span className="relative">
        <ShoppingBag aria-hidden="true" size={22} />
        <span
          data-testid="cart-count"
          className="absolute -right-2 -top-2 grid h-5 min-w-5 place-items-center rounded-full bg-brand-600 px-1 text-[11px] font-semibold leading-none text-white"
        >
          {cart.lines}
        </span>
      </span>
      <span data-testid="cart-total">{total}</span>
    </Link>
  );
}
