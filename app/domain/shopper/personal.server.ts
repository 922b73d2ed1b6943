import { type Expression, sql } from "kysely";
import { builtOnce } from "~/db/built-once.server";
import type { AppLoadContext } from "react-router";
import { type Db, PREPARED } from "~/db/client.server";
import { NOBODY_ON_PRODUCT, type PersonalState, type ProductPersonal } from "~/lib/personal";
import { sizesWaitedForColumn, sizesWaitedFromColumn } from "../catalogue/back-in-stock.server";
import { cartSummary, cartSummaryFromColumn, userCartSummaryColumn } from "./cart.server";
import { viewingProduct } from "./recently-viewed.server";
import { type ReviewEligibility, reviewEligibilityColumn } from "../catalogue/reviews.server";
import { getSessionUser, rememberLocale, sessionColumns, sessionFromRow, type SessionRow, sessionToRead, type SessionUser } from "../accounts/sessions.server";
import { wishlistIds, wishlistIdsColumn, wishlistIdsFromColumn } from "./wishlist.server";

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
  return { shopper: user, state: stateOf(user, cart, wishlist) };
}

type SessionCartRow = SessionRow & { cart: unknown; hearts: unknown };

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
    return { shopper: user, state: stateOf(user, cartSummaryFromColumn(row.cart), wishlistIdsFromColumn(row.hearts)), row };
  }
  return { shopper: null, state: { user: null, cart: await cartSummary(request, context), wishlist: [] }, row: null };
}

/** The session, its account, and the account's cart and hearts, by the session's id. */
const sessionCartAndHearts = (db: Db, sessionId: Expression<string>) =>
  db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(sessionColumns)
    .select([userCartSummaryColumn(db, sql.ref("u.id")).as("cart"), wishlistIdsColumn(db, sql.ref("u.id")).as("hearts")])
    .where("s.id", "=", sessionId);

const readSessionCartAndHearts = builtOnce((db, sessionId: Expression<string>) => sessionCartAndHearts(db, sessionId).modifyEnd(PREPARED));

function stateOf(user: SessionUser, cart: PersonalState["cart"], wishlist: number[]): PersonalState {
  return { user: { firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role }, cart, wishlist };
}

/**
 * A signed-in shopper's parts of a product page: whether they may review it, the
 * sizes they already wait for (asked only when the product has a sold-out size), and their recently
 * viewed row. Opening the page records the view.
 */
export async function productPersonal(db: Db, shopper: Pick<SessionUser, "id" | "email"> | null, productId: number, soldOut: boolean): Promise<ProductPersonal> {
  if (!shopper) return NOBODY_ON_PRODUCT;
  // One statement (docs/decisions/160): the recently viewed row's views, the review state and the
  // waited sizes; a new view is written after it.
  const viewed = await viewingFor(soldOut)(db, shopper.id, productId, shopper.email.toLowerCase());
  return productPersonalOf(viewed, soldOut);
}

const viewingProductOnSale = viewingProduct((db, { user, product }) => [reviewEligibilityColumn(db, user, product).as("review")]);
const viewingSoldOutProduct = viewingProduct((db, { user, product, email }) => [
  reviewEligibilityColumn(db, user, product).as("review"),
  sizesWaitedForColumn(db, product, email).as("waited"),
]);
const viewingFor = (soldOut: boolean) => (soldOut ? viewingSoldOutProduct : viewingProductOnSale);

function productPersonalOf(viewed: { recent: ProductPersonal["recent"]; more: Record<string, unknown> }, soldOut: boolean): ProductPersonal {
  return { review: viewed.more.review as ReviewEligibility, waited: soldOut ? sizesWaitedFromColumn(viewed.more.waited) : [], recent: viewed.recent };
}
