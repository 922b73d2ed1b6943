import { GuestRequestForm, PrivacyNoticeText } from "~/components/privacy";
import { privacyNotice, privacyTexts } from "~/domain/privacy/privacy-texts.server";
import { detectLocale } from "~/http/language.server";
import { inLanguage, seoMeta } from "~/http/seo.server";
import type { Route } from "./+types/_store.privacy";

/** The privacy notice (docs/decisions/221), with the owner's details from the settings, and a guest's way to ask for their data. */
export function loader({ request, context }: Route.LoaderArgs) {
  const { locale } = detectLocale(request);
  const texts = privacyTexts(locale);
  const notice = privacyNotice(locale, context.config.shop);
  return {
    notice,
    guest: texts.guest,
    requestAction: inLanguage("/privacy/request", locale),
    meta: seoMeta(context, locale, "/privacy", { title: notice.metaTitle, description: notice.metaDescription }),
  };
}

// An anonymous visitor's page may be kept by nginx or a CDN (docs/decisions/216).
export const handle = { sharedCache: true };

export const meta = ({ data }: Route.MetaArgs) => data?.meta ?? [];

export default function Privacy({ loaderData: { notice, guest, requestAction } }: Route.ComponentProps) {
  return (
    <article className="prose-page">
      <PrivacyNoticeText notice={notice} />
      <section id="ask-by-email" aria-labelledby="ask-by-email-heading">
        <h2 id="ask-by-email-heading">{guest.heading}</h2>
        <p>{guest.text}</p>
        <GuestRequestForm texts={guest} action={requestAction} />
      </section>
    </article>
  );
}
