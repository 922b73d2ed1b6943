import { data } from "react-router";
import { StaffScreen } from "~/components/admin/staff-screen";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import {
  changeStaffRole,
  inviteSchema,
  inviteStaff,
  isStaffRole,
  listStaff,
  removeStaff,
  revokeInvitation,
  setSecondFactorForAll,
  setSuspended,
} from "~/domain/backoffice/staff.server";
import { requirePermission } from "~/http/staff-guard.server";
import { positiveInt } from "~/lib/admin-params";
import { fieldErrors, readForm, textFields } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.staff";

// The owner's staff screen (docs/decisions/222): invitations, roles, suspension, removal, and the
// second factor for every staff role. Each change asks for the password again after 15 minutes.

const PATH = "/admin/staff";

export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = await requirePermission(request, context, "staff");
  const url = new URL(request.url);
  const screen = await listStaff(context.db);
  const removing = positiveInt(url.searchParams.get("remove"));
  const t = requestTranslator(request);
  return {
    ...screen,
    me: owner.id,
    removing: screen.members.find((m) => m.id === removing && m.id !== owner.id) ?? null,
    title: t("admin.meta.title", { page: t("admin.nav.staff") }),
  };
}

// Refusals of a change, and the status each is answered with.
const REFUSAL_STATUS = { self: 403, notOwner: 403, lastOwner: 409, notStaff: 409, alreadyStaff: 409 } as const;

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "staff");
  requireRecentAuthentication(request, owner, PATH);
  const form = await readForm(request);
  const fields = textFields(form, ["intent", "email", "role", "userId", "invitationId", "on"]);
  const t = requestTranslator(request);
  const done = (key: string, values: Record<string, string> = {}) => redirectWithToast(context, PATH, { type: "success", key: `admin.staff.toast.${key}`, values });
  const refused = (reason: keyof typeof REFUSAL_STATUS) => data({ problem: `admin.staff.errors.${reason}`, errors: {}, values: {} }, { status: REFUSAL_STATUS[reason] });
  const userId = positiveInt(fields.userId);

  switch (fields.intent) {
    case "invite": {
      const parsed = inviteSchema.safeParse(fields);
      if (!parsed.success) return data({ problem: null, errors: fieldErrors(parsed.error), values: { email: fields.email.slice(0, 254), role: fields.role } }, { status: 400 });
      const result = await inviteStaff(context, { actorId: owner.id, ...parsed.data, t });
      if (!result.ok) return refused(result.reason);
      return done("invited", { email: result.email });
    }
    case "role": {
      if (!userId || !isStaffRole(fields.role)) break;
      const result = await changeStaffRole(context.db, { actorId: owner.id, userId, role: fields.role });
      if (!result.ok) return result.error === "notFound" ? data(null, { status: 404 }) : refused(result.error);
      return done(result.changed ? "roleChanged" : "unchanged", { email: result.email, role: t(`admin.customers.roles.${fields.role}`) });
    }
    case "suspend":
    case "unsuspend": {
      if (!userId) break;
      const result = await setSuspended(context.db, { actorId: owner.id, userId, suspended: fields.intent === "suspend" });
      if (!result.ok) return result.error === "notFound" ? data(null, { status: 404 }) : refused(result.error);
      return done(fields.intent === "suspend" ? "suspended" : "unsuspended", { email: result.email });
    }
    case "remove": {
      if (!userId) break;
      const result = await removeStaff(context.db, { actorId: owner.id, userId });
      if (!result.ok) return result.error === "notFound" ? data(null, { status: 404 }) : refused(result.error);
      return done("removed", { email: result.email });
    }
    case "revoke": {
      const id = positiveInt(fields.invitationId);
      if (!id) break;
      if (!(await revokeInvitation(context.db, { actorId: owner.id, id }))) return data(null, { status: 404 });
      return done("revoked");
    }
    case "secondFactorAll": {
      if (fields.on !== "1" && fields.on !== "0") break;
      await setSecondFactorForAll(context.db, { actorId: owner.id, on: fields.on === "1" });
      return done(fields.on === "1" ? "secondFactorAllOn" : "secondFactorAllOff");
    }
  }
  return data({ problem: "admin.common.toast.badRequest", errors: {}, values: {} }, { status: 400 });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function AdminStaff({ loaderData, actionData }: Route.ComponentProps) {
  return <StaffScreen screen={loaderData} result={actionData ?? null} path={PATH} />;
}
