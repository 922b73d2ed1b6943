import { Form, useLocation } from "react-router";
import { useT } from "~/lib/i18n";
import { Icon } from "./icon";

/** The header's product search: a plain GET form to /shop?q=..., so it works without JavaScript. */
export function SearchForm({ id, className = "" }: { id: string; className?: string }) {
  const { t } = useT();
  const location = useLocation();
  const q = location.pathname === "/shop" ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  return (
    <Form method="get" action="/shop" role="search" className={`flex ${className}`}>
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
        className="h-11 min-w-0 flex-1 rounded-l-full border border-r-0 border-stone-300 bg-white px-4 text-sm"
      />
      <button type="submit" className="grid h-11 w-12 place-items-center rounded-r-full bg-ink text-white hover:bg-stone-700" aria-label={t("store.search.submit")}>
        <Icon name="search" />
      </button>
    </Form>
  );
}
