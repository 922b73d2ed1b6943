import { data, Form, redirect } from "react-router";
import { AuthCard, NewPasswordFields, SubmitButton } from "~/components/auth-form";
import { changePassword, changePasswordSchema } from "~/domain/accounts/accounts.server";
import { signIn } from "~/http/sign-in.server";
import { requireUser } from "~/http/session.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { fieldErrors, readForm, textFields } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/auth.change-password";

// An account whose password its owner did not choose (the demo admin's, printed on the console)
// chooses one here before the admin area opens (docs/decisions/082).

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  if (!user.mustChangePassword) throw redirect(redirectTo);
  return { redirectTo, title: requestTranslator(request)("auth.meta.changePassword") };
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const fields = textFields(form, ["password", "confirmPassword", "redirectTo"]);
  if (!user.mustChangePassword) throw redirect(safeRedirectPath(fields.redirectTo), 303);
  const parsed = changePasswordSchema([user.email, user.firstName, user.lastName]).safeParse(fields);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
  const result = await changePassword(context, user.id, parsed.data.password);
  if (!result.ok) return data({ errors: { password: "auth.errors.passwordUnchanged" } as Record<string, string> }, { status: 400 });
  // Every session of the account has ended; this browser starts a new one.
  return signIn(request, context, user.id, fields.redirectTo, { type: "success", key: "auth.toast.passwordChosen" });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function ChangePassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const errors = actionData?.errors ?? {};
  return (
    <AuthCard title={t("auth.changePassword.title")} intro={t("auth.changePassword.intro")}>
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <NewPasswordFields errors={errors} confirm />
        <SubmitButton>{t("auth.changePassword.submit")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
