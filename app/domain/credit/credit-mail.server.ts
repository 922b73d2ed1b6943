import { formatLagosDate } from "~/lib/dates";
import { escapeHtml } from "~/lib/html";
import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import type { Db } from "~/db/client.server";
import { queueMail } from "../operations/mail-outbox.server";
import type { GiftCardMail } from "./credit.server";

const P = 'style="margin:0 0 16px;font:16px/1.5 Arial,Helvetica,sans-serif;color:#1c1917"';

/** The gift card's e-mail to its recipient, in the language the owner chose for it. */
export function giftCardEmail(t: Translate, mail: GiftCardMail, shop: { name: string; publicUrl: string }): { subject: string; text: string; html: string } {
  const paragraphs = [
    t("credit.email.hello", { name: mail.recipientName }),
    t("credit.email.body", { amount: formatNaira(mail.amount), shop: shop.name }),
    ...(mail.message ? [t("credit.email.message", { message: mail.message })] : []),
    t("credit.email.code", { code: mail.code }),
    t("credit.email.howTo"),
    mail.expiresAt ? t("credit.email.expires", { date: formatLagosDate(mail.expiresAt, mail.locale) }) : t("credit.email.noExpiry"),
    `${t("credit.email.shop")}: ${shop.publicUrl}/shop`,
    t("credit.email.signature", { shop: shop.name }),
  ];
  const html = [
    "<!doctype html>",
    `<html><body style="margin:0;padding:24px;background:#fbf7f1">`,
    `<div style="max-width:520px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">`,
    ...paragraphs.map((line) => `<p ${P}>${escapeHtml(line)}</p>`),
    "</div></body></html>",
  ].join("\n");
  return { subject: t("credit.email.subject", { shop: shop.name }), text: `${paragraphs.join("\n\n")}\n`, html };
}

/** Queues it in the gift card's transaction (issueGiftCard's `queue`). */
export function queueGiftCardEmail(translatorFor: (locale: "en" | "es") => Translate, shop: { name: string; publicUrl: string }) {
  return async (trx: Db, mail: GiftCardMail): Promise<void> => {
    await queueMail(trx, { to: mail.to, ...giftCardEmail(translatorFor(mail.locale), mail, shop), kind: "gift-card" });
  };
}
