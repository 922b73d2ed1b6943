import { useState } from "react";
import { PhoneField } from "~/components/phone-field";
import type { AddressInput } from "~/domain/accounts/addresses.server";
import { useT } from "~/lib/i18n";
import { DEFAULT_COUNTRY, NIGERIAN_STATES } from "~/lib/nigeria";

export type AddressErrors = Partial<Record<keyof AddressInput | "phone", string>>;

const inputClass =
  "mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base disabled:bg-stone-100 disabled:text-stone-500 aria-[invalid=true]:border-rose-600";

/**
 * Street, city, state and country. In Nigeria the state is a choice of the 36 states and the FCT;
 * elsewhere it is free text. `idPrefix` keeps ids unique when several forms share a page.
 */
export function AddressFields({
  idPrefix,
  values,
  errors = {},
  disabled = false,
  withPhone = false,
}: {
  idPrefix: string;
  values?: Partial<AddressInput> & { phone?: string | null };
  errors?: AddressErrors;
  disabled?: boolean;
  /** the number the rider calls at this address (the address book; checkout asks for it on its own) */
  withPhone?: boolean;
}) {
  const { t } = useT();
  const [country, setCountry] = useState(values?.country ?? DEFAULT_COUNTRY);
  const inNigeria = country.trim().toLowerCase() === DEFAULT_COUNTRY.toLowerCase();
  const id = (name: string) => `${idPrefix}-${name}`;
  const described = (name: keyof AddressInput) => (errors[name] ? { "aria-invalid": true, "aria-describedby": id(`${name}-error`) } : {});
  const error = (name: keyof AddressInput) =>
    errors[name] ? (
      <p id={id(`${name}-error`)} className="mt-1 text-sm text-rose-700">
        {t(errors[name]!)}
      </p>
    ) : null;

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <label htmlFor={id("street")} className="text-sm font-medium">
          {t("address.street")}
        </label>
        <input id={id("street")} name="street" autoComplete="street-address" maxLength={200} defaultValue={values?.street} disabled={disabled} className={inputClass} {...described("street")} />
        {error("street")}
      </div>
      <div>
        <label htmlFor={id("city")} className="text-sm font-medium">
          {t("address.city")}
        </label>
        <input id={id("city")} name="city" autoComplete="address-level2" maxLength={100} defaultValue={values?.city} disabled={disabled} className={inputClass} {...described("city")} />
        {error("city")}
      </div>
      <div>
        <label htmlFor={id("state")} className="text-sm font-medium">
          {t("address.state")}
        </label>
        {inNigeria ? (
          <select id={id("state")} name="state" autoComplete="address-level1" defaultValue={values?.state ?? ""} disabled={disabled} className={inputClass} {...described("state")}>
            <option value="">{t("address.chooseState")}</option>
            {NIGERIAN_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        ) : (
          <input id={id("state")} name="state" autoComplete="address-level1" maxLength={100} defaultValue={values?.state} disabled={disabled} className={inputClass} {...described("state")} />
        )}
        {error("state")}
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={id("country")} className="text-sm font-medium">
          {t("address.country")}
        </label>
        <input
          id={id("country")}
          name="country"
          autoComplete="country-name"
          maxLength={100}
          value={country}
          onChange={(e) => setCountry(e.target.value)}
          disabled={disabled}
          className={inputClass}
          {...described("country")}
        />
        {error("country")}
      </div>
      {withPhone && <PhoneField id={id("phone")} value={values?.phone} error={errors.phone} className="sm:col-span-2" />}
    </div>
  );
}
