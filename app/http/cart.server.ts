import type { AppLoadContext } from "react-router";
import type { Db } from "~/db/client.server";
import {
  addProductToCart,
  CART_DAYS,
  type CartHolder,
  type CartOutcome,
  type CartSummary,
  type CartView,
  cartSummaryOf,
  cartViewOf,
  findCartIdOf,
  isCartId,
  mergeGuestCartIntoUser,
  openCart,
} from "~/domain/shopper/cart.server";
import { readCookie, serializeCookie } from "./cookies.server";
import { getSessionUser } from "./session.server";

/**
 * The cart as the web finds it: a signed-in shopper's by the session, a visitor's by the id kept in
 * the ub_cart cookie. Only this module reads or writes that cookie; the cart's rules are the domain's
 * (app/domain/shopper/cart.server.ts), which is given the holder, never the request.
 */
export const CART_COOKIE = "ub_cart";

type CartContext = Pick<AppLoadContext, "db" | "config">;

function isSecure(context: Pick<AppLoadContext, "config">): boolean {
  return context.config.publicUrl.startsWith("https://");
}

/** Set-Cookie value carrying the anonymous cart id: HttpOnly, SameSite=Lax, Secure over https. */
export function cartCookie(context: Pick<AppLoadContext, "config">, cartId: string): string {
  return serializeCookie(CART_COOKIE, cartId, { httpOnly: true, secure: isSecure(context), maxAgeSeconds: CART_DAYS * 24 * 3600 });
}

/** Set-Cookie value that removes the cart cookie. */
export function clearCartCookie(context: Pick<AppLoadContext, "config">): string {
  return serializeCookie(CART_COOKIE, "", { httpOnly: true, secure: isSecure(context), maxAgeSeconds: 0 });
}

/** Whose cart this request may reach: the signed-in account's, or a well-formed cart cookie's; null for neither. */
export async function cartHolder(request: Request, db: Db): Promise<CartHolder | null> {
  const user = await getSessionUser(request, db);
  if (user) return { userId: user.id };
  const cookie = readCookie(request, CART_COOKIE);
  return isCartId(cookie) ? { visitorCartId: cookie } : null;
}

/** The id of this request's cart, if it has one (a malformed, unknown or forged cookie counts as none). */
export async function findCartId(request: Request, context: Pick<AppLoadContext, "db">): Promise<string | null> {
  return findCartIdOf(context.db, await cartHolder(request, context.db));
}

/**
 * This request's cart, created when it has none. `setCookie` renews an anonymous shopper's cookie;
 * null when signed in.
 */
export async function ensureCart(request: Request, context: CartContext): Promise<{ cartId: string; setCookie: string | null }> {
  const { cartId, visitor } = await openCart(context.db, await cartHolder(request, context.db));
  return { cartId, setCookie: visitor ? cartCookie(context, cartId) : null };
}

/** This request's cart as the cart page shows it. */
export async function requestCartView(request: Request, context: Pick<AppLoadContext, "db">): Promise<CartView> {
  return cartViewOf(context.db, await cartHolder(request, context.db));
}

/** What the header shows on every page, for this request's cart. */
export async function cartSummary(request: Request, context: Pick<AppLoadContext, "db">): Promise<CartSummary> {
  return cartSummaryOf(context.db, await cartHolder(request, context.db));
}

/** Adds a product to this request's cart; the cookie is set only when a visitor's cart was made or used. */
export async function addToCart(
  request: Request,
  context: CartContext,
  productId: number,
  sizeId?: number | null,
): Promise<{ outcome: CartOutcome; setCookie: string | null }> {
  const { outcome, cartId, visitor } = await addProductToCart(context.db, await cartHolder(request, context.db), productId, sizeId);
  return { outcome, setCookie: cartId && visitor ? cartCookie(context, cartId) : null };
}

/**
 * At sign-in: the cart the browser filled as a visitor joins the account's cart. Returns a Set-Cookie
 * value that clears the cart cookie, or null when there was none.
 */
export async function mergeCartOnSignIn(request: Request, context: CartContext, userId: number): Promise<string | null> {
  const cookie = readCookie(request, CART_COOKIE);
  if (cookie === undefined) return null;
  if (isCartId(cookie)) await mergeGuestCartIntoUser(context.db, cookie, userId);
  return clearCartCookie(context);
}
