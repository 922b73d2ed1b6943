import { Form, Link, useNavigation } from "react-router";
import type { ReviewEligibility, ReviewPage } from "~/domain/reviews.server";
import { REVIEW_MAX_LENGTH, REVIEW_MIN_LENGTH } from "~/lib/reviews";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { Stars } from "./stars";

export interface ReviewFormState {
  /** null for a visitor who is not signed in */
  eligibility: ReviewEligibility | null;
  /** the product page's path, to come back to after signing in */
  path: string;
}

/** The product's reviews (paged with ?reviews=N) and, for a customer who received it, the form (docs/decisions/134). */
export function ProductReviews({ page, form, errors }: { page: ReviewPage; form: ReviewFormState; errors: Record<string, string> }) {
  const { t, locale } = useT();
  const busy = useNavigation().formData?.get("intent") === "review";
  return (
    <section id="reviews" aria-labelledby="reviews-title" className="mt-10 max-w-3xl scroll-mt-20">
      <h2 id="reviews-title" className="font-serif text-2xl font-semibold">
        {t("store.reviews.title")}
      </h2>
      {page.average !== null ? (
        <p className="mt-2 flex items-center gap-2 text-sm" data-review-summary>
          <Stars rating={page.average} />
          <span>{t("store.reviews.average", { average: page.average.toLocaleString(locale === "es" ? "es-ES" : "en-NG") })}</span>
          <span className="text-stone-600">· {t("store.reviews.count", { count: page.count })}</span>
        </p>
      ) : (
        <p className="mt-2 text-sm text-stone-600">{t("store.reviews.none")}</p>
      )}

      {page.reviews.length > 0 && (
        <ol className="mt-4 divide-y divide-stone-200">
          {page.reviews.map((review) => (
            <li key={review.id} className="py-4" data-review={review.id}>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <Stars rating={review.rating} />
                <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-900">{t("store.reviews.verified")}</span>
              </div>
              <p className="mt-2 whitespace-pre-line break-words text-stone-800">{review.body}</p>
              <p className="mt-1 text-xs text-stone-600">{t("store.reviews.by", { author: review.author, date: formatLagosTime(review.createdAt, locale) })}</p>
            </li>
          ))}
        </ol>
      )}
      {page.pageCount > 1 && (
        <nav aria-label={t("store.reviews.page", { page: page.page, pages: page.pageCount })} className="mt-2 flex items-center gap-4 text-sm">
          {page.page > 1 && (
            <Link to={`?reviews=${page.page - 1}#reviews`} className="underline" preventScrollReset>
              {t("store.reviews.previous")}
            </Link>
          )}
          <span>{t("store.reviews.page", { page: page.page, pages: page.pageCount })}</span>
          {page.page < page.pageCount && (
            <Link to={`?reviews=${page.page + 1}#reviews`} className="underline" preventScrollReset>
              {t("store.reviews.next")}
            </Link>
          )}
        </nav>
      )}

      <div className="mt-6">
        {form.eligibility === null && (
          <p className="text-sm">
            <Link to={`/auth?redirectTo=${encodeURIComponent(form.path + "#reviews")}`} className="underline">
              {t("store.reviews.signInToReview")}
            </Link>
          </p>
        )}
        {form.eligibility === "notDelivered" && <p className="text-sm text-stone-700">{t("store.reviews.notDelivered")}</p>}
        {form.eligibility === "alreadyReviewed" && <p className="text-sm text-stone-700">{t("store.reviews.alreadyReviewed")}</p>}
        {form.eligibility === "eligible" && (
          <Form method="post" preventScrollReset className="space-y-4 rounded-xl border border-stone-200 bg-white p-4" aria-labelledby="write-review">
            <input type="hidden" name="intent" value="review" />
            <h3 id="write-review" className="font-semibold">
              {t("store.reviews.write")}
            </h3>
            <fieldset aria-describedby={errors.rating ? "review-rating-error" : undefined}>
              <legend className="text-sm font-medium">{t("store.reviews.rating")}</legend>
              <div className="mt-1 flex flex-wrap gap-2">
                {[5, 4, 3, 2, 1].map((n) => (
                  <label key={n} className="flex min-h-11 items-center gap-2 rounded-lg border border-stone-300 px-3 text-sm has-[:checked]:border-ink">
                    <input type="radio" name="rating" value={n} required />
                    {t("store.reviews.ratingOption", { count: n })}
                  </label>
                ))}
              </div>
              {errors.rating && (
                <p id="review-rating-error" className="mt-1 text-sm text-rose-800">
                  {t(errors.rating)}
                </p>
              )}
            </fieldset>
            <div>
              <label htmlFor="review-body" className="block text-sm font-medium">
                {t("store.reviews.body")}
              </label>
              <textarea
                id="review-body"
                name="body"
                required
                minLength={REVIEW_MIN_LENGTH}
                maxLength={REVIEW_MAX_LENGTH}
                rows={4}
                aria-invalid={errors.body ? true : undefined}
                aria-describedby={errors.body ? "review-body-error review-body-hint" : "review-body-hint"}
                className="mt-1 block w-full rounded-lg border border-stone-300 p-3"
              />
              <p id="review-body-hint" className="mt-1 text-xs text-stone-600">
                {t("store.reviews.bodyHint", { min: REVIEW_MIN_LENGTH, max: REVIEW_MAX_LENGTH })}
              </p>
              {errors.body && (
                <p id="review-body-error" className="mt-1 text-sm text-rose-800">
                  {t(errors.body)}
                </p>
              )}
            </div>
            {errors.form && (
              <p role="alert" className="text-sm text-rose-800">
                {errors.form}
              </p>
            )}
            <button type="submit" className="btn" disabled={busy}>
              {t("store.reviews.submit")}
            </button>
          </Form>
        )}
      </div>
    </section>
  );
}
