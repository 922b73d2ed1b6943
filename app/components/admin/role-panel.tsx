import { ShieldCheck, ShieldOff } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import type { Role } from "~/db/schema";
import { useT } from "~/lib/i18n";
import { dangerButton, Dialog, primaryButton, secondaryButton } from "./ui";

/**
 * A customer page's admin access: who can use the admin area, and the button that gives or takes the
 * role away. The button opens a confirmation through the URL (?role=admin|customer), so it works
 * without JavaScript too; the server decides (docs/decisions/115).
 */
export function RolePanel({
  customer,
  self,
  confirming,
  problem,
  path,
}: {
  customer: { name: string; email: string; role: Role };
  self: boolean;
  confirming: Role | null;
  problem: string | null;
  path: string;
}) {
  const { t } = useT();
  const busy = useNavigation().state === "submitting";
  const name = customer.name || customer.email;
  const next: Role = customer.role === "admin" ? "customer" : "admin";
  return (
    <section className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm lg:col-span-2" aria-labelledby="role-heading" data-role-panel>
      <h2 id="role-heading" className="font-semibold text-ink">
        {t("admin.customers.role.heading")}
      </h2>
      <p className="mt-2 text-stone-700">{t(customer.role === "admin" ? "admin.customers.role.isAdmin" : "admin.customers.role.isCustomer", { name })}</p>
      {problem && (
        <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800" data-role-problem>
          {t(problem)}
        </p>
      )}
      {self ? (
        <p className="mt-3 text-stone-600">{t("admin.customers.role.self")}</p>
      ) : (
        <Link to={`${path}?role=${next}`} className={`${next === "admin" ? primaryButton : secondaryButton} mt-3`} preventScrollReset>
          {next === "admin" ? <ShieldCheck aria-hidden="true" size={18} /> : <ShieldOff aria-hidden="true" size={18} />}
          {t(next === "admin" ? "admin.customers.role.make" : "admin.customers.role.remove")}
        </Link>
      )}
      {confirming && (
        <Dialog title={t(confirming === "admin" ? "admin.customers.role.confirmMakeTitle" : "admin.customers.role.confirmRemoveTitle", { name })} closeHref={path}>
          <p className="text-stone-700">{t(confirming === "admin" ? "admin.customers.role.confirmMakeBody" : "admin.customers.role.confirmRemoveBody")}</p>
          <Form method="post" action={path} className="mt-6 flex flex-wrap justify-end gap-2" preventScrollReset>
            <input type="hidden" name="intent" value="role" />
            <input type="hidden" name="role" value={confirming} />
            <Link to={path} className={secondaryButton} preventScrollReset replace>
              {t("admin.common.cancel")}
            </Link>
            <button type="submit" className={confirming === "admin" ? primaryButton : dangerButton} disabled={busy}>
              {t(confirming === "admin" ? "admin.customers.role.make" : "admin.customers.role.remove")}
            </button>
          </Form>
        </Dialog>
      )}
    </section>
  );
}
