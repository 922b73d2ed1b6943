import { data, Link } from "react-router";
import { GuestRequestForm, Notice } from "~/components/privacy";
import { requestGuestLink } from "~/domain/privacy/data-rights.server";
import { privacyTexts } from "~/domain/privacy/privacy-texts.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { passOnRetryAfter, readForm, textFields } from "~/http/form.server";
import { detectLocale, requestTranslator } from "~/http/language.server";
import { inLanguage } from "~/http/seo.server";
import type { Route } from "./+types/privacy.request";

/** A guest asks for a link to what the shop keeps under their e-mail (docs/decisions/221). */
export function loader({ request }: Route.LoaderArgs) {
  const { locale } = detectLocale(request);
  return { guest: privacyTexts(locale).guest, back: inLanguage("/privacy", locale), action: inLanguage("/privacy/request", locale) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { email } = textFields(form, ["email"]);
  const { locale } = detectLocale(request);
  const t = requestTranslator(request);
  const typed = email.slice(0, 254);
  try {
    const result = await requestGuestLink(context, { email, locale });
    if (!result.ok) return data({ sent: false, error: t(result.error), email: typed }, { status: 400 });
  } catch (error) {
    if (!(error instanceof TooManyAttempts)) throw error;
    const minutes = Math.max(1, Math.ceil(error.retryAfterSeconds / 60));
    return data({ sent: false, error: t("privacy.errors.tooMany", { minutes }), email: typed }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
  return { sent: true, error: null, email: "" };
}

/** A 429 carries its Retry-After; nothing here is kept by any cache. */
export function headers(args: Route.HeadersArgs) {
  return { ...passOnRetryAfter(args), "Cache-Control": "private, no-store" };
}

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page ? `${page.guest.title} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

export default function PrivacyRequest({ loaderData: { guest, back, action }, actionData }: Route.ComponentProps) {
  return (
    <article className="prose-page">
      <h1>{guest.title}</h1>
      {actionData?.sent ? (
        <Notice tone="success" message={guest.sent} />
      ) : (
        <>
          <p>{guest.text}</p>
          <GuestRequestForm texts={guest} action={action} error={actionData?.error} email={actionData?.email} />
        </>
      )}
      <p>
        <Link to={back}>{guest.back}</Link>
      </p>
    </article>
  );
}
