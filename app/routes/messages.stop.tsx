import { data, Form } from "react-router";
import { knownConsentToken, withdrawByToken } from "~/domain/messages/consent.server";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import type { Route } from "./+types/messages.stop";

/**
 * The stop link in every marketing message (docs/decisions/220): one button ends the opt-in (a mail
 * or link scanner that only opens the page stops nothing). Its texts are written on the server.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const t = requestTranslator(request);
  const known = await knownConsentToken(context.db, token);
  const texts = { title: t("messages.stop.title"), ask: t("messages.stop.ask"), confirm: t("messages.stop.confirm"), unknown: t("messages.stop.unknown") };
  return data({ token: known ? token : null, title: texts.title, texts }, { status: known ? 200 : 404, headers: { "Cache-Control": "private, no-store" } });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.title ?? ""} | Unboxed` }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const stopped = await withdrawByToken(context.db, String(form.get("token") ?? ""));
  const t = requestTranslator(request);
  return data({ message: t(stopped ? "messages.stop.done" : "messages.stop.unknown") }, { status: stopped ? 200 : 404 });
}

export default function StopMessages({ loaderData, actionData }: Route.ComponentProps) {
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
