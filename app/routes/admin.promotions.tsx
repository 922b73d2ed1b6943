import { data, Link, useNavigation } from "react-router";
import { EMPTY_PROMOTION, offerText, PromotionForm, type PromotionFormValues, whenText } from "~/components/admin/promotion-form";
import { PageHeader, TableScroller } from "~/components/admin/ui";
import { requirePermission } from "~/http/staff-guard.server";
import { createPromotion, listPromotions, parsePromotion, promotionChoices, promotionFormFields } from "~/domain/promotions/admin.server";
import { createSale, listSales, parseSale, saleFormFields } from "~/domain/promotions/sales.server";
import { EMPTY_SALE } from "~/components/admin/sale-form";
import { SalesSection } from "~/components/admin/sale-screens";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.promotions";

// Discount codes (docs/decisions/219) and automatic sales (docs/decisions/225): their lists, and the
// forms for a new one.

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "promotions");
  const t = requestTranslator(request);
  const [promotions, sales, choices] = await Promise.all([listPromotions(context.db), listSales(context.db), promotionChoices(context.db)]);
  return { promotions, sales, choices, title: t("admin.meta.title", { page: t("promotions.admin.title") }) };
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
  const form = await readForm(request);
  if (form.get("intent") === "sale") {
    const fields = saleFormFields(form);
    const parsed = await parseSale(context.db, fields);
    if (!parsed.ok) return data({ form: "sale" as const, errors: parsed.errors as Record<string, string>, errorValues: parsed.values, values: fields }, { status: 400 });
    const saved = await createSale(context.db, admin.id, parsed.input);
    return redirectWithToast(context, `/admin/promotions/sale-${saved.id}`, { type: "success", key: "promotions.sales.created", values: { name: parsed.input.name } });
  }
  const fields = promotionFormFields(form);
  const parsed = await parsePromotion(context.db, fields);
  if (!parsed.ok) return data({ form: "code" as const, errors: parsed.errors as Record<string, string>, errorValues: parsed.values, values: fields }, { status: 400 });
  const saved = await createPromotion(context.db, admin.id, parsed.input);
  if (!saved.ok) return data({ form: "code" as const, errors: saved.errors as Record<string, string>, errorValues: {}, values: fields }, { status: 409 });
  return redirectWithToast(context, `/admin/promotions/${saved.id}`, { type: "success", key: "promotions.admin.created", values: { code: saved.code } });
}

export default function AdminPromotions({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const busy = useNavigation().state === "submitting";
  const codeAnswer = actionData?.form === "code" ? actionData : null;
  const saleAnswer = actionData?.form === "sale" ? actionData : null;
  const values: PromotionFormValues = codeAnswer?.values ?? EMPTY_PROMOTION;
  return (
    <>
      <PageHeader title={t("promotions.admin.title")} />
      <p className="mb-4 text-sm text-stone-600">{t("promotions.admin.intro")}</p>
      <p className="mb-6 text-sm">
        <a href="#sales" className="font-medium underline underline-offset-2">
          {t("promotions.sales.link")}
        </a>{" "}
        <span className="text-stone-600">— {t("promotions.sales.linkHint")}</span>
      </p>
      {loaderData.promotions.length === 0 ? (
        <p className="mb-8 text-stone-600">{t("promotions.admin.empty")}</p>
      ) : (
        <TableScroller label={t("promotions.admin.title")} className="mb-8">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("promotions.admin.columns.code")}</th>
                <th className="p-2">{t("promotions.admin.columns.offer")}</th>
                <th className="p-2">{t("promotions.admin.columns.when")}</th>
                <th className="p-2">{t("promotions.admin.columns.uses")}</th>
                <th className="p-2">{t("promotions.admin.columns.state")}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.promotions.map((p) => (
                <tr key={p.id} className="border-b border-stone-100">
                  <td className="p-2 font-medium">
                    <Link to={`/admin/promotions/${p.id}`} className="underline underline-offset-2">
                      {p.code}
                    </Link>
                  </td>
                  <td className="p-2">{offerText(t, p.kind, p.value)}</td>
                  <td className="p-2">{whenText(t, locale, p.startsAt, p.endsAt)}</td>
                  <td className="p-2 tabular-nums">{p.usageLimit === null ? p.uses : t("promotions.admin.usesOf", { uses: p.uses, limit: p.usageLimit })}</td>
                  <td className="p-2" data-testid="promotion-state">
                    {t(`promotions.admin.states.${p.state}`)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
      <h2 className="mb-3 text-lg font-semibold">{t("promotions.admin.new")}</h2>
      <PromotionForm
        values={values}
        errors={codeAnswer?.errors ?? {}}
        errorValues={codeAnswer?.errorValues}
        choices={loaderData.choices}
        submitLabel={t("promotions.admin.create")}
        busy={busy}
      />
      <SalesSection
        sales={loaderData.sales}
        choices={loaderData.choices}
        values={saleAnswer?.values ?? EMPTY_SALE}
        errors={saleAnswer?.errors ?? {}}
        errorValues={saleAnswer?.errorValues}
        busy={busy}
      />
    </>
  );
}
