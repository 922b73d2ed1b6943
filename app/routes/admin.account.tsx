import { data } from "react-router";
import { SecondFactorPanel } from "~/components/admin/second-factor-panel";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { confirmSecondFactor, disableSecondFactor, mustKeepSecondFactor, replaceRecoveryCodes, secondFactorDueFor, secondFactorSetup } from "~/domain/accounts/second-factor.server";
import { requirePermission } from "~/http/staff-guard.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { readForm, textFields } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.account";

// A staff member's own account page: their second factor (docs/decisions/222). The one admin page a
// role that must have one reaches before setting it up.

const PATH = "/admin/account";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requirePermission(request, context, "dashboard", { settingUpSecondFactor: true });
  const t = requestTranslator(request);
  const [setup, due, mustKeep] = await Promise.all([secondFactorSetup(context.db, user.id), secondFactorDueFor(context.db, user), mustKeepSecondFactor(context.db, user.role)]);
  return {
    setup,
    due,
    mustKeep,
    redirectTo: safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/admin"),
    title: t("admin.meta.title", { page: t("admin.account.title") }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requirePermission(request, context, "dashboard", { settingUpSecondFactor: true });
  const form = await readForm(request);
  const fields = textFields(form, ["intent", "code", "redirectTo"]);
  const redirectTo = safeRedirectPath(fields.redirectTo, "/admin");
  switch (fields.intent) {
    case "confirm": {
      if (!fields.code.trim() || fields.code.length > 40) return data({ problem: "admin.account.errors.codeRequired", recoveryCodes: null, redirectTo }, { status: 400 });
      const result = await confirmSecondFactor(context.db, user.id, fields.code);
      if (!result.ok) return data({ problem: `admin.account.errors.${result.reason}`, recoveryCodes: null, redirectTo }, { status: result.reason === "wrongCode" ? 400 : 409 });
      return { problem: null, recoveryCodes: result.recoveryCodes, redirectTo };
    }
    case "recoveryCodes": {
      requireRecentAuthentication(request, user, PATH);
      if (!user.secondFactor) return data({ problem: "admin.account.errors.notEnabled", recoveryCodes: null, redirectTo }, { status: 409 });
      return { problem: null, recoveryCodes: await replaceRecoveryCodes(context.db, user.id), redirectTo };
    }
    case "disable": {
      requireRecentAuthentication(request, user, PATH);
      const result = await disableSecondFactor(context.db, user);
      if (!result.ok) return data({ problem: "admin.account.errors.required", recoveryCodes: null, redirectTo }, { status: 409 });
      return redirectWithToast(context, PATH, { type: "success", key: "admin.account.toast.disabled" });
    }
  }
  return data({ problem: "admin.common.toast.badRequest", recoveryCodes: null, redirectTo }, { status: 400 });
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  return <SecondFactorPanel {...loaderData} problem={actionData?.problem ?? null} recoveryCodes={actionData?.recoveryCodes ?? null} />;
}
