import type { AppLoadContext } from "react-router";
import { isBuyable } from "~/lib/cart";
import type { Translate } from "~/lib/i18n";
import { escapeHtml } from "~/lib/html";
import { formatNaira } from "~/lib/money";
import { type CartLine } from "~/domain/shopper/cart.server";
import { findCartId } from "./cart.server";
import type { SessionUser } from "~/domain/accounts/sessions.server";
import { type CartCodeView, cartCodeOutcome, codeView } from "~/domain/promotions/codes.server";

/**
 * The discount-code box of the cart and the checkout, with its texts written here on the server, so
 * the pages' scripts carry none of them (the JavaScript budget, docs/decisions/140).
 */
export interface DiscountCodePanel {
  /** the code on the cart, or null */
  code: string | null;
  /** kobo off the goods (0 when it does not apply) */
  discount: number;
  freeDelivery: boolean;
  /** the discount line's label ("Discount (AMAKA10)"), when the code applies */
  lineLabel: string | null;
  /** "Code X applied." or why it does not apply */
  status: string | null;
  applies: boolean;
  texts: { heading: string; label: string; apply: string; remove: string; afterDiscount: string };
}

export function codePanel(t: Translate, view: CartCodeView | null): DiscountCodePanel {
  const texts = {
    heading: t("promotions.shopper.heading"),
    label: t("promotions.shopper.label"),
    apply: t("promotions.shopper.apply"),
    remove: t("promotions.shopper.remove"),
    afterDiscount: t("promotions.shopper.afterDiscount"),
  };
  if (!view) return { code: null, discount: 0, freeDelivery: false, lineLabel: null, status: null, applies: false, texts };
  const applies = view.reason === null;
  return {
    code: view.code,
    discount: view.discount,
    freeDelivery: view.freeDelivery,
    applies,
    lineLabel: applies ? t(view.freeDelivery ? "promotions.shopper.freeDelivery" : "promotions.shopper.line", { code: view.code }) : null,
    status: applies
      ? t("promotions.shopper.applied", { code: view.code })
      : t("promotions.shopper.notApplied", { code: view.code, reason: t(`promotions.shopper.reasons.${view.reason}`, { amount: formatNaira(view.minimum ?? 0) }) }),
    texts,
  };
}

/**
 * The panel for the cart page: the code on this request's cart judged against its lines (a signed-in
 * shopper's own uses counted too; a visitor's are counted when the order is placed).
 */
export async function cartCodePanel(
  request: Request,
  context: Pick<AppLoadContext, "db">,
  t: Translate,
  lines: CartLine[],
  user: Pick<SessionUser, "id" | "email"> | null,
): Promise<DiscountCodePanel> {
  const cartId = await findCartId(request, context);
  const outcome = await cartCodeOutcome(context.db, cartId, lines.filter(isBuyable), user ? { userId: user.id, email: user.email, phone: null } : null);
  return codePanel(t, codeView(outcome));
}

/**
 * The checkout's code box as markup written here (the /checkout JavaScript budget): plain forms to
 * /cart/code that come back to /checkout, with or without JavaScript, outside the checkout's own form.
 * The discount line itself is in the checkout's totals.
 */
export function codePanelHtml(panel: DiscountCodePanel): string {
  const e = escapeHtml;
  const back = `<input type="hidden" name="back" value="/checkout">`;
  if (panel.code) {
    return (
      `<form method="post" action="/cart/code" class="flex flex-wrap items-center justify-between gap-2"><input type="hidden" name="intent" value="remove">${back}` +
      `<p role="status" class="${panel.applies ? "text-emerald-800" : "text-amber-800"}" data-testid="discount-status">${e(panel.status ?? "")}</p>` +
      `<button type="submit" class="min-h-11 rounded-full px-3 underline underline-offset-2 hover:text-rose-700">${e(panel.texts.remove)}</button></form>`
    );
  }
  return (
    `<form method="post" action="/cart/code"><input type="hidden" name="intent" value="apply">${back}` +
    `<label for="discount-code-checkout" class="block font-medium">${e(panel.texts.label)}</label>` +
    `<div class="mt-1 flex gap-2"><input id="discount-code-checkout" name="code" autocomplete="off" autocapitalize="characters" maxlength="40" class="min-h-11 min-w-0 flex-1 rounded-lg border border-stone-300 px-3 uppercase">` +
    `<button type="submit" class="min-h-11 rounded-full border border-ink px-4 font-medium">${e(panel.texts.apply)}</button></div></form>`
  );
}
