import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

/**
 * The price pair shown on cards and the product page: the price, and the struck-through original when
 * discounted. `from`: the product comes in sizes at different prices and this is the cheapest. `saleEnds`:
 * when the automatic sale that set this price ends (docs/decisions/225), in Lagos time as the sales
 * clock wrote it ("2026-12-06 23:59"), so no date formatting weighs on the shop's JavaScript. Cards and
 * the product page spread a card or a size into it (fewer bytes than naming each field).
 */
export function Price({ price, discount, from, saleEnds, className = "" }: { price: number; discount: number | null; from?: boolean; saleEnds?: string | null; className?: string }) {
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
      {/* Set by the sales clock only with a discount (cleared by its next run when the owner changes the
          price); styled as the line after the struck price (storefront.css), without a class, for bytes. */}
      {saleEnds && <small>{t("common.product.ends", { date: saleEnds })}</small>}
    </p>
  );
}
