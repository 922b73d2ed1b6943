import { redirect } from "react-router";
import { destroySession } from "~/http/session.server";
import { readForm } from "~/http/form.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/auth.logout";

// Signing out changes state, so only a POST (from our own pages: see the Origin check) does it.
export async function loader() {
  throw redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  // Nothing is read from the form, but a body that is not one is refused like everywhere else.
  await readForm(request);
  const cleared = await destroySession(request, context);
  return redirectWithToast(context, "/", { type: "success", key: "auth.toast.signedOut" }, { headers: { "Set-Cookie": cleared } });
}
