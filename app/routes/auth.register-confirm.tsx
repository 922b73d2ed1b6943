import { data, Form, Link } from "react-router";
import { AuthCard, FormAlert, SubmitButton } from "~/components/auth-form";
import { confirmRegistration, registrationState } from "~/domain/accounts/accounts.server";
import { signIn } from "~/http/sign-in.server";
import { readForm, textFields } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/auth.register-confirm";

// The e-mailed link that finishes a registration (docs/decisions/083). Opening it only shows a button:
// mail scanners that open links create nothing; the shopper's press creates the account and signs in.

// The token is in the address: it must not travel on to any other site, nor be kept by a cache. Our
// own pages still see where the button's post came from (with no-referrer the browser would send
// Origin: null, and the cross-site check would refuse it).
export function headers() {
  return { "Referrer-Policy": "same-origin", "Cache-Control": "no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const found = await registrationState(context.db, token);
  const status = found.state === "valid" ? 200 : found.state === "invalid" ? 400 : 410;
  return data(
    {
      state: found.state,
      firstName: found.state === "valid" ? found.firstName : "",
      token: found.state === "valid" ? token : "",
      title: requestTranslator(request)("auth.meta.confirm"),
    },
    { status },
  );
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { token } = textFields(await readForm(request), ["token"]);
  const result = await confirmRegistration(context, token.slice(0, 200));
  if (result.ok) {
    return signIn(request, context, result.userId, result.redirectTo, { type: "success", key: "auth.toast.registered", values: { name: result.firstName } });
  }
  // Confirmed already (another tab, another link): the account is there, so sign in.
  if (result.reason === "emailTaken") return redirectWithToast(context, "/auth", { type: "info", key: "auth.toast.alreadyRegistered" });
  return data({ state: result.reason }, { status: result.reason === "invalid" ? 400 : 410 });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function ConfirmRegistration({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const state = actionData?.state ?? loaderData.state;
  if (state !== "valid") {
    return (
      <AuthCard title={t("auth.confirm.title")}>
        <FormAlert message={t(`auth.confirm.${state}`)} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Link
            to="/auth/register"
            className="inline-flex min-h-11 items-center justify-center rounded-full bg-ink px-5 py-2.5 font-medium text-white hover:bg-stone-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            {t("auth.confirm.registerAgain")}
          </Link>
          <Link
            to="/auth"
            className="inline-flex min-h-11 items-center justify-center rounded-full border border-stone-300 px-5 py-2.5 font-medium text-ink hover:bg-stone-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            {t("auth.confirm.signIn")}
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.confirm.title")} intro={t("auth.confirm.intro", { name: loaderData.firstName })}>
      <Form method="post">
        <input type="hidden" name="token" value={loaderData.token} />
        <SubmitButton>{t("auth.confirm.submit")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
