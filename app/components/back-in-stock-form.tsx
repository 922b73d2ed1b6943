import { Form, useNavigation } from "react-router";
import { useT } from "~/lib/i18n";

export interface BackInStockState {
  /** the signed-in shopper's address (one click), or null for a visitor who types one */
  email: string | null;
  /** this shopper already waits for the product (every sold-out size of it) */
  waiting: boolean;
  /** a perfume in several sizes: the sold-out sizes to choose from (docs/decisions/121) */
  sizes: { id: number; label: string }[];
}

/**
 * On a sold-out product: leave an e-mail address to hear once when it is back (docs/decisions/133).
 * A plain form, so it works without JavaScript; the answer comes back to the product page.
 */
export function BackInStockForm({ state, error }: { state: BackInStockState; error: string | null }) {
  const { t } = useT();
  const busy = useNavigation().formData?.get("intent") === "notify";
  if (state.waiting && state.email) {
    return (
      <p role="status" className="rounded-xl bg-brand-50 p-4 text-sm">
        {t("product.backInStock.waiting", { email: state.email })}
      </p>
    );
  }
  return (
    <Form method="post" preventScrollReset className="space-y-3 rounded-xl border border-stone-200 bg-white p-4" aria-labelledby="back-in-stock-title">
      <input type="hidden" name="intent" value="notify" />
      <h2 id="back-in-stock-title" className="font-semibold">
        {t("product.backInStock.title")}
      </h2>
      <p className="text-sm text-stone-700">{state.email ? t("product.backInStock.signedIn", { email: state.email }) : t("product.backInStock.intro")}</p>
      {state.sizes.length > 0 && (
        <label className="block text-sm font-medium">
          {t("store.product.size")}
          <select name="sizeId" className="mt-1 block min-h-11 w-full rounded-lg border border-stone-300 px-3">
            {state.sizes.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {!state.email && (
        <div>
          <label htmlFor="back-in-stock-email" className="block text-sm font-medium">
            {t("product.backInStock.email")}
          </label>
          <input
            id="back-in-stock-email"
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "back-in-stock-error" : undefined}
            className="mt-1 block min-h-11 w-full rounded-lg border border-stone-300 px-3"
          />
        </div>
      )}
      {error && (
        <p id="back-in-stock-error" role="alert" className="text-sm text-rose-800">
          {error}
        </p>
      )}
      <button type="submit" className="btn" disabled={busy}>
        {t("product.backInStock.submit")}
      </button>
    </Form>
  );
}
