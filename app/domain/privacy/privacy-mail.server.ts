import { escapeHtml } from "~/lib/html";
import type { Translate } from "~/lib/i18n";

/** The privacy e-mails: plain text for every mail program, and a simple HTML version of the same words. */

export interface PrivacyEmail {
  subject: string;
  text: string;
  html: string;
}

const P = 'style="margin:0 0 16px;font:16px/1.5 Arial,Helvetica,sans-serif;color:#1c1917"';

function compose(subject: string, paragraphs: string[], button?: { label: string; link: string; fallback: string }): PrivacyEmail {
  const text = [...paragraphs.slice(0, 2), ...(button ? [button.link] : []), ...paragraphs.slice(2), ""].join("\n\n");
  const html = [
    "<!doctype html>",
    `<html><body style="margin:0;padding:24px;background:#fbf7f1">`,
    `<div style="max-width:520px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">`,
    ...paragraphs.slice(0, 2).map((line) => `<p ${P}>${escapeHtml(line)}</p>`),
    ...(button
      ? [
          `<p style="margin:0 0 16px"><a href="${escapeHtml(button.link)}" style="display:inline-block;padding:12px 20px;background:#1c1917;color:#ffffff;border-radius:999px;text-decoration:none;font:16px Arial,Helvetica,sans-serif">${escapeHtml(button.label)}</a></p>`,
          `<p ${P}>${escapeHtml(button.fallback)}<br><a href="${escapeHtml(button.link)}" style="color:#7a5b31;word-break:break-all">${escapeHtml(button.link)}</a></p>`,
        ]
      : []),
    ...paragraphs.slice(2).map((line) => `<p ${P}>${escapeHtml(line)}</p>`),
    "</div></body></html>",
  ].join("\n");
  return { subject, text, html };
}

/** To a guest who asked what the shop keeps under their e-mail: the link that shows it. */
export function guestLinkEmail(t: Translate, input: { link: string; minutes: number }): PrivacyEmail {
  return compose(
    t("privacy.email.guestSubject"),
    [t("privacy.email.hello"), t("privacy.email.guestBody"), t("privacy.email.guestExpiry", { minutes: input.minutes }), t("privacy.email.guestIgnore"), t("privacy.email.signature")],
    { label: t("privacy.email.guestButton"), link: input.link, fallback: t("privacy.email.linkFallback") },
  );
}

/** To the owner: someone's personal data was erased (naming no one: only the record and its orders' numbers). */
export function erasureNoticeEmail(t: Translate, input: { who: string; orders: string[]; at: string }): PrivacyEmail {
  return compose(t("privacy.email.ownerSubject"), [
    t("privacy.email.ownerBody", { who: input.who, at: input.at }),
    input.orders.length ? t("privacy.email.ownerOrders", { orders: input.orders.join(", ") }) : t("privacy.email.ownerNoOrders"),
    t("privacy.email.ownerElsewhere"),
    t("privacy.email.ownerLog"),
  ]);
}
