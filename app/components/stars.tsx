import { useT } from "~/lib/i18n";

/** A rating as five stars (to the nearest half), read out as "Rated 4.5 out of 5". */
export function Stars({ rating, className = "" }: { rating: number; className?: string }) {
  const { t } = useT();
  const shown = Math.round(rating * 2) / 2;
  return (
    <span role="img" aria-label={t("common.product.stars", { rating: shown })} className={`inline-flex text-amber-600 ${className}`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} aria-hidden="true" className="relative inline-block leading-none">
          <span className="text-stone-300">★</span>
          {shown >= n - 0.5 && (
            <span className="absolute inset-0 overflow-hidden" style={{ width: shown >= n ? "100%" : "50%" }}>
              ★
            </span>
          )}
        </span>
      ))}
    </span>
  );
}
