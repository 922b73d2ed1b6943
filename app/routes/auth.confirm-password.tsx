import { useState } from "react";
import { Form, redirect } from "react-router";
import { AuthCard, FormAlert, PasswordField, SubmitButton } from "~/components/auth-form";
import { confirmPassword, recentlyAuthenticated } from "~/domain/accounts/reauthentication.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { requireUser } from "~/http/session.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { formFailure, passOnRetryAfter, readForm, textFields, tooManyAttempts } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/auth.confirm-password";

// Before a sensitive action, when the session proved its password more than 15 minutes ago
// (docs/decisions/222): the password again, then back to the page the action was asked from.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/admin");
  if (recentlyAuthenticated(user)) throw redirect(redirectTo);
  return { redirectTo, email: user.email, title: requestTranslator(request)("auth.meta.confirmPassword") };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const fields = textFields(form, ["password", "redirectTo"]);
  const back = safeRedirectPath(fields.redirectTo, "/admin");
  if (!fields.password) return formFailure(400, { password: "auth.errors.passwordRequired" });
  if (fields.password.length > 256) return formFailure(400, { password: "auth.errors.passwordTooLong" });
  try {
    if (!(await confirmPassword(context, user, fields.password))) return formFailure(401, { password: "auth.errors.passwordWrong" });
  } catch (error) {
    if (error instanceof TooManyAttempts) return tooManyAttempts(error.retryAfterSeconds);
    throw error;
  }
  return redirectWithToast(context, back, { type: "success", key: "auth.toast.passwordConfirmed" });
}

export function headers(args: Route.HeadersArgs) {
  return { "Cache-Control": "no-store", ...passOnRetryAfter(args) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function ConfirmPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const [visible, setVisible] = useState(false);
  const errors = actionData?.errors ?? {};
  return (
    <AuthCard title={t("auth.confirmPassword.title")} intro={t("auth.confirmPassword.intro")}>
      <FormAlert message={errors.form && t(errors.form, actionData?.retryAfterMinutes ? { count: actionData.retryAfterMinutes } : undefined)} />
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        {/* For password managers: which account this password belongs to. */}
        <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
        <PasswordField
          name="password"
          label={t("auth.fields.password")}
          autoComplete="current-password"
          error={errors.password}
          visible={visible}
          onToggle={() => setVisible((v) => !v)}
        />
        <SubmitButton>{t("auth.confirmPassword.submit")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
