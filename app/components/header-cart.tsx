import { Link, useRouteLoaderData } from "react-router";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import type { RootData } from "~/root";
import { Icon } from "./icon";

/** The header's cart link: a badge with the number of distinct lines and the cart's real total. */
export function HeaderCart() {
  const { t } = useT();
  const cart = (useRouteLoaderData("root") as RootData | undefined)?.cart ?? { lines: 0, total: 0 };
  const total = formatNaira(cart.total);
  return (
    <Link to="/cart" className="cart-link" aria-label={t("store.header.cart", { count: cart.lines, total })}>
      <span className="relative">
        <Icon name="cart" size={24} />
        <span data-cart-count className="cart-badge">
          {cart.lines}
        </span>
      </span>
      <span data-cart-total className="hidden text-sm font-semibold sm:inline">
        {total}
      </span>
    </Link>
  );
}
