import type { AppLoadContext } from "react-router";
import { formatLagosDate } from "~/lib/dates";
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
