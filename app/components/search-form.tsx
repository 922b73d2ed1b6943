import { useLocation } from "react-router";
import { useT } from "~/lib/i18n";
import { Icon } from "./icon";
import { ShopForm } from "./shop-form";

/** The words searched for on a listing, shown in the search box; empty on other pages. */
export function useSearchedWords(): string {
  const location = useLocation();
  return location.pathname === "/shop" ? (new URLSearchParams(location.search).get("q") ?? "") : "";
}

/** The header's product search: a plain GET form to /shop?q=..., so it works without JavaScript. */
export function SearchForm({ id, className = "" }: { id: string; className?: string }) {
  const { t } = useT();
  const q = useSearchedWords();
  return (
    <ShopForm method="get" action="/shop" role="search" className={`flex ${className}`}>
      <label htmlFor={id} className="sr-only">
        {t("store.search.label")}
      </label>
      <input
        key={q}
        id={id}
        name="q"
        type="search"
        defaultValue={q}
        maxLength={100}
        placeholder={t("store.search.placeholder")}
        className="search-input"
      />
      <button type="submit" className="search-button" aria-label={t("store.search.submit")}>
        <Icon name="search" />
      </button>
    </ShopForm>
  );
}
