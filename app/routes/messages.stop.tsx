import { StopLinkPage } from "~/components/stop-link-page";
import { knownConsentToken, withdrawByToken } from "~/domain/messages/consent.server";
import { stopLinkAction, stopLinkPage } from "~/http/stop-link.server";
import type { Route } from "./+types/messages.stop";

/** The stop link in every marketing message (docs/decisions/220): one button ends the opt-in. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return stopLinkPage(request, "messages.stop", (token) => knownConsentToken(context.db, token));
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.title ?? ""} | Unboxed` }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  return stopLinkAction(
    request,
    "messages.stop",
    async (token) => ((await withdrawByToken(context.db, token)) ? true : null),
    (t) => t("messages.stop.done"),
  );
}

export default function StopMessages({ loaderData, actionData }: Route.ComponentProps) {
  return <StopLinkPage texts={loaderData.texts} token={loaderData.token} message={actionData?.message} />;
}
