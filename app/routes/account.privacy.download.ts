import { data } from "react-router";
import { accountData, downloadResponse } from "~/domain/privacy/data-rights.server";
import { requireUser } from "~/http/session.server";
import { readForm } from "~/http/form.server";
import type { Route } from "./+types/account.privacy.download";

/** Everything the shop keeps about the signed-in shopper, as a JSON file (docs/decisions/221). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  // Nothing is read from the form, but a body that is not one is refused like everywhere else.
  await readForm(request);
  return downloadResponse(await accountData(context, user));
}

export function loader() {
  throw data("Not Found", { status: 404 });
}
