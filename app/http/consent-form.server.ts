import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { formatLagosDate } from "~/lib/dates";
import { DEFAULT_LOCALE, isLocale } from "~/lib/i18n";
import { detectLocale } from "~/http/language.server";
import { translatorFor } from "~/platform/translations.server";
import { activeConsent, grantConsent, withdrawConsent } from "../domain/messages/consent.server";

/** The checkbox's words, exactly as shown and as recorded (server-only texts, messages.json). */
export function consentWording(locale: string | null): string {
  return translatorFor(isLocale(locale) ? locale : DEFAULT_LOCALE)("messages.consent.label");
}

/**
 * The marketing opt-in as the profile, checkout and registration show it: plain HTML whose texts the
 * loader writes in the shopper's language, so no text of it reaches the browser's language chunks.
 */

export interface MarketingChoiceView {
  on: boolean;
  title: string;
  service: string;
  state: string;
  /** the checkbox's words (recorded as shown when ticked) */
  label: string;
  button: string;
}

export async function marketingChoice(db: Kysely<Database>, userId: number, request: Request): Promise<MarketingChoiceView> {
  const { locale } = detectLocale(request);
  const t = translatorFor(locale);
  const consent = await activeConsent(db, userId);
  return {
    on: consent !== null,
    title: t("messages.consent.profileTitle"),
    service: t("messages.consent.profileService"),
    // One line: the section's title, that order messages always come, and the choice in force.
    state: [t("messages.consent.profileTitle"), t("messages.consent.profileService"), consent ? t("messages.consent.profileOn", { date: formatLagosDate(consent.grantedAt, locale) }) : t("messages.consent.profileOff")].join(" · "),
    label: consentWording(locale),
    button: t(consent ? "messages.consent.stopButton" : "messages.consent.save"),
  };
}

/** The opt-in's words for a form that offers it (checkout, registration). */
export const consentLabel = (request: Request) => consentWording(detectLocale(request).locale);

/** Saves the profile's choice; returns whether the shopper is opted in now. */
export async function setMarketingChoice(db: Kysely<Database>, userId: number, request: Request, on: boolean): Promise<boolean> {
  if (on) {
    const { locale } = detectLocale(request);
    await grantConsent(db, { userId, source: "profile", locale, wording: consentWording(locale) });
    return true;
  }
  await withdrawConsent(db, userId);
  return false;
}
