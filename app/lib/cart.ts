/** Cart facts shared by the server (app/domain/shopper/cart.server.ts) and the pages. */

/** The most of one perfume a line may hold (the stock is the real limit); keeps typed input sane. */
export const MAX_LINE_QUANTITY = 999;

export type LineStatus =
  /** can be bought as it is */
  | "available"
  /** the stock fell below the quantity: only the stock counts */
  | "reduced"
  | "soldOut"
  /** taken out of the shop since it was added */
  | "unavailable";

export function isBuyable(line: { status: LineStatus }): boolean {
  return line.status === "available" || line.status === "reduced";
}
