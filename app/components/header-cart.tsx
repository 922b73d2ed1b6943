import { Link } from "react-router";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { useCartSummary } from "./cart-summary";
import { Icon } from "./icon";

/**
 * The header's cart link: a badge with the number of distinct lines and the cart's real total. Both
 * follow the cart on every page, and move at once while a cart change is on its way.
 */
export function HeaderCart() {
  const { t } = useT();
  const cart = useCartSummary();
  const total = formatNaira(cart.total);
  return (
    <Link to="/cart" className="cart-link" aria-label={t("store.header.cart", { count: cart.lines, total })}>
      <span className="relative">
        <Icon name="cart" size={24} />
        <span data-testid="cart-count" className="cart-badge">
          {cart.lines}
        </span>
      </span>
      <span data-testid="cart-total" className="hidden text-sm font-semibold sm:inline">
        {total}
      </span>
    </Link>
  );
}
