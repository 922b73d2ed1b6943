import type { AppLoadContext } from "react-router";
import type { Db } from "~/db/client.server";
import { NOBODY_ON_PRODUCT, type PersonalState, type ProductPersonal } from "~/lib/personal";
import { sizesWaitedFor } from "./back-in-stock.server";
import { cartSummary } from "./cart.server";
import { viewProduct } from "./recently-viewed.server";
import { reviewEligibility } from "./reviews.server";
import { getSessionUser, rememberLocale, type SessionUser } from "./sessions.server";
import { wishlistIds } from "./wishlist.server";

/**
 * What makes a storefront page this shopper's own: who is signed in, the cart, and the hearts. The
 * root loader sends it with every page, and a cached page is made this shopper's from it
 * (docs/decisions/141), so both ways of answering show the same.
 */
export async function personalState(request: Request, context: Pick<AppLoadContext, "db">, locale: string): Promise<PersonalState> {
  return (await shopperAndState(request, context, locale)).state;
}

/** personalState, and the signed-in shopper it was read for (null for a visitor). */
export async function shopperAndState(
  request: Request,
  context: Pick<AppLoadContext, "db">,
  locale: string,
): Promise<{ shopper: SessionUser | null; state: PersonalState }> {
  // Who it is first; then the cart and the hearts side by side (on PostgreSQL, one round trip less).
  const user = await getSessionUser(request, context.db);
  const [cart, wishlist] = await Promise.all([
    cartSummary(request, context),
    user ? wishlistIds(context.db, user.id) : [],
    // E-mails sent to the account later (an order's status) are written in the language it last used.
    user ? rememberLocale(context.db, user, locale) : undefined,
  ]);
  if (!user) return { shopper: null, state: { user: null, cart, wishlist: [] } };
  return {
    shopper: user,
    state: {
      user: { firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role },
      cart,
      wishlist,
    },
  };
}

/**
 * A signed-in shopper's parts of a product page (docs/decisions/150): whether they may review it, the
 * sizes they already wait for (asked only when the product has a sold-out size), and their recently
 * viewed row. Opening the page records the view. The product loader and the filled-in cached page
 * (app/entry.server.tsx) both read them here, so both show the same.
 */
export async function productPersonal(db: Db, shopper: Pick<SessionUser, "id" | "email"> | null, productId: number, soldOut: boolean): Promise<ProductPersonal> {
  if (!shopper) return NOBODY_ON_PRODUCT;
  // The view is written first: a write waits for no read on the same connection.
  const recent = await viewProduct(db, shopper.id, productId);
  const [review, waited] = await Promise.all([reviewEligibility(db, shopper.id, productId), soldOut ? sizesWaitedFor(db, productId, shopper.email) : []]);
  return { review, waited: [...waited].sort((a, b) => a - b), recent };
}
