import { type Expression, sql } from "kysely";
import { builtOnce } from "~/db/built-once.server";
import { type Db, PREPARED } from "~/db/client.server";
import { NOBODY_ON_PRODUCT, type PersonalState, type ProductPersonal } from "~/lib/personal";
import { sizesWaitedForColumn, sizesWaitedFromColumn } from "../catalogue/back-in-stock.server";
import { userCartSummaryColumn } from "./cart.server";
import { viewingProduct } from "./recently-viewed.server";
import { type ReviewEligibility, reviewEligibilityColumn } from "../catalogue/reviews.server";
import { sessionColumns, type SessionRow, type SessionUser } from "../accounts/sessions.server";
import { wishlistIdsColumn } from "./wishlist.server";

/**
 * What makes a storefront page this shopper's own: who is signed in, the cart, and the hearts. The
 * web edge (app/http/personal.server.ts) reads them once per request with these.
 */

/** The session, its account, and the account's cart and hearts, by the session's id. */
const sessionCartAndHearts = (db: Db, sessionId: Expression<string>) =>
  db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(sessionColumns)
    .select([userCartSummaryColumn(db, sql.ref("u.id")).as("cart"), wishlistIdsColumn(db, sql.ref("u.id")).as("hearts")])
    .where("s.id", "=", sessionId);

export const readSessionCartAndHearts = builtOnce((db, sessionId: Expression<string>) => sessionCartAndHearts(db, sessionId).modifyEnd(PREPARED));

export type SessionCartRow = SessionRow & { cart: unknown; hearts: unknown };

export function personalStateOf(user: SessionUser, cart: PersonalState["cart"], wishlist: number[]): PersonalState {
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
