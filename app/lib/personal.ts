import { useRouteLoaderData } from "react-router";
import type { Role } from "~/db/schema";
import type { CartSummary } from "~/domain/shopper/cart.server";
import type { ProductCard } from "~/domain/catalogue/catalog.server";
import type { ReviewEligibility } from "~/domain/catalogue/reviews.server";
import type { RootData } from "~/root";

/** The shopper's own parts of every storefront page: who is signed in, the cart and the hearts. */
export interface PersonalState {
  user: { firstName: string; lastName: string; email: string; role: Role } | null;
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

/**
 * The signed-in shopper's own parts of a product page, sent by the product loader
 * as one JSON string like `personal`, so a cached product page can carry them too.
 */
export interface ProductPersonal {
  /** the review form's state; null for a visitor who is not signed in */
  review: ReviewEligibility | null;
  /** the product's sizes this shopper already waits for (back-in-stock e-mail), ascending */
  waited: number[];
  /** the signed-in shopper's recently viewed perfumes without this one; null for a visitor, whose browser fills the row */
  recent: ProductCard[] | null;
}

export const NOBODY_ON_PRODUCT: ProductPersonal = { review: null, waited: [], recent: null };

let lastProduct: { json: string; state: ProductPersonal } | null = null;

export function parseProductPersonal(json: string | undefined): ProductPersonal {
  if (!json) return NOBODY_ON_PRODUCT;
  if (lastProduct?.json !== json) lastProduct = { json, state: JSON.parse(json) as ProductPersonal };
  return lastProduct.state;
}

/**
 * Whether a signed-in shopper already waits for every sold-out size of a product: `soldOut` holds the
 * sold-out sizes of a product in several sizes, or null for a product in one size (sold out).
 */
export function waitsForAll(signedIn: boolean, soldOut: number[] | null, waited: number[]): boolean {
  if (!signedIn) return false;
  return soldOut === null ? waited.length > 0 : soldOut.every((id) => waited.includes(id));
}
