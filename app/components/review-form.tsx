import { useNavigation } from "react-router";
import { useT } from "~/lib/i18n";
import { REVIEW_MAX_LENGTH, REVIEW_MIN_LENGTH } from "~/lib/reviews";
import { ShopForm } from "./shop-form";

/**
 * The review form of a product page, for a customer whose order was delivered (docs/decisions/134).
 * `action`: the product page's path, written out so that the server writes the form without resolving
 * it through the router, as every `ShopForm` (shop-form.tsx).
 */
export default function ReviewForm({ action, errors }: { action: string; errors: Record<string, string> }) {
  const { t } = useT();
  const busy = useNavigation().formData?.get("intent") === "review";
  return (
    <ShopForm method="post" action={action} preventScrollReset className="space-y-4 rounded-xl border border-stone-200 bg-white p-4" aria-labelledby="write-review">
      <input type="hidden" name="intent" value="review" />
      <h3 id="write-review" className="font-semibold">
        {t("product.reviews.write")}
      </h3>
      <fieldset aria-describedby={errors.rating ? "review-rating-error" : undefined}>
        <legend className="text-sm font-medium">{t("product.reviews.rating")}</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {[5, 4, 3, 2, 1].map((n) => (
            <label key={n} className="rating-choice">
              <input type="radio" name="rating" value={n} required />
              {t("product.reviews.ratingOption", { count: n })}
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
          {t("product.reviews.body")}
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
          {t("product.reviews.bodyHint", { min: REVIEW_MIN_LENGTH, max: REVIEW_MAX_LENGTH })}
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
        {t("product.reviews.submit")}
      </button>
    </ShopForm>
  );
}
