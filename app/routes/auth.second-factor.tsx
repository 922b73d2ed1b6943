import { Form, Link, redirect } from "react-router";
import { AuthCard, FormAlert, SubmitButton, TextField } from "~/components/auth-form";
import { signIn } from "~/http/sign-in.server";
import { checkSecondFactorPaced } from "~/domain/accounts/second-factor.server";
import { closeChallenge, openChallenge } from "~/http/second-factor.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { formFailure, passOnRetryAfter, readForm, textFields, tooManyAttempts } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/auth.second-factor";

// The sign-in's second step for an account with a second factor (docs/decisions/222): the password
// was right, and a challenge (cookie) waits for the code from the app or a recovery code.

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!(await openChallenge(request, context.db))) throw redirect("/auth");
  return { title: requestTranslator(request)("auth.meta.secondFactor") };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { code } = textFields(form, ["code"]);
  const challenge = await openChallenge(request, context.db);
  if (!challenge) return redirectWithToast(context, "/auth", { type: "error", key: "auth.toast.secondFactorExpired" });
  if (!code.trim()) return formFailure(400, { code: "auth.errors.codeRequired" });
  if (code.length > 40) return formFailure(400, { code: "auth.errors.codeWrong" });
  try {
    const result = await checkSecondFactorPaced(context, challenge.userId, code);
    if (!result.ok) return formFailure(401, { code: "auth.errors.codeWrong" });
  } catch (error) {
    if (error instanceof TooManyAttempts) return tooManyAttempts(error.retryAfterSeconds);
    throw error;
  }
  // One use: a second answer to the same challenge finds it gone.
  const closed = await closeChallenge(context, challenge.tokenHash);
  if (!closed.closed) return redirectWithToast(context, "/auth", { type: "error", key: "auth.toast.secondFactorExpired" });
  const user = await context.db.selectFrom("users").select("first_name").where("id", "=", challenge.userId).executeTakeFirstOrThrow();
  const response = await signIn(request, context, challenge.userId, challenge.redirectTo, { type: "success", key: "auth.toast.signedIn", values: { name: user.first_name } });
  response.headers.append("Set-Cookie", closed.cookie);
  return response;
}

export function headers(args: Route.HeadersArgs) {
  return { "Cache-Control": "no-store", ...passOnRetryAfter(args) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function SecondFactor({ actionData }: Route.ComponentProps) {
  const { t } = useT();
  const errors = actionData?.errors ?? {};
  return (
    <AuthCard title={t("auth.secondFactor.title")} intro={t("auth.secondFactor.intro")}>
      <FormAlert message={errors.form && t(errors.form, actionData?.retryAfterMinutes ? { count: actionData.retryAfterMinutes } : undefined)} />
      <Form method="post" noValidate>
        <TextField name="code" label={t("auth.secondFactor.code")} autoComplete="one-time-code" error={errors.code} hint={t("auth.secondFactor.hint")} />
        <SubmitButton>{t("auth.secondFactor.submit")}</SubmitButton>
      </Form>
      <p className="mt-6 border-t border-stone-200 pt-5 text-center text-sm">
        <Link to="/auth" className="inline-block py-2 font-medium text-brand-700 underline-offset-4 hover:underline">
          {t("auth.secondFactor.cancel")}
        </Link>
      </p>
    </AuthCard>
  );
}
