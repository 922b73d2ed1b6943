import { Form, Link } from "react-router";
import type { PromotionResults, PromotionState } from "~/domain/promotions/admin.server";
import type { Promotion } from "~/domain/promotions/codes.server";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { offerText, PromotionForm, type PromotionFormValues, whenText } from "./promotion-form";
import { PromotionResultsPanel } from "./promotion-results";
import { PageHeader, primaryButton, secondaryButton } from "./ui";

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
      <p className="mb-2 text-sm">
        <Link to="/admin/promotions" className="underline underline-offset-2">
          {t("promotions.admin.back")}
        </Link>
      </p>
      <PageHeader title={promotion.code}>
        <Form method="post">
          <input type="hidden" name="intent" value={paused ? "resume" : "pause"} />
          <button type="submit" className={paused ? primaryButton : secondaryButton}>
            {t(paused ? "promotions.admin.resume" : "promotions.admin.pause")}
          </button>
        </Form>
      </PageHeader>
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
