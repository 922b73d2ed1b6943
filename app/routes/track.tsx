import { data, Form } from "react-router";
import { TrackedOrderSummary, type TrackTexts } from "~/components/track-order";
import { trackOrder } from "~/domain/orders/order-tracking.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { formatLagosTime } from "~/lib/dates";
import { readForm } from "~/http/form.server";
import { detectLocale, requestTranslator } from "~/http/language.server";
import { paymentLabel } from "~/lib/order-text";
import type { Route } from "./+types/track";

/**
 * "Track your order" (docs/decisions/217): an order number plus the phone or e-mail used shows that
 * order's status, payment and delivery; rate limited against guessing. Every text is written here.
 */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

const FIELDS = ["title", "intro", "number", "numberHint", "contact", "submit", "status", "payment", "delivery", "total", "pickup", "linkHint"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  const t = requestTranslator(request);
  return { texts: Object.fromEntries(FIELDS.map((k) => [k, t(`purchase.track.${k}`)])) as TrackTexts };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.texts.title} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const t = requestTranslator(request);
  const values = { number: String(form.get("number") ?? "").slice(0, 100), contact: String(form.get("contact") ?? "").slice(0, 300) };
  try {
    const result = await trackOrder(context, values);
    if (result.ok) {
      const { order } = result;
      return {
        values,
        error: null,
        errors: {},
        order: {
          heading: t("purchase.track.result", { number: order.number }),
          placed: t("purchase.track.placed", { date: formatLagosTime(order.createdAt, detectLocale(request).locale) }),
          status: t(`account.orderStatus.${order.status}`),
          payment: paymentLabel(t, order),
          delivery: order.deliveryMethod === "pickup" ? t("purchase.track.pickup") : [order.deliveryZone, order.deliveryEstimate].filter(Boolean).join(" · "),
          total: order.total,
        },
      };
    }
    if (result.problem === "invalid") {
      const errors = Object.fromEntries(Object.entries(result.errors).map(([k, v]) => [k, t(v)]));
      return data({ values, error: null, errors, order: null }, { status: 400 });
    }
    return data({ values, error: t("purchase.track.notFound"), errors: {}, order: null }, { status: 404 });
  } catch (error) {
    if (!(error instanceof TooManyAttempts)) throw error;
    return data({ values, error: t("purchase.track.tooMany"), errors: {}, order: null }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
}

export default function TrackPage({ loaderData, actionData }: Route.ComponentProps) {
  const { texts } = loaderData;
  const errors: { number?: string; contact?: string } = actionData?.errors ?? {};
  const field = (name: "number" | "contact", props: { autoComplete?: string; hint?: string }) => (
    <div>
      <label htmlFor={`track-${name}`} className="text-sm font-medium">{texts[name]}</label>
      <input
        id={`track-${name}`}
        name={name}
        required
        maxLength={name === "number" ? 20 : 254}
        autoComplete={props.autoComplete}
        defaultValue={actionData?.values[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={[errors[name] ? `track-${name}-error` : "", props.hint ? `track-${name}-hint` : ""].filter(Boolean).join(" ") || undefined}
        className="mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base aria-[invalid=true]:border-rose-600"
      />
      {props.hint && <p id={`track-${name}-hint`} className="mt-1 text-sm text-stone-600">{props.hint}</p>}
      {errors[name] && <p id={`track-${name}-error`} className="mt-1 text-sm text-rose-700">{errors[name]}</p>}
    </div>
  );
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="font-serif text-2xl font-semibold">{texts.title}</h1>
      <p className="mt-2 text-stone-600">{texts.intro}</p>
      {actionData?.error && <p role="alert" className="mt-4 rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-900">{actionData.error}</p>}
      <Form method="post" className="mt-6 space-y-4">
        {field("number", { hint: texts.numberHint })}
        {field("contact", { autoComplete: "email" })}
        <button type="submit" className="rounded-full bg-ink px-5 py-2.5 font-medium text-white">{texts.submit}</button>
      </Form>
      {actionData?.order && <TrackedOrderSummary order={actionData.order} texts={texts} />}
    </div>
  );
}
