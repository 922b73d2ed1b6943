import { Form, Link } from "react-router";
import type { PromotionResults, PromotionState } from "~/domain/promotions/admin.server";
import type { Promotion } from "~/domain/promotions/codes.server";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { offerText, PromotionForm, type PromotionFormValues, whenText } from "./promotion-form";
import { PageHeader, primaryButton, secondaryButton, StatusBadge, TableScroller } from "./ui";

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

      <h2 className="mb-3 text-lg font-semibold">{t("promotions.admin.results")}</h2>
      <dl className="mb-4 grid grid-cols-3 gap-3 text-sm">
        {[
          ["ordersCount", String(results.orders)],
          ["discountGiven", formatNaira(results.discount)],
          ["revenue", formatNaira(results.revenue)],
        ].map(([key, value]) => (
          <div key={key} className="rounded-xl border border-stone-200 bg-white p-3">
            <dt className="text-stone-600">{t(`promotions.admin.${key}`)}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`promotion-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {results.latest.length === 0 ? (
        <p className="mb-8 text-stone-600">{t("promotions.admin.noOrders")}</p>
      ) : (
        <TableScroller label={t("promotions.admin.results")} className="mb-8">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("promotions.admin.order")}</th>
                <th className="p-2">{t("promotions.admin.placed")}</th>
                <th className="p-2">{t("promotions.admin.status")}</th>
                <th className="p-2 text-right">{t("promotions.admin.discount")}</th>
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
                  <td className="p-2 text-right tabular-nums">{formatNaira(o.discount)}</td>
                  <td className="p-2 text-right tabular-nums">{formatNaira(o.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
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
