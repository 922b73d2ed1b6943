import { data, Form, useNavigation } from "react-router";
import { inputClass, PageHeader, primaryButton } from "~/components/admin/ui";
import { type DeliveryErrors, parseDeliveryForm, saveDeliverySettings } from "~/domain/orders/delivery-admin.server";
import { loadDeliveryTable } from "~/domain/orders/delivery.server";
import { requirePermission } from "~/http/staff-guard.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { NIGERIAN_STATES } from "~/lib/nigeria";
import { redirectWithToast } from "~/http/toast.server";
import { readForm } from "~/http/form.server";
import type { Route } from "./+types/admin.delivery";

const PATH = "/admin/delivery";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const t = requestTranslator(request);
  return { table: await loadDeliveryTable(context.db), states: [...NIGERIAN_STATES], title: t("admin.meta.title", { page: t("admin.nav.delivery") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "settings");
  const form = await readForm(request);
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string").map(([k, v]) => [k, String(v).slice(0, 300)]));
  const parsed = parseDeliveryForm(form);
  if (!parsed.ok) return data({ errors: parsed.errors, values }, { status: 400 });
  const saved = await saveDeliverySettings(context.db, admin.id, parsed.input);
  if (!saved.ok) return data({ errors: saved.errors, values }, { status: 409 });
  return redirectWithToast(context, PATH, { type: "success", key: "admin.delivery.saved" });
}

const naira = (kobo: number | null) => (kobo === null ? "" : String(kobo / 100));

export default function AdminDelivery({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const { table, states } = loaderData;
  const busy = useNavigation().state === "submitting";
  const errors: DeliveryErrors = actionData?.errors ?? {};
  const sent: Record<string, string> | null = actionData?.values ?? null;
  // After a refused save the form shows what was sent; otherwise what is saved.
  const value = (name: string, saved: string) => (sent ? (sent[name] ?? "") : saved);
  const checked = (name: string, saved: boolean) => (sent ? sent[name] === "on" : saved);
  const invalid = (name: string) => (errors[name] ? { "aria-invalid": true as const, "aria-describedby": `${name}-error` } : {});
  const error = (name: string) =>
    errors[name] ? (
      <p id={`${name}-error`} className="mt-1 text-sm text-red-700" data-field-error>
        {t(errors[name])}
      </p>
    ) : null;
  const zoneRows = [...table.zones.map((z) => ({ key: String(z.id), zone: z })), { key: "new", zone: null }];

  return (
    <>
      <PageHeader title={t("admin.delivery.title")} />
      {Object.keys(errors).length > 0 && (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          {t("admin.delivery.fix")}
        </p>
      )}
      {/* A new form once the saved settings change, so the fields show what was saved. */}
      <Form method="post" className="space-y-6" key={JSON.stringify(table)}>
        <section className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm" aria-labelledby="zones-heading">
          <h2 id="zones-heading" className="font-semibold text-ink">
            {t("admin.delivery.zones")}
          </h2>
          <p className="mt-1 text-sm text-stone-600">{t("admin.delivery.zonesHint")}</p>
          <div className="mt-3 space-y-4">
            {zoneRows.map(({ key, zone }) => (
              <fieldset key={key} className="grid gap-3 rounded-lg border border-stone-200 p-3 sm:grid-cols-[2fr_1fr_2fr]" data-zone={zone?.name ?? "new"}>
                <legend className="px-1 text-sm font-medium text-stone-700">{zone ? zone.name : t("admin.delivery.newZone")}</legend>
                {zone && <input type="hidden" name="zoneId" value={zone.id} />}
                <label className="block text-sm">
                  <span className="block font-medium text-stone-800">{t("admin.delivery.zoneName")}</span>
                  <input name={`zone.${key}.name`} defaultValue={value(`zone.${key}.name`, zone?.name ?? "")} maxLength={60} className={inputClass} {...invalid(`zone.${key}.name`)} />
                  {error(`zone.${key}.name`)}
                </label>
                <label className="block text-sm">
                  <span className="block font-medium text-stone-800">{t("admin.delivery.fee")}</span>
                  <input name={`zone.${key}.fee`} inputMode="decimal" defaultValue={value(`zone.${key}.fee`, zone ? naira(zone.fee) : "")} className={inputClass} {...invalid(`zone.${key}.fee`)} />
                  {error(`zone.${key}.fee`)}
                </label>
                <label className="block text-sm">
                  <span className="block font-medium text-stone-800">{t("admin.delivery.estimate")}</span>
                  <input name={`zone.${key}.estimate`} defaultValue={value(`zone.${key}.estimate`, zone?.estimate ?? "")} maxLength={60} className={inputClass} {...invalid(`zone.${key}.estimate`)} />
                  {error(`zone.${key}.estimate`)}
                </label>
                <div className="flex flex-wrap gap-x-6 gap-y-2 sm:col-span-3">
                  <label className="flex min-h-11 items-center gap-2 text-sm">
                    <input type="checkbox" name={`zone.${key}.pod`} defaultChecked={checked(`zone.${key}.pod`, zone?.payOnDelivery ?? false)} className="h-5 w-5" />
                    {t("admin.delivery.payOnDelivery")}
                  </label>
                  {zone && (
                    <label className="flex min-h-11 items-center gap-2 text-sm">
                      <input type="checkbox" name={`zone.${key}.remove`} defaultChecked={checked(`zone.${key}.remove`, false)} className="h-5 w-5" {...invalid(`zone.${key}.remove`)} />
                      {t("admin.delivery.remove")}
                    </label>
                  )}
                  {error(`zone.${key}.remove`)}
                </div>
              </fieldset>
            ))}
          </div>
        </section>

        <section className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm" aria-labelledby="states-heading">
          <h2 id="states-heading" className="font-semibold text-ink">
            {t("admin.delivery.states")}
          </h2>
          <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {states.map((state) => (
              <label key={state} className="block text-sm">
                <span className="block font-medium text-stone-800">{state}</span>
                <select name={`state.${state}`} defaultValue={value(`state.${state}`, String(table.stateZone[state] ?? ""))} className={inputClass} {...invalid(`state.${state}`)}>
                  {table.zones.map((z) => (
                    <option key={z.id} value={z.id}>
                      {z.name}
                    </option>
                  ))}
                  <option value="new">{t("admin.delivery.newZoneOption")}</option>
                </select>
                {error(`state.${state}`)}
              </label>
            ))}
          </div>
        </section>

        <section className="grid gap-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-2" aria-labelledby="more-heading">
          <h2 id="more-heading" className="font-semibold text-ink sm:col-span-2">
            {t("admin.delivery.more")}
          </h2>
          <label className="block text-sm">
            <span className="block font-medium text-stone-800">{t("admin.delivery.freeFrom")}</span>
            <input name="freeFrom" inputMode="decimal" defaultValue={value("freeFrom", naira(table.freeFrom))} className={inputClass} {...invalid("freeFrom")} />
            <span className="mt-1 block text-xs text-stone-500">{t("admin.delivery.freeFromHint")}</span>
            {error("freeFrom")}
          </label>
          <div className="space-y-3">
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input type="checkbox" name="pickupEnabled" defaultChecked={checked("pickupEnabled", table.pickup.enabled)} className="h-5 w-5" />
              {t("admin.delivery.pickupEnabled")}
            </label>
            <label className="block text-sm">
              <span className="block font-medium text-stone-800">{t("admin.delivery.pickupAddress")}</span>
              <input name="pickupAddress" defaultValue={value("pickupAddress", table.pickup.address)} maxLength={200} className={inputClass} {...invalid("pickupAddress")} />
              {error("pickupAddress")}
            </label>
            <label className="block text-sm">
              <span className="block font-medium text-stone-800">{t("admin.delivery.pickupEstimate")}</span>
              <input name="pickupEstimate" defaultValue={value("pickupEstimate", table.pickup.estimate)} maxLength={60} className={inputClass} {...invalid("pickupEstimate")} />
              {error("pickupEstimate")}
            </label>
          </div>
        </section>

        <button type="submit" className={primaryButton} disabled={busy}>
          {t("admin.delivery.save")}
        </button>
      </Form>
    </>
  );
}
