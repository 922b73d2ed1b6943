import { data, Form, Link, useNavigation } from "react-router";
import { offerText, PromotionForm, type PromotionFormValues, whenText } from "~/components/admin/promotion-form";
import { PageHeader, primaryButton, secondaryButton, StatusBadge, TableScroller } from "~/components/admin/ui";
import { requirePermission } from "~/http/staff-guard.server";
import {
  findPromotion,
  parsePromotion,
  promotionChoices,
  promotionFields,
  promotionFormFields,
  promotionResults,
  promotionState,
  setPromotionPaused,
  updatePromotion,
} from "~/domain/promotions/admin.server";
import { formatLagosTime } from "~/lib/dates";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import { formatNaira } from "~/lib/money";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.promotions.$id";

// One discount code (docs/decisions/219): its orders, the discount it gave and the revenue it brought;
// changing it, pausing and resuming it.

function promotionId(params: { id?: string }): number {
  if (!/^\d{1,9}$/.test(params.id ?? "")) throw data("Not found", { status: 404 });
  return Number(params.id);
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePermission(request, context, "promotions");
  const t = requestTranslator(request);
  const id = promotionId(params);
  const promotion = await findPromotion(context.db, id);
  if (!promotion) throw data("Not found", { status: 404 });
  const [results, choices] = await Promise.all([promotionResults(context.db, id), promotionChoices(context.db)]);
  return {
    promotion,
    state: promotionState(promotion),
    fields: promotionFields(promotion),
    results,
    choices,
    title: t("admin.meta.title", { page: promotion.code }),
  };
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
  const id = promotionId(params);
  const form = await readForm(request);
  const intent = form.get("intent");
  const here = `/admin/promotions/${id}`;
  if (intent === "pause" || intent === "resume") {
    const paused = await setPromotionPaused(context.db, admin.id, id, intent === "pause");
    if (!paused) throw data("Not found", { status: 404 });
    return redirectWithToast(context, here, { type: "success", key: intent === "pause" ? "promotions.admin.paused" : "promotions.admin.resumed", values: { code: paused.code } });
  }
  if (intent !== "save") return data({ errors: { form: "common.error.badForm" } as Record<string, string>, errorValues: {}, values: null }, { status: 400 });
  const fields = promotionFormFields(form);
  const parsed = await parsePromotion(context.db, fields);
  if (!parsed.ok) return data({ errors: parsed.errors as Record<string, string>, errorValues: parsed.values, values: fields }, { status: 400 });
  const saved = await updatePromotion(context.db, admin.id, id, parsed.input);
  if (!saved) throw data("Not found", { status: 404 });
  if (!saved.ok) return data({ errors: saved.errors as Record<string, string>, errorValues: {}, values: fields }, { status: 409 });
  return redirectWithToast(context, here, { type: "success", key: "promotions.admin.saved", values: { code: saved.code } });
}

export default function AdminPromotion({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const busy = useNavigation().state === "submitting";
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
