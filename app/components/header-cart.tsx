import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { useCartSummary } from "./cart-summary";
import { Icon } from "./icon";
import { ShopLink } from "~/components/shop-link";

/**
 * The header's cart link: a badge with the number of distinct lines and the cart's real total. Both
 * follow the cart on every page, and move at once while a cart change is on its way.
 *
 * Its accessible name is built from its own text ("Cart: 2 items, ₦5,000.00"), with the words a
 * sighted shopper does not need kept for screen readers only, so the name always contains what is
 * shown (WCAG 2.5.3, label in name) and speech users can say what they see.
 */
export function HeaderCart() {
  const { t } = useT();
  const cart = useCartSummary();
  const total = formatNaira(cart.total);
  return (
    <ShopLink to="/cart" className="cart-link">
      <span className="relative">
        <Icon name="cart" size={24} />
        <span className="sr-only">{t("store.header.cartLabel")} </span>
        <span data-testid="cart-count" className="cart-badge">
          {cart.lines}
        </span>
        <span className="sr-only">{` ${t("store.header.cartItems", { count: cart.lines })} `}</span>
      </span>
      <span data-testid="cart-total" className="text-sm font-semibold max-sm:sr-only">
        {total}
      </span>
    </ShopLink>
  );
}
