import { Form } from "react-router";
import type { PromotionKind } from "~/db/schema";
import { type Locale, type Translate, useT } from "~/lib/i18n";
import { formatLagosTime } from "~/lib/dates";
import { formatNaira } from "~/lib/money";
import { Field, inputClass, primaryButton } from "./ui";

/** The promotion form's fields, as strings (what was sent, or what is saved). */
export type PromotionFormValues = Record<
  "code" | "kind" | "value" | "minSubtotal" | "startsAt" | "endsAt" | "usageLimit" | "perCustomerLimit" | "combinesWithSale" | "productIds",
  string
> & { categoryIds: string[]; brandIds: string[] };

export const EMPTY_PROMOTION: PromotionFormValues = {
  code: "",
  kind: "percent",
  value: "",
  minSubtotal: "",
  startsAt: "",
  endsAt: "",
  usageLimit: "",
  perCustomerLimit: "",
  combinesWithSale: "",
  productIds: "",
  categoryIds: [],
  brandIds: [],
};

const KINDS: PromotionKind[] = ["percent", "fixed", "free_delivery"];

/** A discount code's form: create and edit alike, a plain form that works without JavaScript. */
export function PromotionForm({
  values,
  errors,
  errorValues,
  choices,
  submitLabel,
  busy,
}: {
  values: PromotionFormValues;
  errors: Record<string, string>;
  errorValues?: Record<string, string>;
  choices: { categories: { id: number; name: string }[]; brands: { id: number; name: string }[] };
  submitLabel: string;
  busy: boolean;
}) {
  const { t } = useT();
  const f = (name: string) => t(`promotions.admin.fields.${name}`);
  const error = (name: string) => (errors[name] ? t(errors[name], errorValues) : null);
  return (
    <Form method="post" className="grid gap-4 rounded-xl border border-stone-200 bg-white p-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="save" />
      <Field label={f("code")} error={errors.code} hint={f("codeHint")}>
        {(props) => <input {...props} name="code" defaultValue={values.code} maxLength={40} required autoComplete="off" className={`${inputClass} uppercase`} />}
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-stone-800">{f("kind")}</legend>
        {KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-2 text-sm">
            <input type="radio" name="kind" value={kind} defaultChecked={values.kind === kind} />
            {t(`promotions.admin.fields.kinds.${kind}`)}
          </label>
        ))}
        {error("kind") && <p className="text-sm text-red-700">{error("kind")}</p>}
      </fieldset>
      <Field label={f("value")} error={errors.value} hint={f("valueHint")}>
        {(props) => <input {...props} name="value" defaultValue={values.value} inputMode="decimal" className={inputClass} />}
      </Field>
      <Field label={f("minSubtotal")} error={errors.minSubtotal}>
        {(props) => <input {...props} name="minSubtotal" defaultValue={values.minSubtotal} inputMode="decimal" className={inputClass} />}
      </Field>
      <Field label={f("startsAt")} error={errors.startsAt}>
        {(props) => <input {...props} type="datetime-local" name="startsAt" defaultValue={values.startsAt} className={inputClass} />}
      </Field>
      <Field label={f("endsAt")} error={errors.endsAt}>
        {(props) => <input {...props} type="datetime-local" name="endsAt" defaultValue={values.endsAt} className={inputClass} />}
      </Field>
      <Field label={f("usageLimit")} error={errors.usageLimit}>
        {(props) => <input {...props} name="usageLimit" defaultValue={values.usageLimit} inputMode="numeric" className={inputClass} />}
      </Field>
      <Field label={f("perCustomerLimit")} error={errors.perCustomerLimit} hint={f("perCustomerHint")}>
        {(props) => <input {...props} name="perCustomerLimit" defaultValue={values.perCustomerLimit} inputMode="numeric" className={inputClass} />}
      </Field>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" name="combinesWithSale" defaultChecked={values.combinesWithSale === "on"} className="h-5 w-5" />
        {f("combinesWithSale")}
      </label>
      <TargetFields choices={choices} values={values} errors={errors} errorValues={errorValues} productsHint={f("productsHint")} />
      <div className="sm:col-span-2">
        <button type="submit" className={primaryButton} disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}

/** What a code or a sale is for: categories, brands and products (none of them: the whole shop). */
export function TargetFields({
  choices,
  values,
  errors,
  errorValues,
  productsHint,
}: {
  choices: { categories: { id: number; name: string }[]; brands: { id: number; name: string }[] };
  values: { categoryIds: string[]; brandIds: string[]; productIds: string };
  errors: Record<string, string>;
  errorValues?: Record<string, string>;
  productsHint: string;
}) {
  const { t } = useT();
  const f = (name: string) => t(`promotions.admin.fields.${name}`);
  return (
    <>
      <Field label={f("categories")} error={errors.categoryIds}>
        {(props) => (
          <select {...props} name="categoryIds" multiple defaultValue={values.categoryIds} className={`${inputClass} h-32`}>
            {choices.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={f("brands")} error={errors.brandIds}>
        {(props) => (
          <select {...props} name="brandIds" multiple defaultValue={values.brandIds} className={`${inputClass} h-32`}>
            {choices.brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="sm:col-span-2">
        <Field label={f("products")} error={errors.productIds ? t(errors.productIds, errorValues) : null} hint={productsHint}>
          {(props) => <input {...props} name="productIds" defaultValue={values.productIds} className={inputClass} />}
        </Field>
      </div>
    </>
  );
}

/** "10% off", "₦2,000.00 off", "Free delivery". */
export function offerText(t: Translate, kind: PromotionKind, value: number): string {
  return t(`promotions.admin.offer.${kind}`, { value, amount: formatNaira(value) });
}

/** When a code applies, in Lagos time. */
export function whenText(t: Translate, locale: Locale, startsAt: string | null, endsAt: string | null): string {
  const start = startsAt ? formatLagosTime(startsAt, locale) : null;
  const end = endsAt ? formatLagosTime(endsAt, locale) : null;
  if (start && end) return t("promotions.admin.between", { start, end });
  if (start) return t("promotions.admin.from", { start });
  if (end) return t("promotions.admin.until", { end });
  return t("promotions.admin.always");
}
