import { data, Form, Link, useNavigation } from "react-router";
import { offerText, whenText } from "~/components/admin/promotion-form";
import { SaleForm, type SaleFormValues } from "~/components/admin/sale-form";
import { PageHeader, primaryButton, secondaryButton, StatusBadge, TableScroller } from "~/components/admin/ui";
import { requirePermission } from "~/http/staff-guard.server";
import { promotionChoices } from "~/domain/promotions/admin.server";
import { findSale, parseSale, saleFields, saleFormFields, saleResults, saleState, setSalePaused, updateSale } from "~/domain/promotions/sales.server";
import { formatLagosTime } from "~/lib/dates";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import { formatNaira } from "~/lib/money";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.promotions.sales.$id";

// One automatic sale (docs/decisions/225): what it sold, changing it, pausing and resuming it.

function saleId(params: { id?: string }): number {
  if (!/^\d{1,9}$/.test(params.id ?? "")) throw data("Not found", { status: 404 });
  return Number(params.id);
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePermission(request, context, "promotions");
  const t = requestTranslator(request);
  const id = saleId(params);
  const sale = await findSale(context.db, id);
  if (!sale) throw data("Not found", { status: 404 });
  const [results, choices] = await Promise.all([saleResults(context.db, id), promotionChoices(context.db)]);
  return { sale, state: saleState(sale), fields: saleFields(sale), results, choices, title: t("admin.meta.title", { page: sale.name }) };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("promotions")]);
  return data;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "promotions");
  const id = saleId(params);
  const form = await readForm(request);
  const intent = form.get("intent");
  const here = `/admin/promotions/sales/${id}`;
  if (intent === "pause" || intent === "resume") {
    const paused = await setSalePaused(context.db, admin.id, id, intent === "pause");
    if (!paused) throw data("Not found", { status: 404 });
    return redirectWithToast(context, here, { type: "success", key: intent === "pause" ? "promotions.sales.paused" : "promotions.sales.resumed", values: { name: paused.name } });
  }
  if (intent !== "save") return data({ errors: { form: "common.error.badForm" } as Record<string, string>, errorValues: {}, values: null }, { status: 400 });
  const fields = saleFormFields(form);
  const parsed = await parseSale(context.db, fields);
  if (!parsed.ok) return data({ errors: parsed.errors as Record<string, string>, errorValues: parsed.values, values: fields }, { status: 400 });
  const saved = await updateSale(context.db, admin.id, id, parsed.input);
  if (!saved) throw data("Not found", { status: 404 });
  return redirectWithToast(context, here, { type: "success", key: "promotions.sales.saved", values: { name: parsed.input.name } });
}

export default function AdminSale({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const busy = useNavigation().state === "submitting";
  const { sale, results } = loaderData;
  const values: SaleFormValues = actionData?.values ?? loaderData.fields;
  const paused = sale.pausedAt !== null;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/promotions/sales" className="underline underline-offset-2">
          {t("promotions.sales.back")}
        </Link>
      </p>
      <PageHeader title={sale.name}>
        <Form method="post">
          <input type="hidden" name="intent" value={paused ? "resume" : "pause"} />
          <button type="submit" className={paused ? primaryButton : secondaryButton}>
            {t(paused ? "promotions.admin.resume" : "promotions.admin.pause")}
          </button>
        </Form>
      </PageHeader>
      <p className="mb-6 text-sm text-stone-700" data-testid="sale-summary">
        {offerText(t, sale.kind, sale.value)} · {whenText(t, locale, sale.startsAt, sale.endsAt)} · {t(`promotions.sales.states.${loaderData.state}`)}
      </p>
      {actionData?.errors?.form && <p className="mb-4 text-sm text-red-700">{t(actionData.errors.form)}</p>}

      <h2 className="mb-3 text-lg font-semibold">{t("promotions.sales.results")}</h2>
      <dl className="mb-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
        {[
          ["sizesNow", String(results.sizesNow)],
          ["orders", String(results.orders)],
          ["bottles", String(results.bottles)],
          ["revenue", formatNaira(results.revenue)],
          ["markdown", formatNaira(results.markdown)],
        ].map(([key, value]) => (
          <div key={key} className="rounded-xl border border-stone-200 bg-white p-3">
            <dt className="text-stone-600">{t(`promotions.sales.${key}`)}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`sale-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {results.latest.length === 0 ? (
        <p className="mb-8 text-stone-600">{t("promotions.sales.noOrders")}</p>
      ) : (
        <TableScroller label={t("promotions.sales.results")} className="mb-8">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("promotions.admin.order")}</th>
                <th className="p-2">{t("promotions.admin.placed")}</th>
                <th className="p-2">{t("promotions.admin.status")}</th>
                <th className="p-2 text-right">{t("promotions.sales.bottles")}</th>
                <th className="p-2 text-right">{t("promotions.admin.total")}</th>
              </tr>
            </thead>
            <tbody>
              {results.latest.map((o) => (
                <tr key={o.number} className="border-b border-stone-100">
                  <td className="p-2">
                    <Link to={`/admin/orders/${o.number}`} className="underline underline-offset-2">
                      {o.number}
                    </Link>
                  </td>
                  <td className="p-2">{formatLagosTime(o.createdAt, locale)}</td>
                  <td className="p-2">
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="p-2 text-right tabular-nums">{o.bottles}</td>
                  <td className="p-2 text-right tabular-nums">{formatNaira(o.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
      <SaleForm values={values} errors={actionData?.errors ?? {}} errorValues={actionData?.errorValues} choices={loaderData.choices} submitLabel={t("promotions.admin.save")} busy={busy} />
    </>
  );
}
