import { Form, useNavigation } from "react-router";
import { AddressFields, type AddressErrors } from "~/components/address-fields";
import type { Address } from "~/domain/accounts/addresses.server";
import { useT } from "~/lib/i18n";
import { formatPhone } from "~/lib/phone";

type Failed = { intent: string; addressId: number | null; errors: AddressErrors; values: Record<string, string> } | null;

/** The profile's addresses tab: the saved addresses, each editable and removable, and a form to add one. */
export default function Addresses({
  addresses,
  max,
  texts,
  failed,
}: {
  addresses: Address[];
  max: number;
  /** the limit's note and the full-book button, written by the loader */
  texts: { addressLimit: string; atMax: string };
  failed: Failed;
}) {
  const { t } = useT();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const atMax = addresses.length >= max;
  const addFailed = failed?.intent === "add-address" ? failed : null;
  return (
    <section aria-labelledby="addresses-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="addresses-heading" className="font-serif text-xl font-semibold">
          {t("account.profile.tabs.addresses")}
        </h2>
        {atMax && (
          <button type="button" aria-disabled="true" className="cursor-not-allowed rounded-full bg-stone-200 px-5 py-2.5 text-sm font-medium text-stone-600">
            {texts.atMax}
          </button>
        )}
      </div>
      <p className="mt-1 text-sm text-stone-600">{texts.addressLimit}</p>

      {addresses.length === 0 && <p className="mt-4 text-stone-600">{t("address.none")}</p>}
      <ul className="mt-4 grid gap-4 sm:grid-cols-2">
        {addresses.map((address) => {
          const editFailed = failed?.intent === "update-address" && failed.addressId === address.id ? failed : null;
          return (
            <li key={address.id} className="rounded-xl border border-stone-200 bg-white p-4">
              <p className="font-medium">{address.street}</p>
              <p className="text-stone-600">
                {address.city}, {address.state}, {address.country}
              </p>
              {address.phone && <p className="text-sm text-stone-600">{formatPhone(address.phone)}</p>}
              <div className="mt-3 flex flex-wrap gap-2">
                <details className="w-full" open={Boolean(editFailed)}>
                  <summary className="inline-block cursor-pointer rounded-full border border-stone-300 px-4 py-2 text-sm" aria-label={t("address.editAddress", { street: address.street })}>
                    {t("address.edit")}
                  </summary>
                  <Form method="post" className="mt-3 space-y-4">
                    <input type="hidden" name="intent" value="update-address" />
                    <input type="hidden" name="addressId" value={address.id} />
                    <AddressFields idPrefix={`address-${address.id}`} values={editFailed ? editFailed.values : address} errors={editFailed?.errors} withPhone />
                    <button type="submit" disabled={busy} className="rounded-full bg-ink px-5 py-2.5 text-sm font-medium text-white disabled:opacity-60">
                      {t("address.save")}
                    </button>
                  </Form>
                </details>
                <Form method="post">
                  <input type="hidden" name="intent" value="delete-address" />
                  <input type="hidden" name="addressId" value={address.id} />
                  <button type="submit" disabled={busy} className="rounded-full border border-rose-300 px-4 py-2 text-sm text-rose-700" aria-label={t("address.deleteAddress", { street: address.street })}>
                    {t("address.delete")}
                  </button>
                </Form>
              </div>
            </li>
          );
        })}
      </ul>

      {!atMax && (
        <details className="mt-6 rounded-xl border border-stone-200 bg-white p-4" open={Boolean(addFailed) || addresses.length === 0}>
          <summary className="cursor-pointer font-medium">{t("address.add")}</summary>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="add-address" />
            <AddressFields idPrefix="new-address" values={addFailed?.values} errors={addFailed?.errors} withPhone />
            <button type="submit" disabled={busy} className="rounded-full bg-ink px-5 py-2.5 text-sm font-medium text-white disabled:opacity-60">
              {t("address.add")}
            </button>
          </Form>
        </details>
      )}
    </section>
  );
}
