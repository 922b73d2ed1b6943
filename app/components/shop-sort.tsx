import { useNavigate } from "react-router";
import { useT } from "~/lib/i18n";
import { effectiveSort, PRICE_MAX, PRICE_MIN, SHOP_SORTS, shopHref, type ShopFilters, type ShopSort } from "~/lib/shop-url";

/**
 * The listing's order: a plain GET form to /shop carrying the other filters, so without JavaScript
 * it is submitted with its button; with JavaScript a choice applies at once. Best match is offered
 * only while searching.
 */
export function ShopSortForm({ filters }: { filters: ShopFilters }) {
  const { t } = useT();
  const navigate = useNavigate();
  const sorts: ShopSort[] = filters.q ? ["relevance", ...SHOP_SORTS] : [...SHOP_SORTS];
  // The other filters, as the filter form would send them (defaults left out).
  const carried: [string, string | number | null][] = [
    ["q", filters.q || null],
    ["category", filters.category],
    ["brand", filters.brand],
    ...filters.concentrations.map((value) => ["concentration", value] as [string, string]),
    ...filters.families.map((value) => ["family", value] as [string, string]),
    ["min", filters.min > PRICE_MIN ? filters.min : null],
    ["max", filters.max < PRICE_MAX ? filters.max : null],
  ];
  return (
    <form method="get" action="/shop" className="flex items-center gap-2" onSubmit={(e) => e.preventDefault()}>
      {carried.map(([name, value]) => value !== null && <input key={`${name}=${value}`} type="hidden" name={name} value={value} />)}
      <label htmlFor="shop-sort" className="text-sm font-medium whitespace-nowrap">
        {t("catalogue.sort.label")}
      </label>
      <select
        id="shop-sort"
        name="sort"
        defaultValue={effectiveSort(filters)}
        key={effectiveSort(filters)}
        className="min-h-11 rounded-full border border-stone-300 bg-white px-3 text-sm"
        onChange={(e) => navigate(shopHref(filters, { sort: e.target.value as ShopSort }), { preventScrollReset: true })}
      >
        {sorts.map((sort) => (
          <option key={sort} value={sort}>
            {t(`catalogue.sort.${sort}`)}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn-outline" formNoValidate>
          {t("catalogue.sort.apply")}
        </button>
      </noscript>
    </form>
  );
}
