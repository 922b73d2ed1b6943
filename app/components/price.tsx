import { useT } from "~/lib/i18n";
import { formatLagosTime } from "~/lib/dates";
import { formatNaira } from "~/lib/money";

/**
 * The price pair shown on cards and the product page: the price, and the struck-through original when
 * discounted. `from`: the product comes in sizes at different prices and this is the cheapest.
 */
export function Price({ price, discount, from = false, className = "" }: { price: number; discount: number | null; from?: boolean; className?: string }) {
  const { t } = useT();
  const original = discount && discount > 0 ? price + discount : null;
  return (
    <p className={`flex flex-wrap items-baseline gap-x-2 ${className}`}>
      <span className="font-semibold text-ink">{from ? t("common.product.fromPrice", { price: formatNaira(price) }) : formatNaira(price)}</span>
      {original !== null && (
        <s className="text-sm text-stone-600">
          <span className="sr-only">{t("common.product.originalPrice")} </span>
          {formatNaira(original)}
        </s>
      )}
    </p>
  );
}

/** "Sale ends 7 Dec 2026, 23:59" (Lagos time) under a price an automatic sale set (docs/decisions/225). */
export function SaleEnds({ endsAt, className = "" }: { endsAt: string; className?: string }) {
  const { t, locale } = useT();
  return (
    <p className={`text-xs font-medium text-rose-700 ${className}`} data-testid="sale-ends">
      {t("common.product.saleEnds", { date: formatLagosTime(endsAt, locale) })}
    </p>
  );
}
