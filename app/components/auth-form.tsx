import { useState } from "react";
import { useNavigation } from "react-router";
import { useT } from "~/lib/i18n";
import { useHydrated } from "~/lib/use-hydrated";

/** Pieces of the account forms: labelled fields with their message beside them, a busy button. */

export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby="auth-heading" className="mx-auto w-full max-w-md rounded-2xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 id="auth-heading" className="font-serif text-3xl font-semibold">
        {title}
      </h1>
      {intro && <p className="mt-2 text-stone-600">{intro}</p>}
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** A message about the whole form (wrong sign-in, too many attempts), read out when it appears. */
export function FormAlert({ message, tone = "error" }: { message: string | null | undefined; tone?: "error" | "success" }) {
  if (!message) return null;
  const colours = tone === "error" ? "border-rose-200 bg-rose-50 text-rose-800" : "border-emerald-200 bg-emerald-50 text-emerald-900";
  return (
    <p role={tone === "error" ? "alert" : "status"} className={`mb-4 rounded-lg border px-4 py-3 text-sm ${colours}`}>
      {message}
    </p>
  );
}

const inputClass =
  "block min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base text-ink placeholder:text-stone-400 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 aria-[invalid=true]:border-rose-600";

function FieldMessage({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  const { t } = useT();
  if (error) {
    return (
      <p id={id} className="mt-1 text-sm text-rose-700">
        {t(error)}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="mt-1 text-sm text-stone-500">
      {hint}
    </p>
  ) : null;
}

export function TextField({
  name,
  label,
  type = "text",
  autoComplete,
  error,
  hint,
  defaultValue,
}: {
  name: string;
  label: string;
  type?: "text" | "email";
  autoComplete?: string;
  /** translation key of the field's message */
  error?: string;
  hint?: string;
  defaultValue?: string;
}) {
  const id = `field-${name}`;
  const messageId = `${id}-message`;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-stone-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        spellCheck={false}
        autoCapitalize={type === "email" ? "none" : "words"}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        className={`${inputClass} ${error ? "border-rose-600" : "border-stone-300"}`}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {!open && <path d="M3 3l18 18" />}
    </svg>
  );
}

/**
 * A password input. With `onToggle`, an eye button inside the field shows or hides it; the button
 * appears once JavaScript runs (without it the password simply stays masked).
 */
export function PasswordField({
  name,
  label,
  autoComplete,
  error,
  hint,
  visible,
  onToggle,
}: {
  name: string;
  label: string;
  autoComplete: "current-password" | "new-password";
  error?: string;
  hint?: string;
  visible: boolean;
  onToggle?: () => void;
}) {
  const { t } = useT();
  const hydrated = useHydrated();
  const id = `field-${name}`;
  const messageId = `${id}-message`;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-stone-800">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type={visible ? "text" : "password"}
          autoComplete={autoComplete}
          spellCheck={false}
          autoCapitalize="none"
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? messageId : undefined}
          className={`${inputClass} ${onToggle ? "pr-12" : ""} ${error ? "border-rose-600" : "border-stone-300"}`}
        />
        {onToggle && hydrated && (
          <button
            type="button"
            onClick={onToggle}
            aria-controls={id}
            aria-pressed={visible}
            aria-label={visible ? t("auth.fields.hidePassword") : t("auth.fields.showPassword")}
            title={visible ? t("auth.fields.hidePassword") : t("auth.fields.showPassword")}
            className="absolute inset-y-0 right-0 grid w-11 place-items-center rounded-r-lg text-stone-600 hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            <EyeIcon open={!visible} />
          </button>
        )}
      </div>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

/** One show/hide button for several password fields (the reset form's two). */
export function PasswordsToggle({ visible, onToggle, controls }: { visible: boolean; onToggle: () => void; controls: string[] }) {
  const { t } = useT();
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-pressed={visible}
      aria-controls={controls.map((name) => `field-${name}`).join(" ")}
      className="mb-4 inline-flex min-h-11 items-center gap-2 rounded-lg px-1 text-sm font-medium text-stone-700 hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <EyeIcon open={!visible} />
      {visible ? t("auth.fields.hidePasswords") : t("auth.fields.showPasswords")}
    </button>
  );
}

/**
 * The new-password block of the account forms. Registration asks once, with an eye button in the
 * field; a reset or a forced change asks twice (`confirm`), with one button showing both.
 */
export function NewPasswordFields({ errors, confirm = false }: { errors: Record<string, string | undefined>; confirm?: boolean }) {
  const { t } = useT();
  const [visible, setVisible] = useState(false);
  const toggle = () => setVisible((v) => !v);
  return (
    <>
      <PasswordField
        name="password"
        label={t("auth.fields.password")}
        autoComplete="new-password"
        error={errors.password}
        hint={t("auth.fields.newPasswordHint")}
        visible={visible}
        onToggle={confirm ? undefined : toggle}
      />
      {confirm && (
        <>
          <PasswordField name="confirmPassword" label={t("auth.fields.confirmPassword")} autoComplete="new-password" error={errors.confirmPassword} visible={visible} />
          <PasswordsToggle visible={visible} onToggle={toggle} controls={["password", "confirmPassword"]} />
        </>
      )}
    </>
  );
}

/** The form's main button; shows a spinner while the form is being sent. */
export function SubmitButton({ children }: { children: React.ReactNode }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <button
      type="submit"
      disabled={busy}
      aria-busy={busy}
      className="inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-full bg-ink px-5 py-2.5 font-medium text-white hover:bg-stone-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:cursor-wait disabled:opacity-80"
    >
      {busy && (
        <svg data-testid="spinner" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" className="animate-spin" fill="none">
          <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
          <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        </svg>
      )}
      {children}
    </button>
  );
}
