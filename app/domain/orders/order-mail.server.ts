import { creditLines } from "../credit/credit-lines.server";
import type { Config } from "~/platform/config.server";
import { escapeHtml } from "~/lib/html";
import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { deliveryAmount, paymentInstructions, paymentLabel } from "~/lib/order-text";
import type { AddressSnapshot, PlacedOrder } from "./orders.server";
import { vatContained } from "./vat.server";

/** The order confirmation: items, totals, address (or pick-up) and how to pay, in plain text and simple HTML. */
export function orderConfirmationEmail(
  t: Translate,
  input: {
    firstName: string;
    order: PlacedOrder;
    address: AddressSnapshot | null;
    bank: Config["shop"]["bank"];
    orderUrl: string;
    /** VAT_INCLUDED: the total's VAT is shown under it (docs/decisions/223) */
    vatIncluded?: boolean;
  },
): { subject: string; text: string; html: string } {
  const { order, address, bank } = input;
  const itemLines = order.items.map((item) =>
    t("account.email.itemLine", { name: item.name, quantity: item.quantity, price: formatNaira(item.unitPrice * item.quantity) }),
  );
  const where =
    order.deliveryMethod === "pickup"
      ? t("account.email.pickup", { address: order.deliveryZone ?? "" })
      : `${t("order.shipTo")}: ${address ? [address.street, address.city, address.state, address.country].join(", ") : ""}`;
  const totals = [
    t("account.email.subtotal", { amount: formatNaira(order.subtotal) }),
    ...(order.discount > 0 ? [t("promotions.order.mail", { code: order.promotionCode ?? "", amount: formatNaira(order.discount) })] : []),
    t("account.email.delivery", { amount: deliveryAmount(t, order) }),
    t("account.email.total", { amount: formatNaira(order.total) }),
    ...(input.vatIncluded ? [t("invoice.vatLine", { amount: formatNaira(vatContained(order.total)) })] : []),
    // What store credit and a gift card paid, and what is left to pay (docs/decisions/224).
    ...creditMailLines(t, order),
    `${t("order.payment")}: ${paymentLabel(t, order)}`,
  ];
  const pay = paymentInstructions(t, order, bank);
  const text = [
    t("account.email.greeting", { name: input.firstName }),
    "",
    t("account.email.thanks", { number: order.number }),
    "",
    ...itemLines,
    "",
    ...totals,
    "",
    where,
    "",
    ...(pay.length ? [`${t("order.howToPay")}:`, ...pay, ""] : []),
    t("account.email.follow", { url: input.orderUrl }),
    "",
    t("account.email.signature"),
    "",
  ].join("\n");
  const p = 'style="margin:0 0 12px;font:15px/1.5 Arial,Helvetica,sans-serif;color:#1c1917"';
  const html = [
    "<!doctype html>",
    '<html><body style="margin:0;padding:24px;background:#fbf7f1">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">',
    `<p ${p}>${escapeHtml(t("account.email.greeting", { name: input.firstName }))}</p>`,
    `<p ${p}>${escapeHtml(t("account.email.thanks", { number: order.number }))}</p>`,
    `<ul style="margin:0 0 12px;padding-left:20px;font:15px/1.5 Arial,Helvetica,sans-serif">${itemLines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`,
    `<p ${p}>${totals.map(escapeHtml).join("<br>")}</p>`,
    `<p ${p}>${escapeHtml(where)}</p>`,
    ...(pay.length ? [`<p ${p}><strong>${escapeHtml(t("order.howToPay"))}:</strong><br>${pay.map(escapeHtml).join("<br>")}</p>`] : []),
    `<p ${p}><a href="${escapeHtml(input.orderUrl)}" style="color:#7a5b31">${escapeHtml(input.orderUrl)}</a></p>`,
    `<p ${p}>${escapeHtml(t("account.email.signature"))}</p>`,
    "</div></body></html>",
  ].join("\n");
  return { subject: t("account.email.subject", { number: order.number }), text, html };
}

function creditMailLines(t: Translate, order: PlacedOrder): string[] {
  return creditLines(t, order).map((line) => `${line.label}: ${line.amount}`);
}
