import { Form, Link } from "react-router";
import type { SecondFactorDue, SecondFactorSetup } from "~/domain/accounts/second-factor.server";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { Field, inputClass, PageHeader, primaryButton, secondaryButton } from "./ui";

/**
 * A staff member's second factor: set up with a QR code (or the secret typed in) confirmed by a first
 * code; the recovery codes shown once after it, or after asking for new ones (docs/decisions/222).
 */
export function SecondFactorPanel({
  setup,
  due,
  mustKeep,
  redirectTo,
  problem,
  recoveryCodes,
}: {
  setup: SecondFactorSetup;
  due: SecondFactorDue;
  mustKeep: boolean;
  redirectTo: string;
  problem: string | null;
  recoveryCodes: string[] | null;
}) {
  const { t, locale } = useT();
  return (
    <>
      <PageHeader title={t("admin.account.title")} />
      <section className="max-w-2xl rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm" aria-labelledby="second-factor-heading" data-second-factor={setup.enabled || recoveryCodes ? "on" : "off"}>
        <h2 id="second-factor-heading" className="font-semibold text-ink">
          {t("admin.account.secondFactor")}
        </h2>
        {problem && (
          <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800" data-account-problem>
            {t(problem)}
          </p>
        )}
        {recoveryCodes ? (
          <div className="mt-3" data-recovery-codes>
            <p className="text-stone-700">{t("admin.account.codesIntro")}</p>
            <ul className="mt-3 grid grid-cols-2 gap-2 font-mono text-base">
              {recoveryCodes.map((code) => (
                <li key={code} data-recovery-code>
                  {code}
                </li>
              ))}
            </ul>
            <Link to={redirectTo} className={`${primaryButton} mt-4`}>
              {t("admin.account.continue")}
            </Link>
          </div>
        ) : setup.enabled ? (
          <div className="mt-3 space-y-3">
            <p className="text-stone-700">{t("admin.account.enabled", { count: setup.recoveryCodesLeft })}</p>
            <div className="flex flex-wrap gap-2">
              <Form method="post">
                <input type="hidden" name="intent" value="recoveryCodes" />
                <button type="submit" className={secondaryButton}>
                  {t("admin.account.newCodes")}
                </button>
              </Form>
              {!mustKeep && (
                <Form method="post">
                  <input type="hidden" name="intent" value="disable" />
                  <button type="submit" className={secondaryButton}>
                    {t("admin.account.disable")}
                  </button>
                </Form>
              )}
            </div>
          </div>
        ) : (
          <div className="mt-3 space-y-3">
            {due.state === "required" && <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900" data-second-factor-required>{t("admin.account.required")}</p>}
            {due.state === "grace" && <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">{t("admin.account.grace", { when: formatLagosTime(due.until, locale) })}</p>}
            <p className="text-stone-700">{t("admin.account.scan")}</p>
            {setup.qr && (
              <svg viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`} width="200" height="200" role="img" aria-label={t("admin.account.qrLabel")} className="rounded bg-white" shapeRendering="crispEdges">
                <rect width={setup.qr.size} height={setup.qr.size} fill="#fff" />
                <path d={setup.qr.d} fill="#000" />
              </svg>
            )}
            <p className="text-stone-700">
              {t("admin.account.orType")}{" "}
              <code className="break-all rounded bg-stone-100 px-1 font-mono" data-totp-secret>
                {setup.secret}
              </code>
            </p>
            <Form method="post" className="max-w-xs space-y-3" noValidate>
              <input type="hidden" name="intent" value="confirm" />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <Field label={t("admin.account.code")}>
                {(props) => <input {...props} name="code" autoComplete="one-time-code" inputMode="numeric" className={inputClass} />}
              </Field>
              <button type="submit" className={primaryButton}>
                {t("admin.account.confirm")}
              </button>
            </Form>
          </div>
        )}
      </section>
    </>
  );
}
