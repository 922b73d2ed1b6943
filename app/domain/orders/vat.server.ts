/**
 * VAT contained in a price (docs/decisions/223): when the shop is registered (`VAT_INCLUDED`), its
 * prices already include VAT at 7.5 %; invoices, order e-mails and the orders CSV show how much of an
 * order's total that is. Shoppers' prices do not change.
 */

/** Nigeria's VAT rate, in hundredths of a percent (7.5 %). */
export const VAT_RATE_BASIS_POINTS = 750;

/**
 * The VAT inside a VAT-inclusive amount in kobo: amount × 7.5 / 107.5, rounded to the nearest kobo,
 * half a kobo up. Integer arithmetic only (amounts up to 10¹¹ kobo stay exact).
 */
export function vatContained(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) return 0;
  const whole = 10_000 + VAT_RATE_BASIS_POINTS;
  return Math.floor((amount * VAT_RATE_BASIS_POINTS * 2 + whole) / (whole * 2));
}
