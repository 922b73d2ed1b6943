import { Form } from "react-router";
import type { SaleKind } from "~/db/schema";
import { useT } from "~/lib/i18n";
import { TargetFields } from "./promotion-form";
import { Field, inputClass, primaryButton } from "./ui";

/** The sale form's fields, as strings (what was sent, or what is saved). */
export type SaleFormValues = Record<"name" | "kind" | "value" | "startsAt" | "endsAt" | "productIds", string> & { categoryIds: string[]; brandIds: string[] };

export const EMPTY_SALE: SaleFormValues = { name: "", kind: "percent", value: "", startsAt: "", endsAt: "", productIds: "", categoryIds: [], brandIds: [] };

const KINDS: SaleKind[] = ["percent", "fixed"];

/** An automatic sale's form (docs/decisions/225): create and edit alike, a plain form that works without JavaScript. */
export function SaleForm({
  intent,
  values,
  errors,
  errorValues,
  choices,
  submitLabel,
  busy,
}: {
  /** "sale" creates one (the promotions page), "save" changes this one */
  intent: "sale" | "save";
  values: SaleFormValues;
  errors: Record<string, string>;
  errorValues?: Record<string, string>;
  choices: { categories: { id: number; name: string }[]; brands: { id: number; name: string }[] };
  submitLabel: string;
  busy: boolean;
}) {
  const { t } = useT();
  const f = (name: string) => t(`promotions.sales.fields.${name}`);
  const c = (name: string) => t(`promotions.admin.fields.${name}`);
  return (
    <Form method="post" className="grid gap-4 rounded-xl border border-stone-200 bg-white p-4 sm:grid-cols-2" data-testid="sale-form">
      <input type="hidden" name="intent" value={intent} />
      <Field label={f("name")} error={errors.name} hint={f("nameHint")}>
        {(props) => <input {...props} name="name" defaultValue={values.name} maxLength={80} required autoComplete="off" className={inputClass} />}
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-stone-800">{c("kind")}</legend>
        {KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-2 text-sm">
            <input type="radio" name="kind" value={kind} defaultChecked={values.kind === kind} />
            {t(`promotions.sales.fields.kinds.${kind}`)}
          </label>
        ))}
        {errors.kind && <p className="text-sm text-red-700">{t(errors.kind)}</p>}
      </fieldset>
      <div className="sm:col-span-2">
        <Field label={f("value")} error={errors.value} hint={f("valueHint")}>
          {(props) => <input {...props} name="value" defaultValue={values.value} inputMode="decimal" required className={inputClass} />}
        </Field>
      </div>
      <Field label={f("startsAt")} error={errors.startsAt}>
        {(props) => <input {...props} type="datetime-local" name="startsAt" defaultValue={values.startsAt} className={inputClass} />}
      </Field>
      <Field label={f("endsAt")} error={errors.endsAt}>
        {(props) => <input {...props} type="datetime-local" name="endsAt" defaultValue={values.endsAt} required className={inputClass} />}
      </Field>
      <TargetFields choices={choices} values={values} errors={errors} errorValues={errorValues} productsHint={f("productsHint")} />
      <div className="sm:col-span-2">
        <button type="submit" className={primaryButton} disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}
