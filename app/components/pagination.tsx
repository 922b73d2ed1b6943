import { useT } from "~/lib/i18n";
import { Icon } from "./icon";
import { ShopLink } from "~/components/shop-link";

/** The page numbers shown: five around the current one; `narrow` marks the two kept below 768 px. */
export function pageWindow(page: number, pageCount: number): { page: number; narrow: boolean }[] {
  const start = Math.max(1, Math.min(page - 2, pageCount - 4));
  const end = Math.min(pageCount, start + 4);
  const narrowStart = page < pageCount ? page : Math.max(1, page - 1);
  const pages = [];
  for (let p = start; p <= end; p++) pages.push({ page: p, narrow: p === narrowStart || p === narrowStart + 1 });
  return pages;
}

/**
 * Plain links (they work without JavaScript). On widths of 820 px or less a page change scrolls to
 * the top; wider, the page stays where it is.
 */
export function Pagination({ page, pageCount, href }: { page: number; pageCount: number; href: (page: number) => string }) {
  const { t } = useT();
  if (pageCount <= 1) return null;
  const scrollOnNarrow = () => innerWidth <= 820 && scrollTo({ top: 0 });
  const step = (to: number, label: string, icon: "left" | "right", rel: string) =>
    to < 1 || to > pageCount ? (
      <span className="page-link opacity-40" aria-disabled="true">
        {icon === "left" && <Icon name="left" size={16} />}
        {label}
        {icon === "right" && <Icon name="right" size={16} />}
      </span>
    ) : (
      <ShopLink to={href(to)} rel={rel} preventScrollReset onClick={scrollOnNarrow} className="page-link">
        {icon === "left" && <Icon name="left" size={16} />}
        {label}
        {icon === "right" && <Icon name="right" size={16} />}
      </ShopLink>
    );
  return (
    <nav aria-label={t("catalogue.pagination.label")} className="mt-8 flex flex-wrap items-center justify-center gap-2">
      {step(page - 1, t("catalogue.pagination.previous"), "left", "prev")}
      {pageWindow(page, pageCount).map((p) => (
        <ShopLink
          key={p.page}
          to={href(p.page)}
          preventScrollReset
          onClick={scrollOnNarrow}
          aria-current={p.page === page ? "page" : undefined}
          aria-label={t("catalogue.pagination.page", { n: p.page })}
          className={`page-link min-w-11 justify-center ${p.narrow ? "" : "max-md:hidden"}`}
        >
          {p.page}
        </ShopLink>
      ))}
      {step(page + 1, t("catalogue.pagination.next"), "right", "next")}
    </nav>
  );
}
