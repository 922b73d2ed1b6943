import { type ChangeEvent, type CSSProperties, useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import type { NamedRow, ShopFacets } from "~/domain/catalogue/catalog.server";
import { CONCENTRATIONS, FAMILIES, knownValues } from "~/lib/perfume-facts";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { PRICE_MAX, PRICE_MIN, shopHref, type ShopFilters as Filters } from "~/lib/shop-url";
import { ShopLink } from "~/components/shop-link";

const percent = (naira: number) => `${((naira - PRICE_MIN) / (PRICE_MAX - PRICE_MIN)) * 100}%`;
const naira = (value: number) => formatNaira(value * 100);

type ShopFiltersProps = {
  filters: Filters;
  categories: NamedRow[];
  brands: NamedRow[];
  /** products per concentration and scent family, with the other filters applied */
  facets: ShopFacets;
  /** price slider step in naira: 1 on desktop, 10 in the mobile drawer */
  step: number;
  idPrefix: string;
  inDrawer?: boolean;
};

const FORM_CLASS = "flex flex-col gap-6";

/**
 * The shop's filters: a plain GET form to /shop, so without JavaScript it is submitted with its
 * button. With JavaScript, a category or brand applies at once and the price range 300 ms after
 * its last movement; the URL is the only state, and any change goes back to page 1.
 */
export function ShopFilters(props: ShopFiltersProps) {
  const { filters, categories, brands, facets, step, idPrefix, inDrawer = false } = props;
  const { t } = useT();
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  const applied = useRef("");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const href = shopHref(filters);

  // When the URL changes by other means (Back, a reset link), the fields follow it.
  useEffect(() => {
    if (href !== applied.current) form.current?.reset();
    return () => clearTimeout(timer.current);
  }, [href]);

  const field = (name: string) => form.current!.elements.namedItem(name) as HTMLInputElement;

  const apply = () => {
    clearTimeout(timer.current);
    const data = new FormData(form.current!);
    const id = (name: string) => Number(data.get(name)) || null;
    applied.current = shopHref({
      ...filters,
      category: id("category"),
      brand: id("brand"),
      concentrations: knownValues(data.getAll("concentration"), CONCENTRATIONS),
      families: knownValues(data.getAll("family"), FAMILIES),
      min: Number(data.get("min")),
      max: Number(data.get("max")),
    });
    navigate(applied.current, { preventScrollReset: true });
  };

  const onChange = (e: ChangeEvent<HTMLFormElement>) => {
    const target = e.target as unknown as HTMLInputElement;
    if (target.type !== "range") return apply();
    const [low, high] = [field("min"), field("max")];
    // The lower handle stays at least one step below the upper one, and the other way round.
    if (+low.value > +high.value - step) {
      if (target === low) low.value = String(+high.value - step);
      else high.value = String(+low.value + step);
    }
    const outputs = form.current!.querySelectorAll("output");
    [low, high].forEach((input, i) => {
      const text = naira(+input.value);
      outputs[i].textContent = text;
      input.setAttribute("aria-valuetext", text);
      input.parentElement!.style.setProperty(i ? "--hi" : "--lo", percent(+input.value));
    });
    clearTimeout(timer.current);
    timer.current = setTimeout(apply, 300);
  };

  const group = (name: "category" | "brand", legend: string, rows: NamedRow[], scroll: boolean) => (
    <fieldset>
      <legend className="filter-title float-left">{legend}</legend>
      <ShopLink to={shopHref(filters, { [name]: null })} preventScrollReset className="float-right -my-3 inline-flex min-h-11 items-center px-1 text-sm underline" aria-label={t(`catalogue.filters.reset.${name}`)}>
        {t("catalogue.filters.reset.label")}
      </ShopLink>
      <div className={`clear-both ${scroll ? "max-h-56 overflow-y-auto pr-2" : ""}`}>
        {rows.map((row) => (
          <label key={row.id} className="check">
            <input type="radio" name={name} value={row.id} defaultChecked={filters[name] === row.id} />
            {row.name}
          </label>
        ))}
      </div>
    </fieldset>
  );

  // Several values at once: checkboxes, each with the number of perfumes it would show. A value with
  // none is disabled unless chosen (so it can still be cleared).
  const facetGroup = <T extends string>(name: "concentration" | "family", chosen: readonly T[], values: readonly T[], counts: Record<T, number>) => (
    <fieldset>
      <legend className="filter-title float-left">{t(`catalogue.filters.${name}`)}</legend>
      {chosen.length > 0 && (
        <ShopLink
          to={shopHref(filters, name === "concentration" ? { concentrations: [] } : { families: [] })}
          preventScrollReset
          className="float-right -my-3 inline-flex min-h-11 items-center px-1 text-sm underline"
          aria-label={t(`catalogue.filters.reset.${name}`)}
        >
          {t("catalogue.filters.reset.label")}
        </ShopLink>
      )}
      <div className="clear-both">
        {values.map((value) => {
          const checked = chosen.includes(value);
          return (
            <label key={value} className={`check ${counts[value] === 0 && !checked ? "text-stone-400" : ""}`}>
              <input type="checkbox" name={name} value={value} defaultChecked={checked} disabled={counts[value] === 0 && !checked} />
              <span className="flex-1">{t(`store.facts.${name}.${value}`)}</span>
              <span className="text-stone-600">({counts[value]})</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );

  return (
    <form
      ref={form}
      method="get"
      action="/shop"
      className={FORM_CLASS}
      onChange={onChange}
      onSubmit={(e) => {
        e.preventDefault();
        apply();
        form.current!.closest("dialog")?.close();
      }}
    >
      {filters.q && <input type="hidden" name="q" defaultValue={filters.q} />}
      {filters.sort && <input type="hidden" name="sort" defaultValue={filters.sort} />}
      {group("category", t("catalogue.filters.categories"), categories, false)}
      {group("brand", t("catalogue.filters.brands"), brands, true)}
      {facetGroup("concentration", filters.concentrations, CONCENTRATIONS, facets.concentration)}
      {facetGroup("family", filters.families, FAMILIES, facets.family)}
      <fieldset>
        <legend className="filter-title">{t("catalogue.filters.price")}</legend>
        <div className="range" style={{ "--lo": percent(filters.min), "--hi": percent(filters.max) } as CSSProperties}>
          {(["min", "max"] as const).map((name) => (
            <input
              key={name}
              id={`${idPrefix}-${name}`}
              type="range"
              name={name}
              min={PRICE_MIN}
              max={PRICE_MAX}
              step={step}
              defaultValue={filters[name]}
              aria-label={t(`catalogue.filters.${name}`)}
              aria-valuetext={naira(filters[name])}
            />
          ))}
        </div>
        <p className="mt-1 flex justify-between text-sm font-medium">
          <output htmlFor={`${idPrefix}-min`}>{naira(filters.min)}</output>
          <output htmlFor={`${idPrefix}-max`}>{naira(filters.max)}</output>
        </p>
      </fieldset>
      {inDrawer ? (
        <button type="submit" className="btn">
          {t("catalogue.filters.show")}
        </button>
      ) : (
        <noscript>
          <button type="submit" className="btn">
            {t("catalogue.filters.apply")}
          </button>
        </noscript>
      )}
    </form>
  );
}
