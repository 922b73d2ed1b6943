import { useState } from "react";
import { data, Form, Link } from "react-router";
import { AuthCard, FormAlert, PasswordField, PasswordsToggle, SubmitButton, TextField } from "~/components/auth-form";
import { acceptInvitation, acceptSchema, invitationState } from "~/domain/backoffice/staff.server";
import { destroySession } from "~/http/session.server";
import { fieldErrors, readForm, textFields } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { ensureMessages } from "~/lib/i18n.client";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/auth.invitation";

// An invitation to the staff (docs/decisions/222): the link's token is single-use and expires; the
// invited person chooses a password (and their name, for a new account), then signs in.

export function headers() {
  return { "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = await invitationState(context.db, token);
  const t = requestTranslator(request);
  const title = t("auth.meta.invitation");
  if (state.state !== "valid") return data({ state: state.state, token: "", intro: "", needsNames: false, title }, { status: state.state === "invalid" ? 400 : 410 });
  const intro = t("auth.invitation.intro", { email: state.email, role: t(`admin.customers.roles.${state.role}`) });
  return { state: state.state, token, intro, needsNames: !state.hasAccount, title };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("auth")]);
  return data;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const fields = textFields(form, ["token", "firstName", "lastName", "password", "confirmPassword"]);
  const state = await invitationState(context.db, fields.token);
  if (state.state !== "valid") return data({ errors: {} as Record<string, string>, state: state.state }, { status: state.state === "invalid" ? 400 : 410 });
  const parsed = acceptSchema(state.email, !state.hasAccount).safeParse(fields);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), state: null }, { status: 400 });
  const result = await acceptInvitation(context.db, { token: fields.token, ...parsed.data });
  if (!result.ok) {
    if (result.reason === "alreadyStaff") return redirectWithToast(context, "/auth", { type: "info", key: "auth.toast.invitationAlreadyStaff" });
    return data({ errors: {} as Record<string, string>, state: result.reason }, { status: result.reason === "invalid" ? 400 : 410 });
  }
  // Whoever was signed in on this browser is signed out: the new staff member signs in next.
  const cleared = await destroySession(request, context);
  return redirectWithToast(context, "/auth?redirectTo=%2Fadmin", { type: "success", key: "auth.toast.invitationAccepted" }, { headers: { "Set-Cookie": cleared } });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const [visible, setVisible] = useState(false);
  const state = actionData?.state ?? loaderData.state;
  const errors = actionData?.errors ?? {};
  if (state !== "valid") {
    return (
      <AuthCard title={t("auth.invitation.title")}>
        <FormAlert message={t(`auth.invitation.${state}`)} />
        <Link to="/auth" className="inline-flex min-h-11 items-center font-medium text-brand-700 underline-offset-4 hover:underline">
          {t("auth.invitation.signIn")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.invitation.title")} intro={loaderData.intro}>
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={loaderData.token} />
        {loaderData.needsNames && (
          <>
            <TextField name="firstName" label={t("auth.fields.firstName")} autoComplete="given-name" error={errors.firstName} />
            <TextField name="lastName" label={t("auth.fields.lastName")} autoComplete="family-name" error={errors.lastName} />
          </>
        )}
        <PasswordField
          name="password"
          label={t("auth.fields.password")}
          autoComplete="new-password"
          error={errors.password}
          hint={t("auth.fields.newPasswordHint")}
          visible={visible}
        />
        <PasswordField name="confirmPassword" label={t("auth.fields.confirmPassword")} autoComplete="new-password" error={errors.confirmPassword} visible={visible} />
        <PasswordsToggle visible={visible} onToggle={() => setVisible((v) => !v)} controls={["password", "confirmPassword"]} />
        <SubmitButton>{t("auth.invitation.submit")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
