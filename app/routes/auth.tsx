import { useState } from "react";
import { data, Form, Link, redirect } from "react-router";
import { AuthCard, FormAlert, PasswordField, SubmitButton, TextField } from "~/components/auth-form";
import { authenticate, loginSchema, SignInPaced } from "~/domain/accounts/accounts.server";
import { passwordAccepted } from "~/http/sign-in.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { getSessionUser } from "~/http/session.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { fieldErrors, formFailure, type FormFailure, passOnRetryAfter, readForm, textFields, tooManyAttempts } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/auth";

export async function loader({ request, context }: Route.LoaderArgs) {
  // A signed-in shopper has nothing to do here.
  if (await getSessionUser(request, context.db)) throw redirect("/");
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return {
    redirectTo: safeRedirectPath(redirectTo, ""),
    title: requestTranslator(request)("auth.meta.login"),
  };
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const fields = textFields(form, ["email", "password", "redirectTo"]);
  const values = { email: fields.email.slice(0, 254) };
  const parsed = loginSchema.safeParse(fields);
  if (!parsed.success) return formFailure(400, fieldErrors(parsed.error), values);
  try {
    const result = await authenticate(context, parsed.data);
    // One message for both cases, so the form does not tell which addresses have accounts.
    if (!result.ok) return formFailure(401, { form: "auth.errors.signInFailed" }, values);
    return passwordAccepted(request, context, result, fields.redirectTo, {
      type: "success",
      key: "auth.toast.signedIn",
      values: { name: result.firstName },
    });
  } catch (error) {
    // The account is being tried from everywhere: a few seconds' wait, or a reset link (docs/decisions/214).
    if (error instanceof SignInPaced) {
      const headers = { "Retry-After": String(error.retryAfterSeconds) };
      return data<FormFailure>({ errors: { form: "auth.errors.signInPaced" }, values }, { status: 429, headers });
    }
    if (error instanceof TooManyAttempts) return tooManyAttempts(error.retryAfterSeconds, values);
    throw error;
  }
}

/** A 429 carries its Retry-After. */
export function headers(args: Route.HeadersArgs) {
  return passOnRetryAfter(args);
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const [visible, setVisible] = useState(false);
  const errors = actionData?.errors ?? {};
  const registerHref = loaderData.redirectTo ? `/auth/register?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "/auth/register";
  return (
    <AuthCard title={t("auth.login.title")} intro={t("auth.login.intro")}>
      <FormAlert message={errors.form && t(errors.form, actionData?.retryAfterMinutes ? { count: actionData.retryAfterMinutes } : undefined)} />
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TextField name="email" type="email" label={t("auth.fields.email")} autoComplete="username" error={errors.email} defaultValue={actionData?.values.email} />
        <PasswordField
          name="password"
          label={t("auth.fields.password")}
          autoComplete="current-password"
          error={errors.password}
          visible={visible}
          onToggle={() => setVisible((v) => !v)}
        />
        <p className="-mt-2 mb-5 text-right text-sm">
          <Link to="/auth/forgot-password" className="inline-block py-2 font-medium text-brand-700 underline-offset-4 hover:underline">
            {t("auth.login.forgot")}
          </Link>
        </p>
        <SubmitButton>{t("auth.login.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-xs leading-relaxed text-stone-500">
        {t("auth.login.privacyNote")}{" "}
        <a href="/privacy" className="underline underline-offset-2 hover:text-ink">
          {t("auth.login.privacyLink")}
        </a>
        .
      </p>
      <p className="mt-6 border-t border-stone-200 pt-5 text-center text-sm text-stone-700">
        {t("auth.login.noAccount")}{" "}
        <Link to={registerHref} className="inline-block py-2 font-semibold text-ink underline underline-offset-4">
          {t("auth.login.createAccount")}
        </Link>
      </p>
    </AuthCard>
  );
}
