import { useT } from "~/lib/i18n";
import { formatPhone } from "~/lib/phone";

const inputClass =
  "mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base disabled:bg-stone-100 disabled:text-stone-500 aria-[invalid=true]:border-rose-600";

/**
 * A Nigerian mobile number, typed as people type it (the server reads `0803 123 4567`, `+234 …`).
 * `value` is what the shopper typed before a refusal, or a stored number (shown spaced). `error` is a
 * translation key.
 */
export function PhoneField({
  id,
  value,
  error,
  className,
  label,
}: {
  id: string;
  /** the field's label when not "Mobile number" (a translation key) */
  label?: string;
  value?: string | null;
  error?: string;
  className?: string;
}) {
  const { t } = useT();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-medium">
        {t(label ?? "address.phone")}
      </label>
      <input
        id={id}
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        maxLength={40}
        defaultValue={value ? formatPhone(value) : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        aria-invalid={error ? true : undefined}
        className={inputClass}
      />
      <p id={hintId} className="mt-1 text-sm text-stone-600">
        {t("address.phoneHint")}
      </p>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-rose-700">
          {t(error)}
        </p>
      )}
    </div>
  );
}
