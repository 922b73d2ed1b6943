import { Form, Link } from "react-router";
import type { StaffRole } from "~/db/schema";
import type { StaffScreen as Screen, StaffMember } from "~/domain/backoffice/staff.server";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { dangerButton, Dialog, Field, inputClass, PageHeader, primaryButton, secondaryButton, TableScroller } from "./ui";

const ROLES: StaffRole[] = ["owner", "manager", "fulfilment", "support"];

type Result = { problem: string | null; errors: Record<string, string>; values: Record<string, string> } | null;

/**
 * The owner's staff screen (docs/decisions/222): plain forms, each a POST the server decides; removal
 * is confirmed in a dialog opened by the URL (?remove=ID), so all of it works without JavaScript.
 */
export function StaffScreen({ screen, result, path }: { screen: Screen & { me: number; removing: StaffMember | null }; result: Result; path: string }) {
  const { t, locale } = useT();
  const errors = result?.errors ?? {};
  const role = (r: StaffRole) => t(`admin.customers.roles.${r}`);
  return (
    <>
      <PageHeader title={t("admin.nav.staff")} />
      {result?.problem && (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-staff-problem>
          {t(result.problem)}
        </p>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <section className="rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm" aria-labelledby="invite-heading">
          <h2 id="invite-heading" className="font-semibold text-ink">
            {t("admin.staff.invite.heading")}
          </h2>
          <p className="mt-1 text-stone-600">{t("admin.staff.invite.intro")}</p>
          <Form method="post" className="mt-3 space-y-3" data-invite-form noValidate>
            <input type="hidden" name="intent" value="invite" />
            <Field label={t("admin.staff.invite.email")} error={errors.email}>
              {(props) => <input {...props} name="email" type="email" autoComplete="off" className={inputClass} defaultValue={result?.values.email} />}
            </Field>
            <Field label={t("admin.staff.invite.role")} error={errors.role}>
              {(props) => (
                <select {...props} name="role" className={inputClass} defaultValue={result?.values.role ?? "fulfilment"}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {role(r)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" className={primaryButton}>
              {t("admin.staff.invite.submit")}
            </button>
          </Form>
        </section>

        <section className="rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm" aria-labelledby="second-factor-heading" data-second-factor-all={screen.secondFactorForAll}>
          <h2 id="second-factor-heading" className="font-semibold text-ink">
            {t("admin.staff.secondFactor.heading")}
          </h2>
          <p className="mt-1 text-stone-700">{t(screen.secondFactorForAll ? "admin.staff.secondFactor.all" : "admin.staff.secondFactor.ownersManagers")}</p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="secondFactorAll" />
            <input type="hidden" name="on" value={screen.secondFactorForAll ? "0" : "1"} />
            <button type="submit" className={secondaryButton}>
              {t(screen.secondFactorForAll ? "admin.staff.secondFactor.requireOwnersManagers" : "admin.staff.secondFactor.requireAll")}
            </button>
          </Form>
        </section>
      </div>

      <h2 className="mb-2 mt-6 font-semibold text-ink">{t("admin.staff.members")}</h2>
      <TableScroller label={t("admin.staff.members")} className="rounded-xl border border-stone-200 bg-white shadow-sm">
        <table className="stack-table w-full text-left text-sm sm:min-w-[48rem]">
          <thead className="bg-stone-50 text-stone-600">
            <tr>
              {(["person", "role", "status", "secondFactor", "lastSignIn", "actions"] as const).map((c) => (
                <th key={c} scope="col" className="px-3 py-3 font-medium">
                  {t(`admin.staff.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {screen.members.map((m) => (
              <tr key={m.id} className="border-t border-stone-100 align-top" data-staff-member={m.email} data-staff-role={m.role} data-suspended={m.suspended}>
                <td className="px-3 py-2" data-label={t("admin.staff.columns.person")}>
                  <span className="block font-medium text-ink">{m.name || m.email}</span>
                  <span className="block break-all text-stone-600">{m.email}</span>
                </td>
                <td className="px-3 py-2" data-label={t("admin.staff.columns.role")}>
                  {m.id === screen.me ? (
                    role(m.role)
                  ) : (
                    <Form method="post" className="flex flex-wrap items-center gap-2">
                      <input type="hidden" name="intent" value="role" />
                      <input type="hidden" name="userId" value={m.id} />
                      <select name="role" defaultValue={m.role} aria-label={t("admin.staff.roleOf", { name: m.name || m.email })} className={`${inputClass} w-auto`}>
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {role(r)}
                          </option>
                        ))}
                      </select>
                      <button type="submit" className={secondaryButton}>
                        {t("admin.staff.changeRole")}
                      </button>
                    </Form>
                  )}
                </td>
                <td className="px-3 py-2" data-label={t("admin.staff.columns.status")}>
                  {t(m.suspended ? "admin.staff.status.suspended" : "admin.staff.status.active")}
                </td>
                <td className="px-3 py-2" data-label={t("admin.staff.columns.secondFactor")}>
                  {t(m.secondFactor ? "admin.staff.secondFactorOn" : "admin.staff.secondFactorOff")}
                </td>
                <td className="px-3 py-2" data-label={t("admin.staff.columns.lastSignIn")} data-last-sign-in={m.lastSignInAt ?? ""}>
                  {m.lastSignInAt ? formatLagosTime(m.lastSignInAt, locale) : t("admin.staff.never")}
                </td>
                <td className="px-3 py-2" data-label={t("admin.staff.columns.actions")}>
                  {m.id === screen.me ? (
                    <span className="text-stone-600">{t("admin.staff.you")}</span>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <Form method="post">
                        <input type="hidden" name="intent" value={m.suspended ? "unsuspend" : "suspend"} />
                        <input type="hidden" name="userId" value={m.id} />
                        <button type="submit" className={secondaryButton}>
                          {t(m.suspended ? "admin.staff.unsuspend" : "admin.staff.suspend")}
                        </button>
                      </Form>
                      <Link to={`${path}?remove=${m.id}`} className={dangerButton} preventScrollReset>
                        {t("admin.staff.remove")}
                      </Link>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>

      <h2 className="mb-2 mt-6 font-semibold text-ink">{t("admin.staff.invitations")}</h2>
      {screen.invitations.length === 0 ? (
        <p className="text-sm text-stone-600">{t("admin.staff.noInvitations")}</p>
      ) : (
        <ul className="space-y-2 text-sm">
          {screen.invitations.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-stone-200 bg-white p-3" data-invitation={i.email}>
              <span>
                <span className="break-all font-medium text-ink">{i.email}</span> · {role(i.role)} ·{" "}
                {i.expired ? t("admin.staff.expired") : t("admin.staff.expires", { when: formatLagosTime(i.expiresAt, locale) })}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="invitationId" value={i.id} />
                <button type="submit" className={secondaryButton}>
                  {t("admin.staff.revoke")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}

      {screen.removing && (
        <Dialog title={t("admin.staff.removeTitle", { name: screen.removing.name || screen.removing.email })} closeHref={path}>
          <p className="text-stone-700">{t("admin.staff.removeBody")}</p>
          <Form method="post" action={path} className="mt-6 flex flex-wrap justify-end gap-2">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="userId" value={screen.removing.id} />
            <Link to={path} className={secondaryButton} replace>
              {t("admin.common.cancel")}
            </Link>
            <button type="submit" className={dangerButton}>
              {t("admin.staff.remove")}
            </button>
          </Form>
        </Dialog>
      )}
    </>
  );
}
