import { useRouteLoaderData } from "react-router";
import type { CartSummary } from "~/domain/cart.server";
import type { RootData } from "~/root";

/** The shopper's own parts of every storefront page (docs/decisions/141). */
export interface PersonalState {
  user: { firstName: string; lastName: string; email: string; role: "customer" | "admin" } | null;
  cart: CartSummary;
  /** product ids in the signed-in shopper's wishlist, ascending */
  wishlist: number[];
}

export const NOBODY: PersonalState = { user: null, cart: { lines: 0, total: 0, items: [] }, wishlist: [] };

let last: { json: string; state: PersonalState } | null = null;

/** The root loader sends the state as one JSON string, so a cached page can carry another shopper's. */
export function parsePersonal(json: string | undefined): PersonalState {
  if (!json) return NOBODY;
  if (last?.json !== json) last = { json, state: JSON.parse(json) as PersonalState };
  return last.state;
}

export function usePersonal(): PersonalState {
  return parsePersonal((useRouteLoaderData("root") as RootData | undefined)?.personal);
}
