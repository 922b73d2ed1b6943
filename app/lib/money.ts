/** Money is integer kobo everywhere (₦1 = 100 kobo). This is the one place it becomes text. */
const naira = new Intl.NumberFormat("en-NG", {
  style: "currency",
  currency: "NGN",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Beyond this, Intl's rounding of kobo / 100 in floating point shows in the last digit. */
const MAX_WRITTEN_HERE = 1e15;

export function formatNaira(kobo: number): string {
  // Whole kobo from zero up, as prices and totals are, written as Intl writes them: Intl took as long
  // as the rest of a cart's header part (it formats every price on every page rendered). Only in the
  // server's bundles (`import.meta.env.SSR`, also set for server.ts's): the browser's stays within
  // its JavaScript budget. Run outside a bundle (tsx: development, scripts), Intl writes it.
  if (import.meta.env?.SSR && Number.isInteger(kobo) && kobo >= 0 && kobo <= MAX_WRITTEN_HERE) {
    const whole = String(Math.floor(kobo / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
    return `₦${whole}.${String(kobo % 100).padStart(2, "0")}`;
  }
  return naira.format(kobo / 100);
}

export function nairaToKobo(naira: number): number {
  return Math.round(naira * 100);
}
