import type { ReviewEligibility, ReviewPage, ReviewView } from "~/domain/catalogue/reviews.server";
import { useT } from "~/lib/i18n";
import { Stars } from "./stars";

import ReviewForm from "./review-form";
import { ShopLink } from "~/components/shop-link";

/** A page of reviews with each one's date already written in the shopper's language (by the loader). */
export type ShownReviewPage = Omit<ReviewPage, "reviews"> & { reviews: (ReviewView & { date: string })[] };

export interface ReviewFormState {
  /** null for a visitor who is not signed in */
  eligibility: ReviewEligibility | null;
  /** the product page's path, to come back to after signing in */
  path: string;
}

/** The product's reviews (paged with ?reviews=N) and, for a customer who received it, the form (docs/decisions/134). */
export function ProductReviews({ page, form, errors }: { page: ShownReviewPage; form: ReviewFormState; errors: Record<string, string> }) {
  const { t, locale } = useT();
  return (
    <section id="reviews" aria-labelledby="reviews-title" className="mt-10 max-w-3xl scroll-mt-20">
      <h2 id="reviews-title" className="font-serif text-2xl font-semibold">
        {t("product.reviews.title")}
      </h2>
      {page.average !== null ? (
        <p className="mt-2 flex items-center gap-2 text-sm" data-review-summary>
          <Stars rating={page.average} />
          <span>{t("product.reviews.average", { average: page.average.toLocaleString(locale === "es" ? "es-ES" : "en-NG") })}</span>
          <span className="text-stone-600">· {t("product.reviews.count", { count: page.count })}</span>
        </p>
      ) : (
        <p className="mt-2 text-sm text-stone-600">{t("product.reviews.none")}</p>
      )}

      {page.reviews.length > 0 && (
        <ol className="mt-4 divide-y divide-stone-200">
          {page.reviews.map((review) => (
            <li key={review.id} className="py-4" data-review={review.id}>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <Stars rating={review.rating} />
                <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-900">{t("product.reviews.verified")}</span>
              </div>
              <p className="mt-2 whitespace-pre-line break-words text-stone-800">{review.body}</p>
              <p className="mt-1 text-xs text-stone-600">{t("product.reviews.by", { author: review.author, date: review.date })}</p>
            </li>
          ))}
        </ol>
      )}
      {page.pageCount > 1 && (
        <nav aria-label={t("product.reviews.page", { page: page.page, pages: page.pageCount })} className="mt-2 flex items-center gap-4 text-sm">
          {page.page > 1 && (
            <ShopLink to={`?reviews=${page.page - 1}#reviews`} className="underline" preventScrollReset>
              {t("product.reviews.previous")}
            </ShopLink>
          )}
          <span>{t("product.reviews.page", { page: page.page, pages: page.pageCount })}</span>
          {page.page < page.pageCount && (
            <ShopLink to={`?reviews=${page.page + 1}#reviews`} className="underline" preventScrollReset>
              {t("product.reviews.next")}
            </ShopLink>
          )}
        </nav>
      )}

      <div className="mt-6">
        {form.eligibility === null && (
          <p className="text-sm">
            <ShopLink to={`/auth?redirectTo=${encodeURIComponent(form.path + "#reviews")}`} className="underline">
              {t("product.reviews.signInToReview")}
            </ShopLink>
          </p>
        )}
        {form.eligibility === "notDelivered" && <p className="text-sm text-stone-700">{t("product.reviews.notDelivered")}</p>}
        {form.eligibility === "alreadyReviewed" && <p className="text-sm text-stone-700">{t("product.reviews.alreadyReviewed")}</p>}
        {form.eligibility === "eligible" && <ReviewForm action={form.path} errors={errors} />}
      </div>
    </section>
  );
}
