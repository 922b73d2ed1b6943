import type { AppLoadContext } from "react-router";
import { rememberLocale, type SessionUser } from "~/domain/accounts/sessions.server";
import { cartSummaryFromColumn } from "~/domain/shopper/cart.server";
import { personalStateOf, readSessionCartAndHearts, type SessionCartRow } from "~/domain/shopper/personal.server";
import { wishlistIds, wishlistIdsFromColumn } from "~/domain/shopper/wishlist.server";
import type { PersonalState } from "~/lib/personal";
import { cartSummary } from "./cart.server";
import { getSessionUser, sessionFromRow, sessionToRead } from "./session.server";

/**
 * What makes a storefront page this shopper's own: who is signed in, the cart, and the hearts. The
 * root loader sends it with every page.
 */
export async function personalState(request: Request, context: Pick<AppLoadContext, "db" | "readsOfRequest">, locale: string): Promise<PersonalState> {
  return (await shopperAndState(request, context, locale)).state;
}

/** personalState, and the signed-in shopper it was read for (null for a visitor). */
export async function shopperAndState(
  request: Request,
  context: Pick<AppLoadContext, "db" | "readsOfRequest">,
  locale: string,
): Promise<{ shopper: SessionUser | null; state: PersonalState }> {
  const { db } = context;
  const sessionId = sessionToRead(request, context.readsOfRequest);
  if (sessionId !== null) {
    // One statement reads the session, its account, the account's cart and hearts (docs/decisions/160):
    // on PostgreSQL every statement is a round trip. The cart and hearts are those of the session's own
    // account, found through the session row; they are used only when the session is valid.
    const { shopper, state } = await fromSessionRow(request, context, locale, readSessionCartAndHearts(db, sessionId).then((rows) => rows[0]));
    return { shopper, state };
  }
  // No session cookie, or the session already read for this request by another loader: who it is
  // first; then the cart and the hearts side by side.
  const user = await getSessionUser(request, db, context.readsOfRequest);
  const [cart, wishlist] = await Promise.all([
    cartSummary(request, context),
    user ? wishlistIds(db, user.id) : [],
    // E-mails sent to the account later (an order's status) are written in the language it last used.
    user ? rememberLocale(db, user, locale) : undefined,
  ]);
  if (!user) return { shopper: null, state: { user: null, cart, wishlist: [] } };
  return { shopper: user, state: personalStateOf(user, cart, wishlist) };
}

/**
 * The shopper and their state from a statement that begins with the session's read
 * (sessionCartAndHearts), and its row while the session is valid: sessionFromRow judges it, as
 * getSessionUser would. Signed out (an unknown or expired session), a cart cookie may still name a
 * visitor's cart.
 */
async function fromSessionRow<Row extends SessionCartRow>(
  request: Request,
  context: Pick<AppLoadContext, "db" | "readsOfRequest">,
  locale: string,
  reading: Promise<Row | undefined>,
): Promise<{ shopper: SessionUser | null; state: PersonalState; row: Row | null }> {
  const user = await sessionFromRow(request, context.db, reading, context.readsOfRequest);
  const row = await reading;
  if (user && row) {
    await rememberLocale(context.db, user, locale);
    return { shopper: user, state: personalStateOf(user, cartSummaryFromColumn(row.cart), wishlistIdsFromColumn(row.hearts)), row };
  }
  return { shopper: null, state: { user: null, cart: await cartSummary(request, context), wishlist: [] }, row: null };
}
