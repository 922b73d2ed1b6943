import type { AppLoadContext } from "react-router";
import { formatLagosDate } from "~/lib/dates";
import { escapeHtml } from "~/lib/html";
import type { Locale, Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { creditStatement, creditView } from "~/domain/credit/credit.server";
import { findCartId } from "./cart.server";

/**
 * The checkout's store credit and gift card box (docs/decisions/224), its texts written here on the
 * server so the page's script carries none of them (the JavaScript budget). What is taken is decided
 * when the order is placed; this shows what may pay.
 */
export interface CreditPanelView {
  /** null: a guest (no account, no credit) */
  balance: string | null;
  hasCredit: boolean;
  useCredit: boolean;
  giftCard: { code: string; status: string; ok: boolean } | null;
  texts: { heading: string; paysFirst: string; use: string; stopUsing: string; giftLabel: string; giftApply: string; giftRemove: string; using: string | null };
}

export async function creditPanel(request: Request, context: Pick<AppLoadContext, "db">, t: Translate, userId: number | null): Promise<CreditPanelView> {
  const view = await creditView(context.db, await findCartId(request, context), userId);
  const gift = view.giftCard;
  return {
    balance: view.credit === null ? null : t("credit.shopper.balance", { amount: formatNaira(view.credit) }),
    hasCredit: (view.credit ?? 0) > 0,
    useCredit: view.useCredit,
    giftCard: gift
      ? {
          code: gift.code,
          ok: gift.state.ok,
          status: gift.state.ok
            ? t("credit.shopper.giftBalance", { code: gift.code, amount: formatNaira(gift.state.balance) })
            : t("credit.shopper.giftRefused", { reason: t(`credit.shopper.reasons.${gift.state.reason}`) }),
        }
      : null,
    texts: {
      heading: t("credit.shopper.heading"),
      paysFirst: t("credit.shopper.paysFirst"),
      use: t("credit.shopper.use"),
      stopUsing: t("credit.shopper.stopUsing"),
      giftLabel: t("credit.shopper.giftLabel"),
      giftApply: t("credit.shopper.giftApply"),
      giftRemove: t("credit.shopper.giftRemove"),
      using: view.useCredit && view.credit ? t("credit.shopper.using", { amount: formatNaira(view.credit) }) : null,
    },
  };
}

/** The profile's store credit: the balance and its movements, every text and figure written here. */
export interface ProfileCreditView {
  heading: string;
  balance: string;
  headers: [string, string, string];
  rows: { id: number; date: string; what: string; amount: string }[];
}

export async function profileCredit(context: Pick<AppLoadContext, "db">, t: Translate, locale: Locale, userId: number): Promise<ProfileCreditView | null> {
  const statement = await creditStatement(context.db, userId);
  // Nothing to show an account that never had any.
  if (statement.movements.length === 0) return null;
  return {
    heading: t("credit.profile.heading"),
    balance: t("credit.profile.balance", { amount: formatNaira(statement.balance) }),
    headers: [t("credit.profile.date"), t("credit.profile.what"), t("credit.profile.amount")],
    rows: statement.movements.map((m) => ({
      id: m.id,
      date: formatLagosDate(m.createdAt, locale),
      what: [t(`credit.profile.reasons.${m.reason}`), m.orderNumber ? t("credit.profile.order", { number: m.orderNumber }) : null, m.reason === "issued" || m.reason === "adjusted" ? m.note : null]
        .filter(Boolean)
        .join(" · "),
      amount: `${m.amount < 0 ? "−" : "+"}${formatNaira(Math.abs(m.amount))}`,
    })),
  };
}

/**
 * The checkout's box as markup written here: plain forms to /checkout/credit, with or without
 * JavaScript; the page's script carries only the element that holds it (the /checkout budget).
 */
export function creditPanelHtml(panel: CreditPanelView): string {
  const e = escapeHtml;
  const button = (label: string) => `<button type="submit" class="rounded-full border border-stone-300 px-3 py-1.5 hover:bg-stone-50">${e(label)}</button>`;
  const form = (intent: string, inner: string) =>
    `<form method="post" action="/checkout/credit" class="mt-2 flex flex-wrap items-center gap-2"><input type="hidden" name="intent" value="${intent}">${inner}</form>`;
  const { texts } = panel;
  return [
    `<h3 id="credit-heading" class="font-semibold">${e(texts.heading)}</h3><p class="mt-1 text-stone-600">${e(texts.paysFirst)}</p>`,
    panel.balance && panel.hasCredit
      ? form(panel.useCredit ? "stop-credit" : "use-credit", `<span data-testid="credit-balance">${e(panel.balance)}</span>${button(panel.useCredit ? texts.stopUsing : texts.use)}`)
      : "",
    texts.using ? `<p class="mt-1 text-emerald-800">${e(texts.using)}</p>` : "",
    panel.giftCard
      ? form("gift-remove", `<span class="${panel.giftCard.ok ? "text-emerald-800" : "text-rose-700"}" data-testid="gift-card-status">${e(panel.giftCard.status)}</span>${button(texts.giftRemove)}`)
      : form("gift-apply", `<label class="flex-1"><span class="block">${e(texts.giftLabel)}</span><input name="code" autocomplete="off" maxlength="40" class="mt-1 w-full rounded border border-stone-300 px-2 py-1.5 uppercase"></label>${button(texts.giftApply)}`),
  ].join("");
}

/** The profile's credit as markup written here (the /profile budget). */
export function profileCreditHtml(credit: ProfileCreditView): string {
  const e = escapeHtml;
  const rows = credit.rows.map((r) => `<tr class="border-t border-stone-100"><td class="py-1 pr-3 whitespace-nowrap">${e(r.date)}</td><td class="py-1 pr-3">${e(r.what)}</td><td class="py-1 text-right whitespace-nowrap">${e(r.amount)}</td></tr>`);
  return `<h2 id="credit-heading" class="font-semibold">${e(credit.heading)}</h2><p class="mt-1" data-testid="credit-balance">${e(credit.balance)}</p><table class="mt-2 w-full max-w-xl text-left"><thead><tr class="text-stone-600">${credit.headers.map((h) => `<th scope="col" class="py-1 pr-3 font-medium">${e(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}
