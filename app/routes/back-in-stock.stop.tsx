import { StopLinkPage } from "~/components/stop-link-page";
import { knownStopToken, stopBackInStockAlerts } from "~/domain/catalogue/back-in-stock.server";
import { stopLinkAction, stopLinkPage } from "~/http/stop-link.server";
import type { Route } from "./+types/back-in-stock.stop";

/**
 * The unsubscribe link of back-in-stock e-mails (docs/decisions/133). Its few texts are written on the
 * server: browsers get no product texts for this page (docs/decisions/140).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return stopLinkPage(request, "product.backInStock.stop", (token) => knownStopToken(context.db, token));
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.title ?? ""} | Unboxed` }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  return stopLinkAction(
    request,
    "product.backInStock.stop",
    (token) => stopBackInStockAlerts(context.db, token),
    (t, email) => t("product.backInStock.stop.done", { email }),
  );
}

export default function StopBackInStock({ loaderData, actionData }: Route.ComponentProps) {
  return <StopLinkPage texts={loaderData.texts} token={loaderData.token} message={actionData?.message} />;
}
