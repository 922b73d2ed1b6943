import type { AppLoadContext } from "react-router";
import { readCookie } from "~/lib/cookies.server";
import { getSessionUser } from "./sessions.server";

/**
 * The cart lives on the server: a signed-in shopper's cart belongs to the account; an anonymous
 * shopper's is found by the random id in the ub_cart cookie. Lines hold product and quantity only.
 */
export const CART_COOKIE = "ub_cart";
const CART_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** The id of this request's cart, if it has one (a malformed cookie counts as none). */
export async function findCartId(request: Request, context: Pick<AppLoadContext, "db">): Promise<string | null> {
  const user = await getSessionUser(request, context.db);
  if (user) {
    const row = await context.db.selectFrom("carts").select("id").where("user_id", "=", user.id).executeTakeFirst();
    return row?.id ?? null;
  }
  const cookie = readCookie(request, CART_COOKIE);
  if (!cookie || !CART_ID_PATTERN.test(cookie)) return null;
  const row = await context.db
    .selectFrom("carts")
    .select("id")
    .where("id", "=", cookie)
    .where("user_id", "is", null)
    .executeTakeFirst();
  return row?.id ?? null;
}

export interface CartSummary {
  /** distinct lines, as the header badge shows them */
  lines: number;
  /** kobo, of the lines that can be bought now (in the shop and in stock) */
  total: number;
}

/** What the header shows on every page: read fresh from the catalogue. */
export async function cartSummary(request: Request, context: Pick<AppLoadContext, "db">): Promise<CartSummary> {
  const cartId = await findCartId(request, context);
  if (!cartId) return { lines: 0, total: 0 };
  const rows = await context.db
    .selectFrom("cart_lines as l")
    .innerJoin("products as p", "p.id", "l.product_id")
    .select(["l.quantity", "p.price", "p.stock", "p.archived_at"])
    .where("l.cart_id", "=", cartId)
    .execute();
  const buyable = rows.filter((r) => r.archived_at === null && r.stock > 0);
  return {
    lines: rows.length,
    total: buyable.reduce((sum, r) => sum + r.price * Math.min(r.quantity, r.stock), 0),
  };
}
