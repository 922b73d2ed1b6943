import { data, Form } from "react-router";
import { knownStopToken, stopBackInStockAlerts } from "~/domain/catalogue/back-in-stock.server";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import type { Route } from "./+types/back-in-stock.stop";

/**
 * The unsubscribe link of back-in-stock e-mails (docs/decisions/133). Opening it asks first; only the
 * button stops the alerts, so a mail scanner following links stops nothing. Its few texts are written
 * on the server: browsers get no product texts for this page (docs/decisions/140).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const t = requestTranslator(request);
  const known = await knownStopToken(context.db, token);
  const texts = {
    title: t("product.backInStock.stop.title"),
    ask: t("product.backInStock.stop.ask"),
    confirm: t("product.backInStock.stop.confirm"),
    unknown: t("product.backInStock.stop.unknown"),
  };
  return data({ token: known ? token : null, title: texts.title, texts }, { status: known ? 200 : 404, headers: { "Cache-Control": "private, no-store" } });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.title ?? ""} | Unboxed` }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const email = await stopBackInStockAlerts(context.db, String(form.get("token") ?? ""));
  const t = requestTranslator(request);
  const message = email ? t("product.backInStock.stop.done", { email }) : t("product.backInStock.stop.unknown");
  return data({ email, message }, { status: email ? 200 : 404 });
}

export default function StopBackInStock({ loaderData, actionData }: Route.ComponentProps) {
  const { texts } = loaderData;
  return (
    <article className="prose-page">
      <h1>{texts.title}</h1>
      {actionData ? (
        <p role="status">{actionData.message}</p>
      ) : loaderData.token ? (
        <Form method="post" className="not-prose space-y-4">
          <p>{texts.ask}</p>
          <input type="hidden" name="token" value={loaderData.token} />
          <button type="submit" className="btn">
            {texts.confirm}
          </button>
        </Form>
      ) : (
        <p>{texts.unknown}</p>
      )}
    </article>
  );
}
