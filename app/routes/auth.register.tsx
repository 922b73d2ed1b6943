import { Form, Link, redirect } from "react-router";
import { AuthCard, FormAlert, NewPasswordFields, SubmitButton, TextField } from "~/components/auth-form";
import { registerSchema, startRegistration } from "~/domain/accounts/accounts.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { getSessionUser } from "~/http/session.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { fieldErrors, formFailure, passOnRetryAfter, readForm, textFields, tooManyAttempts } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { consentLabel } from "~/http/consent-form.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/auth.register";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(request, context.db)) throw redirect("/");
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return {
    sent: new URL(request.url).searchParams.get("sent") === "1",
    redirectTo: safeRedirectPath(redirectTo, ""),
    // The marketing opt-in's words, written here (docs/decisions/220).
    marketingLabel: consentLabel(request),
    title: requestTranslator(request)("auth.meta.register"),
  };
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  // Only these fields are read: whatever else a post carries (a "role", say) is ignored.
  const fields = textFields(form, ["firstName", "lastName", "email", "password", "redirectTo"]);
  const values = { firstName: fields.firstName.slice(0, 100), lastName: fields.lastName.slice(0, 100), email: fields.email.slice(0, 254) };
  const parsed = registerSchema.safeParse(fields);
  if (!parsed.success) return formFailure(400, fieldErrors(parsed.error), values);
  try {
    // The same answer whether or not the address has an account (docs/decisions/083): the e-mail says which.
    const marketingWording = form.get("marketing") === "on" ? consentLabel(request) : null;
    await startRegistration(context, { ...parsed.data, redirectTo: fields.redirectTo, t: requestTranslator(request), marketingWording });
  } catch (error) {
    if (error instanceof TooManyAttempts) return tooManyAttempts(error.retryAfterSeconds, values);
    throw error;
  }
  throw redirect("/auth/register?sent=1", 303);
}

/** A 429 carries its Retry-After. */
export function headers(args: Route.HeadersArgs) {
  return passOnRetryAfter(args);
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const loginHref = loaderData.redirectTo ? `/auth?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "/auth";
  if (loaderData.sent) {
    return (
      <AuthCard title={t("auth.register.sentTitle")}>
        <FormAlert tone="success" message={t("auth.register.sent")} />
        <p className="text-stone-600">{t("auth.register.sentHint")}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.register.title")} intro={t("auth.register.intro")}>
      <FormAlert message={errors.form && t(errors.form, actionData?.retryAfterMinutes ? { count: actionData.retryAfterMinutes } : undefined)} />
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <div className="grid gap-x-4 sm:grid-cols-2">
          <TextField name="firstName" label={t("auth.fields.firstName")} autoComplete="given-name" error={errors.firstName} defaultValue={values.firstName} />
          <TextField name="lastName" label={t("auth.fields.lastName")} autoComplete="family-name" error={errors.lastName} defaultValue={values.lastName} />
        </div>
        <TextField name="email" type="email" label={t("auth.fields.email")} autoComplete="email" error={errors.email} defaultValue={values.email} />
        <NewPasswordFields errors={errors} />
        <label className="mt-2 flex gap-3 text-sm">
          <input type="checkbox" name="marketing" className="mt-0.5 h-5 w-5 shrink-0" />
          {loaderData.marketingLabel}
        </label>
        <div className="mt-2">
          <SubmitButton>{t("auth.register.submit")}</SubmitButton>
        </div>
      </Form>
      <p className="mt-6 border-t border-stone-200 pt-5 text-center text-sm text-stone-700">
        {t("auth.register.haveAccount")}{" "}
        <Link to={loginHref} className="inline-block py-2 font-semibold text-ink underline underline-offset-4">
          {t("auth.register.logIn")}
        </Link>
      </p>
    </AuthCard>
  );
}
