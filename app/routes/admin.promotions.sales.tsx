import { data, Link, useNavigation } from "react-router";
import { offerText, whenText } from "~/components/admin/promotion-form";
import { EMPTY_SALE, SaleForm, type SaleFormValues } from "~/components/admin/sale-form";
import { PageHeader, TableScroller } from "~/components/admin/ui";
import { requirePermission } from "~/http/staff-guard.server";
import { promotionChoices } from "~/domain/promotions/admin.server";
import { createSale, listSales, parseSale, saleFormFields } from "~/domain/promotions/sales.server";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.promotions.sales";

// Automatic sales (docs/decisions/225): the list, and the form for a new one.

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "promotions");
  const t = requestTranslator(request);
  const [sales, choices] = await Promise.all([listSales(context.db), promotionChoices(context.db)]);
  return { sales, choices, title: t("admin.meta.title", { page: t("promotions.sales.title") }) };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("promotions")]);
  return data;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "promotions");
  const fields = saleFormFields(await readForm(request));
  const parsed = await parseSale(context.db, fields);
  if (!parsed.ok) return data({ errors: parsed.errors as Record<string, string>, errorValues: parsed.values, values: fields }, { status: 400 });
  const saved = await createSale(context.db, admin.id, parsed.input);
  return redirectWithToast(context, `/admin/promotions/sales/${saved.id}`, { type: "success", key: "promotions.sales.created", values: { name: parsed.input.name } });
}

export default function AdminSales({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const busy = useNavigation().state === "submitting";
  const values: SaleFormValues = actionData?.values ?? EMPTY_SALE;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/promotions" className="underline underline-offset-2">
          {t("promotions.admin.back")}
        </Link>
      </p>
      <PageHeader title={t("promotions.sales.title")} />
      <p className="mb-4 max-w-3xl text-sm text-stone-600">{t("promotions.sales.intro")}</p>
      {loaderData.sales.length === 0 ? (
        <p className="mb-8 text-stone-600">{t("promotions.sales.empty")}</p>
      ) : (
        <TableScroller label={t("promotions.sales.title")} className="mb-8">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("promotions.sales.columns.name")}</th>
                <th className="p-2">{t("promotions.sales.columns.offer")}</th>
                <th className="p-2">{t("promotions.sales.columns.when")}</th>
                <th className="p-2">{t("promotions.sales.columns.sizes")}</th>
                <th className="p-2">{t("promotions.sales.columns.state")}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.sales.map((s) => (
                <tr key={s.id} className="border-b border-stone-100">
                  <td className="p-2 font-medium">
                    <Link to={`/admin/promotions/sales/${s.id}`} className="underline underline-offset-2">
                      {s.name}
                    </Link>
                  </td>
                  <td className="p-2">{offerText(t, s.kind, s.value)}</td>
                  <td className="p-2">{whenText(t, locale, s.startsAt, s.endsAt)}</td>
                  <td className="p-2 tabular-nums">{s.sizes}</td>
                  <td className="p-2" data-testid="sale-state">
                    {t(`promotions.sales.states.${s.state}`)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
      <h2 className="mb-3 text-lg font-semibold">{t("promotions.sales.new")}</h2>
      <SaleForm values={values} errors={actionData?.errors ?? {}} errorValues={actionData?.errorValues} choices={loaderData.choices} submitLabel={t("promotions.sales.create")} busy={busy} />
    </>
  );
}
