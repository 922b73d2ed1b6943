import type { PromotionResults, PromotionState } from "~/domain/promotions/admin.server";
import type { Promotion } from "~/domain/promotions/codes.server";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { offerText, PromotionForm, type PromotionFormValues, whenText } from "./promotion-form";
import { PromotionHeader, PromotionResultsPanel } from "./promotion-page";

/** One discount code (docs/decisions/219): its orders, the discount it gave and the revenue it brought; its form, pausing and resuming it. */
export function PromotionScreen({
  loaderData,
  actionData,
  busy,
}: {
  loaderData: { promotion: Promotion; state: PromotionState; fields: PromotionFormValues; results: PromotionResults; choices: { categories: { id: number; name: string }[]; brands: { id: number; name: string }[] } };
  actionData?: { errors: Record<string, string>; errorValues?: Record<string, string>; values: PromotionFormValues | null };
  busy: boolean;
}) {
  const { t, locale } = useT();
  const { promotion, results } = loaderData;
  const values: PromotionFormValues = actionData?.values ?? loaderData.fields;
  const paused = promotion.pausedAt !== null;
  return (
    <>
      <PromotionHeader title={promotion.code} back={{ to: "/admin/promotions", label: t("promotions.admin.back") }} paused={paused} />
      <p className="mb-6 text-sm text-stone-700" data-testid="promotion-summary">
        {offerText(t, promotion.kind, promotion.value)} · {whenText(t, locale, promotion.startsAt, promotion.endsAt)} · {t(`promotions.admin.states.${loaderData.state}`)}
      </p>

      <PromotionResultsPanel
        heading={t("promotions.admin.results")}
        testIdPrefix="promotion"
        gridClass="grid-cols-3"
        figures={[
          { key: "ordersCount", label: t("promotions.admin.ordersCount"), value: String(results.orders) },
          { key: "discountGiven", label: t("promotions.admin.discountGiven"), value: formatNaira(results.discount) },
          { key: "revenue", label: t("promotions.admin.revenue"), value: formatNaira(results.revenue) },
        ]}
        amountHeading={t("promotions.admin.discount")}
        orders={results.latest.map((o) => ({ ...o, amount: formatNaira(o.discount), total: formatNaira(o.total) }))}
        noOrders={t("promotions.admin.noOrders")}
      />
      <PromotionForm
        values={values}
        errors={actionData?.errors ?? {}}
        errorValues={actionData?.errorValues}
        choices={loaderData.choices}
        submitLabel={t("promotions.admin.save")}
        busy={busy}
      />
    </>
  );
}
