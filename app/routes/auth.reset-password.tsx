import { data, Form, Link } from "react-router";
import { AuthCard, FormAlert, NewPasswordFields, SubmitButton } from "~/components/auth-form";
import { resetPassword, resetPasswordSchema, resetTokenState } from "~/domain/accounts/accounts.server";
import { destroySession } from "~/http/session.server";
import { fieldErrors, readForm, textFields } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/auth.reset-password";

// The token is in the address: it must not travel on to any other site, nor be kept by a cache.
export function headers() {
  return { "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = await resetTokenState(context.db, token);
  // A spent link is gone (410); a made-up or damaged one is a bad request (400).
  const status = state === "valid" ? 200 : state === "invalid" ? 400 : 410;
  return data(
    { state, token: state === "valid" ? token : "", title: requestTranslator(request)("auth.meta.reset") },
    { status },
  );
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const fields = textFields(form, ["token", "password", "confirmPassword"]);
  const parsed = resetPasswordSchema.safeParse(fields);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), state: null }, { status: 400 });
  const result = await resetPassword(context, parsed.data);
  if (!result.ok) return data({ errors: {} as Record<string, string>, state: result.reason }, { status: 410 });
  // Every session of the account has ended, this browser's included.
  const cleared = await destroySession(request, context);
  return redirectWithToast(context, "/auth", { type: "success", key: "auth.toast.passwordReset" }, { headers: { "Set-Cookie": cleared } });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const state = actionData?.state ?? loaderData.state;
  const errors = actionData?.errors ?? {};
  if (state !== "valid") {
    return (
      <AuthCard title={t("auth.reset.title")}>
        <FormAlert message={t(`auth.reset.${state}`)} />
        <Link
          to="/auth/forgot-password"
          className="inline-flex min-h-11 w-full items-center justify-center rounded-full bg-ink px-5 py-2.5 font-medium text-white hover:bg-stone-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          {t("auth.reset.askAgain")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.reset.title")} intro={t("auth.reset.intro")}>
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields errors={errors} confirm />
        <SubmitButton>{t("auth.reset.submit")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
