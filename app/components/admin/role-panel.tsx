import { ShieldCheck, ShieldOff } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import type { Role } from "~/db/schema";
import { useT } from "~/lib/i18n";
import { dangerButton, Dialog, primaryButton, secondaryButton } from "./ui";

const ROLE_ORDER: Role[] = ["owner", "manager", "fulfilment", "support", "customer"];

/**
 * A customer page's staff access, shown to owners: what the account's role may do, and a button for
 * each other role. A button opens a confirmation through the URL (?role=manager), so it works
 * without JavaScript too; the server decides (docs/decisions/115, 218).
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
  const others = ROLE_ORDER.filter((r) => r !== customer.role);
  return (
    <section className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm lg:col-span-2" aria-labelledby="role-heading" data-role-panel>
      <h2 id="role-heading" className="font-semibold text-ink">
        {t("admin.customers.role.heading")}
      </h2>
      <p className="mt-2 text-stone-700">{t(`admin.customers.role.is.${customer.role}`, { name })}</p>
      {problem && (
        <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800" data-role-problem>
          {t(problem)}
        </p>
      )}
      {self ? (
        <p className="mt-3 text-stone-600">{t("admin.customers.role.self")}</p>
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          {others.map((role) => (
            <Link key={role} to={`${path}?role=${role}`} className={role === "customer" ? secondaryButton : primaryButton} preventScrollReset data-give-role={role}>
              {role === "customer" ? <ShieldOff aria-hidden="true" size={18} /> : <ShieldCheck aria-hidden="true" size={18} />}
              {t(`admin.customers.role.give.${role}`)}
            </Link>
          ))}
        </div>
      )}
      {confirming && (
        <Dialog
          title={
            confirming === "customer"
              ? t("admin.customers.role.confirmRemoveTitle", { name })
              : t("admin.customers.role.confirmTitle", { name, role: t(`admin.customers.roles.${confirming}`) })
          }
          closeHref={path}
        >
          <p className="text-stone-700">{t(`admin.customers.role.confirmBody.${confirming}`)}</p>
          <Form method="post" action={path} className="mt-6 flex flex-wrap justify-end gap-2" preventScrollReset>
            <input type="hidden" name="intent" value="role" />
            <input type="hidden" name="role" value={confirming} />
            <Link to={path} className={secondaryButton} preventScrollReset replace>
              {t("admin.common.cancel")}
            </Link>
            <button type="submit" className={confirming === "customer" ? dangerButton : primaryButton} disabled={busy}>
              {t(`admin.customers.role.give.${confirming}`)}
            </button>
          </Form>
        </Dialog>
      )}
    </section>
  );
}
