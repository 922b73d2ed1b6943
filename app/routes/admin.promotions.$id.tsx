import { data, useNavigation } from "react-router";
import { PromotionScreen } from "~/components/admin/promotion-screen";
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
import { readForm } from "~/http/form.server";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { SaleScreen } from "~/components/admin/sale-screens";
import { deleteSale, findSale, parseSale, saleFields, saleFormFields, saleResults, saleState, setSalePaused, updateSale } from "~/domain/promotions/sales.server";
import type { Route } from "./+types/admin.promotions.$id";

// One discount code (docs/decisions/219): its orders, the discount it gave and the revenue it brought;
// changing it, pausing and resuming it. One automatic sale likewise (docs/decisions/225), as
// /admin/promotions/sale-ID.

/** A code's id ("12") or a sale's ("sale-12"); anything else is not found. */
function promotionId(params: { id?: string }): { sale: boolean; id: number } {
  const m = /^(sale-)?(\d{1,9})$/.exec(params.id ?? "");
  if (!m) throw data("Not found", { status: 404 });
  return { sale: m[1] !== undefined, id: Number(m[2]) };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePermission(request, context, "promotions");
  const t = requestTranslator(request);
  const { sale: isSale, id } = promotionId(params);
  if (isSale) {
    const sale = await findSale(context.db, id);
    if (!sale) throw data("Not found", { status: 404 });
    const [results, choices] = await Promise.all([saleResults(context.db, id), promotionChoices(context.db)]);
    const askingDelete = new URL(request.url).searchParams.get("delete") === "1";
    return { kind: "sale" as const, sale, state: saleState(sale), fields: saleFields(sale), results, choices, askingDelete, title: t("admin.meta.title", { page: sale.name }) };
  }
  const promotion = await findPromotion(context.db, id);
  if (!promotion) throw data("Not found", { status: 404 });
  const [results, choices] = await Promise.all([promotionResults(context.db, id), promotionChoices(context.db)]);
  return {
    kind: "code" as const,
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
  const { sale: isSale, id } = promotionId(params);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (isSale) return saleAction(admin.id, context, id, form);
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

/** A sale's form: pausing, resuming, saving or deleting it; the prices follow before the page comes back. */
async function saleAction(actorId: number, context: Route.ActionArgs["context"], id: number, form: FormData) {
  const intent = form.get("intent");
  const here = `/admin/promotions/sale-${id}`;
  if (intent === "pause" || intent === "resume") {
    const paused = await setSalePaused(context.db, actorId, id, intent === "pause");
    if (!paused) throw data("Not found", { status: 404 });
    return redirectWithToast(context, here, { type: "success", key: intent === "pause" ? "promotions.sales.paused" : "promotions.sales.resumed", values: { name: paused.name } });
  }
  if (intent === "delete") {
    const deleted = await deleteSale(context.db, actorId, id);
    if (!deleted) throw data("Not found", { status: 404 });
    if (!deleted.ok) return data({ errors: { form: "promotions.sales.errors.holding" } as Record<string, string>, errorValues: {}, values: null, saleValues: null }, { status: 409 });
    return redirectWithToast(context, "/admin/promotions#sales", { type: "success", key: "promotions.sales.deleted", values: { name: deleted.name } });
  }
  if (intent !== "save") return data({ errors: { form: "common.error.badForm" } as Record<string, string>, errorValues: {}, values: null, saleValues: null }, { status: 400 });
  const fields = saleFormFields(form);
  const parsed = await parseSale(context.db, fields);
  if (!parsed.ok) return data({ errors: parsed.errors as Record<string, string>, errorValues: parsed.values, values: null, saleValues: fields }, { status: 400 });
  const saved = await updateSale(context.db, actorId, id, parsed.input);
  if (!saved) throw data("Not found", { status: 404 });
  return redirectWithToast(context, here, { type: "success", key: "promotions.sales.saved", values: { name: parsed.input.name } });
}

export default function AdminPromotion({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (loaderData.kind === "sale") {
    const answer = actionData && "saleValues" in actionData ? actionData : null;
    return (
      <SaleScreen
        sale={loaderData.sale}
        state={loaderData.state}
        results={loaderData.results}
        choices={loaderData.choices}
        values={answer?.saleValues ?? loaderData.fields}
        errors={answer?.errors ?? {}}
        errorValues={answer?.errorValues}
        busy={busy}
        askingDelete={loaderData.askingDelete}
      />
    );
  }
  return <PromotionScreen loaderData={loaderData} actionData={actionData && !("saleValues" in actionData) ? actionData : undefined} busy={busy} />;
}
