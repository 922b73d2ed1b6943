import type { Translate } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

/**
 * An order's store credit and gift card lines, after its total: what each paid and what is left to
 * pay (docs/decisions/224). Empty for an order neither paid. For the order pages, e-mails and invoice.
 */
export function creditLines(t: Translate, order: { total: number; storeCredit: number; giftCard: number; giftCardCode: string | null }): { label: string; amount: string }[] {
  if (!order.storeCredit && !order.giftCard) return [];
  const due = order.total - order.storeCredit - order.giftCard;
  return [
    ...(order.giftCard ? [{ label: t("credit.order.giftCard", { code: order.giftCardCode ?? "" }), amount: `−${formatNaira(order.giftCard)}` }] : []),
    ...(order.storeCredit ? [{ label: t("credit.order.storeCredit"), amount: `−${formatNaira(order.storeCredit)}` }] : []),
    { label: t("credit.order.due"), amount: formatNaira(due) },
  ];
}
