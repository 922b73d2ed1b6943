import { escapeHtml } from "~/lib/html";
import type { Translate } from "~/lib/i18n";

/** The account e-mails: plain text for every mail program, and a simple HTML version of the same words. */

type Email = { subject: string; text: string; html: string };

/**
 * One greeting, paragraphs before and after a button link, and the signature. A paragraph after the
 * link may be several lines: one line each in the text, one paragraph in the HTML.
 */
function withButton(t: Translate, input: { subject: string; firstName: string; before: string[]; button: string; link: string; after: (string | string[])[] }): Email {
  const greeting = t("auth.email.greeting", { name: input.firstName });
  const text = [greeting, "", ...input.before.flatMap((line) => [line, ""]), input.link, "", ...input.after.flat(), "", t("auth.email.signature"), ""].join("\n");
  const p = 'style="margin:0 0 16px;font:16px/1.5 Arial,Helvetica,sans-serif;color:#1c1917"';
  const html = [
    "<!doctype html>",
    `<html><body style="margin:0;padding:24px;background:#fbf7f1">`,
    `<div style="max-width:520px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">`,
    `<p ${p}>${escapeHtml(greeting)}</p>`,
    ...input.before.map((line) => `<p ${p}>${escapeHtml(line)}</p>`),
    `<p style="margin:0 0 16px"><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:12px 20px;background:#1c1917;color:#ffffff;border-radius:999px;text-decoration:none;font:16px Arial,Helvetica,sans-serif">${escapeHtml(input.button)}</a></p>`,
    `<p ${p}>${escapeHtml(t("auth.email.linkFallback"))}<br><a href="${escapeHtml(input.link)}" style="color:#7a5b31;word-break:break-all">${escapeHtml(input.link)}</a></p>`,
    ...input.after.map((lines) => `<p ${p}>${[lines].flat().map(escapeHtml).join(" ")}</p>`),
    `<p ${p}>${escapeHtml(t("auth.email.signature"))}</p>`,
    "</div></body></html>",
  ].join("\n");
  return { subject: input.subject, text, html };
}

/** The link that finishes a registration. */
export function confirmRegistrationEmail(t: Translate, input: { firstName: string; link: string }): Email {
  return withButton(t, {
    subject: t("auth.email.confirmSubject"),
    firstName: input.firstName,
    before: [t("auth.email.confirmBody")],
    button: t("auth.email.confirmButton"),
    link: input.link,
    after: [t("auth.email.confirmExpiry"), t("auth.email.confirmIgnore")],
  });
}

/** To an address that already has an account, when someone registers with it. */
export function accountExistsEmail(t: Translate, input: { firstName: string; signInLink: string; resetLink: string }): Email {
  return withButton(t, {
    subject: t("auth.email.existsSubject"),
    firstName: input.firstName,
    before: [t("auth.email.existsBody"), t("auth.email.existsSignIn")],
    button: t("auth.email.existsButton"),
    link: input.signInLink,
    after: [t("auth.email.existsReset", { link: input.resetLink }), t("auth.email.existsIgnore")],
  });
}

/** The link that sets a new password. */
export function passwordResetEmail(t: Translate, input: { firstName: string; link: string }): Email {
  return withButton(t, {
    subject: t("auth.email.resetSubject"),
    firstName: input.firstName,
    before: [t("auth.email.resetBody")],
    button: t("auth.email.resetButton"),
    link: input.link,
    after: [[t("auth.email.resetExpiry"), t("auth.email.resetIgnore")]],
  });
}

/** An invitation to join the shop's staff (docs/decisions/222): a single-use link that sets a password. */
export function staffInvitationEmail(t: Translate, input: { email: string; inviter: string; role: string; link: string; days: number }): Email {
  return withButton(t, {
    subject: t("auth.email.inviteSubject"),
    firstName: input.email,
    before: [t("auth.email.inviteBody", { inviter: input.inviter, role: input.role })],
    button: t("auth.email.inviteButton"),
    link: input.link,
    after: [t("auth.email.inviteExpiry", { count: input.days }), t("auth.email.inviteIgnore")],
  });
}
