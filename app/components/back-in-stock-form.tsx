import { Form, useNavigation } from "react-router";
import { useT } from "~/lib/i18n";
import { usePersonal, waitsForAll } from "~/lib/personal";

export interface BackInStockState {
  /** the product's sold-out sizes */
  soldOut: { id: number; label: string }[];
  /** a perfume in several sizes: the shopper chooses among the sold-out ones (docs/decisions/121) */
  choose: boolean;
}

/**
 * On a sold-out product: leave an e-mail address to hear once when it is back (docs/decisions/133).
 * A plain form, so it works without JavaScript; the answer comes back to the product page.
 *
 * A signed-in shopper asks with one click, for the sizes they do not wait for yet, and is told when they
 * wait for all. The shopper's address comes from the page's `personal` state.
 */
export function BackInStockForm({ state, waited, error }: { state: BackInStockState; waited: number[]; error: string | null }) {
  const { t } = useT();
  const email = usePersonal().user?.email ?? null;
  const busy = useNavigation().formData?.get("intent") === "notify";
  const waiting = waitsForAll(email !== null, state.choose ? state.soldOut.map((s) => s.id) : null, waited);
  if (waiting)
    return (
      <p role="status" className="rounded-xl bg-brand-50 p-4 text-sm">
        {t("product.backInStock.waiting", { email: email ?? "" })}
      </p>
    );
  return (
    <Form method="post" preventScrollReset className="space-y-3 rounded-xl border border-stone-200 bg-white p-4" aria-labelledby="back-in-stock-title">
      <input type="hidden" name="intent" value="notify" />
      <h2 id="back-in-stock-title" className="font-semibold">
        {t("product.backInStock.title")}
      </h2>
      <p className="text-sm text-stone-700">{email === null ? t("product.backInStock.intro") : t("product.backInStock.signedIn", { email })}</p>
      {state.choose && (
        <label className="block text-sm font-medium">
          {t("product.details.size")}
          <select name="sizeId" className="alert-field">
            {state.soldOut
              .filter((s) => !waited.includes(s.id))
              .map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
          </select>
        </label>
      )}
      {email === null && (
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
            className="alert-field"
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
