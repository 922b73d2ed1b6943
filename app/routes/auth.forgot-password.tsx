import { Form, Link, redirect } from "react-router";
import { AuthCard, FormAlert, SubmitButton, TextField } from "~/components/auth-form";
import { forgotPasswordSchema, requestPasswordReset } from "~/domain/accounts/accounts.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { fieldErrors, formFailure, passOnRetryAfter, readForm, textFields, tooManyAttempts } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/auth.forgot-password";

export async function loader({ request }: Route.LoaderArgs) {
  return {
    sent: new URL(request.url).searchParams.get("sent") === "1",
    title: requestTranslator(request)("auth.meta.forgot"),
  };
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const fields = textFields(form, ["email"]);
  const values = { email: fields.email.slice(0, 254) };
  const parsed = forgotPasswordSchema.safeParse(fields);
  if (!parsed.success) return formFailure(400, fieldErrors(parsed.error), values);
  try {
    // The e-mail is queued, not sent here: the answer does not wait for the mail server, and is the
    // same whether or not the address has an account.
    const { written } = await requestPasswordReset(context, { email: parsed.data.email, t: requestTranslator(request) });
    // The answer does not wait for the link to be written: it is the same, and as quick, for every address.
    written.catch((error: unknown) => console.error("password-reset link not written:", error));
  } catch (error) {
    if (error instanceof TooManyAttempts) return tooManyAttempts(error.retryAfterSeconds, values);
    throw error;
  }
  throw redirect("/auth/forgot-password?sent=1", 303);
}

/** A 429 carries its Retry-After. */
export function headers(args: Route.HeadersArgs) {
  return passOnRetryAfter(args);
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const errors = actionData?.errors ?? {};
  if (loaderData.sent) {
    return (
      <AuthCard title={t("auth.forgot.title")}>
        <FormAlert tone="success" message={t("auth.forgot.sent")} />
        <p className="text-stone-600">{t("auth.forgot.sentHint")}</p>
        <p className="mt-6 text-sm">
          <Link to="/auth" className="inline-block py-2 font-semibold text-ink underline underline-offset-4">
            {t("auth.forgot.backToSignIn")}
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.forgot.title")} intro={t("auth.forgot.intro")}>
      <FormAlert message={errors.form && t(errors.form, actionData?.retryAfterMinutes ? { count: actionData.retryAfterMinutes } : undefined)} />
      <Form method="post" noValidate>
        <TextField name="email" type="email" label={t("auth.fields.email")} autoComplete="email" error={errors.email} defaultValue={actionData?.values.email} />
        <SubmitButton>{t("auth.forgot.submit")}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/auth" className="inline-block py-2 font-semibold text-ink underline underline-offset-4">
          {t("auth.forgot.backToSignIn")}
        </Link>
      </p>
    </AuthCard>
  );
}
