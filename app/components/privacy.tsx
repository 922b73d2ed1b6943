import { Form } from "react-router";
import type { PrivacyTexts } from "~/domain/privacy/privacy-texts.server";

/**
 * The privacy pages' pieces (docs/decisions/221). Every text arrives already written by the page's
 * loader, so no translation chunk is needed; every form is a plain form that works without JavaScript.
 * The downloads are plain <form>s (not React Router's): the browser itself receives the file.
 */

const inputClass =
  "block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-base text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 aria-[invalid=true]:border-rose-600";
const primary =
  "inline-flex min-h-11 items-center justify-center rounded-full bg-ink px-5 py-2.5 font-medium text-white hover:bg-stone-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2";
const danger =
  "inline-flex min-h-11 items-center justify-center rounded-full bg-rose-700 px-5 py-2.5 font-medium text-white hover:bg-rose-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-rose-500 focus-visible:ring-offset-2";

export function Notice({ message, tone = "error" }: { message: string | null | undefined; tone?: "error" | "success" }) {
  if (!message) return null;
  const colours = tone === "error" ? "border-rose-200 bg-rose-50 text-rose-800" : "border-emerald-200 bg-emerald-50 text-emerald-900";
  return (
    <p role={tone === "error" ? "alert" : "status"} className={`my-4 rounded-lg border px-4 py-3 text-sm ${colours}`}>
      {message}
    </p>
  );
}

export function PrivacyNoticeText({ notice }: { notice: PrivacyTexts["notice"] }) {
  return (
    <>
      <h1>{notice.title}</h1>
      <p className="lead">{notice.lead}</p>
      {notice.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
          {section.items.length > 0 && (
            <ul>
              {section.items.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <p className="text-sm text-stone-600">{notice.updated}</p>
    </>
  );
}

/** A guest asks for a link by e-mail. */
export function GuestRequestForm({ texts, action, error, email }: { texts: PrivacyTexts["guest"]; action: string; error?: string | null; email?: string }) {
  return (
    <Form method="post" action={action} noValidate className="not-prose mt-4 max-w-md" data-guest-request>
      <label htmlFor="privacy-email" className="mb-1 block text-sm font-medium text-stone-800">
        {texts.email}
      </label>
      <input
        id="privacy-email"
        name="email"
        type="email"
        autoComplete="email"
        spellCheck={false}
        autoCapitalize="none"
        defaultValue={email}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "privacy-email-message" : undefined}
        className={inputClass}
      />
      {error && (
        <p id="privacy-email-message" className="mt-1 text-sm text-rose-700">
          {error}
        </p>
      )}
      <button type="submit" className={`${primary} mt-4`}>
        {texts.submit}
      </button>
    </Form>
  );
}

/** A download: the browser posts it and saves the file it gets back. */
export function DownloadForm({ action, label, token }: { action: string; label: string; token?: string }) {
  return (
    <form method="post" action={action} className="mt-3" data-download>
      {token && <input type="hidden" name="token" value={token} />}
      <button type="submit" className={primary}>
        {label}
      </button>
    </form>
  );
}

/** Erasure: with the password for an account, with the link's token for a guest. */
export function EraseForm({ label, password, token }: { label: string; password?: { label: string; error?: string | null }; token?: string }) {
  return (
    <Form method="post" noValidate className="mt-3 max-w-md" data-erase>
      <input type="hidden" name="intent" value="erase" />
      {token && <input type="hidden" name="token" value={token} />}
      {password && (
        <div className="mb-4">
          <label htmlFor="erase-password" className="mb-1 block text-sm font-medium text-stone-800">
            {password.label}
          </label>
          <input
            id="erase-password"
            name="password"
            type="password"
            autoComplete="current-password"
            aria-invalid={password.error ? true : undefined}
            aria-describedby={password.error ? "erase-password-message" : undefined}
            className={inputClass}
          />
          {password.error && (
            <p id="erase-password-message" className="mt-1 text-sm text-rose-700">
              {password.error}
            </p>
          )}
        </div>
      )}
      <button type="submit" className={danger}>
        {label}
      </button>
    </Form>
  );
}
