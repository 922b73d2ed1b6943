import type { AppLoadContext } from "react-router";
import type { PersonalState } from "~/lib/personal";
import { cartSummary } from "./cart.server";
import { getSessionUser, rememberLocale } from "./sessions.server";
import { wishlistIds } from "./wishlist.server";

/**
 * What makes a storefront page this shopper's own: who is signed in, the cart, and the hearts. The
 * root loader sends it with every page, and a cached page is made this shopper's from it
 * (docs/decisions/141), so both ways of answering show the same.
 */
export async function personalState(request: Request, context: Pick<AppLoadContext, "db">, locale: string): Promise<PersonalState> {
  const [user, cart] = await Promise.all([getSessionUser(request, context.db), cartSummary(request, context)]);
  if (!user) return { user: null, cart, wishlist: [] };
  // E-mails sent to the account later (an order's status) are written in the language it last used.
  const [wishlist] = await Promise.all([wishlistIds(context.db, user.id), rememberLocale(context.db, user, locale)]);
  return {
    user: { firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role },
    cart,
    wishlist,
  };
}
