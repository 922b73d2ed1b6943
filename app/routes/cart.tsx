import { data, redirect } from "react-router";
import type { CartActionError } from "~/components/add-to-cart-button";
import { CartScreen } from "~/components/cart-screen";
import { addToCart, findCartId, requestCartView } from "~/http/cart.server";
import { type CartOutcome, clearCart, decrementLine, incrementLine, parseCartAction, PROBLEM_STATUS, cartFormFields, removeLine, setLineQuantity } from "~/domain/shopper/cart.server";
import { recentlyViewedInCart } from "~/domain/shopper/recently-viewed.server";
import { ownerAlert } from "~/domain/orders/order-alerts.server";
import { OrderError, placeWhatsAppOrder } from "~/domain/orders/orders.server";
import { consumeAttempt, TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { getSessionUser } from "~/http/session.server";
import { cartCodePanel } from "~/http/code-panel.server";
import { BODY_PROBLEM_KEY, BODY_PROBLEM_STATUS, readFormBody } from "~/http/form.server";
import type { Translate } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import type { ToastInput } from "~/lib/toast";
import { backTo, redirectWithToast } from "~/http/toast.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/cart";

// The cart is the shopper's own: never stored by a shared cache.
const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context.db);
  const t = requestTranslator(request);
  const reading = requestCartView(request, context);
  const inCart = reading.then((cart) => cart.lines.map((l) => l.productId));
  const [cart, recent] = await Promise.all([reading, recentlyViewedInCart(context.db, user?.id ?? null, request.headers.get("Cookie") ?? "", inCart)]);
  const code = await cartCodePanel(request, context, t, cart.lines, user);
  return data({ cart, signedIn: user !== null, recent, code, meta: { title: t("cart.meta.title") } }, { headers: PRIVATE });
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("cart")]);
  return data;
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get("Retry-After");
  return {
    "Cache-Control": actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control") ?? PRIVATE["Cache-Control"],
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.meta.title ?? "Unboxed" }, { name: "robots", content: "noindex" }];
}

/** A refusal, with its message already in the shopper's language (the cart's texts are not loaded on every page). */
function problem(t: Translate, status: number, key: string, values?: Record<string, string | number>, setCookie?: string | null, retryAfter?: number) {
  const headers = new Headers(PRIVATE);
  if (setCookie) headers.append("Set-Cookie", setCookie);
  if (retryAfter) headers.set("Retry-After", String(retryAfter));
  return data<CartActionError>({ error: { message: t(key, values) } }, { status, headers });
}

const TOASTS: Partial<Record<CartOutcome["kind"], (name?: string) => ToastInput>> = {
  added: () => ({ type: "success", key: "cart.toast.added" }),
  alreadyInCart: () => ({ type: "info", key: "cart.toast.alreadyInCart" }),
  removed: (name) => (name ? { type: "success", key: "cart.toast.removed", values: { name } } : { type: "success", key: "cart.toast.removedItem" }),
  cleared: () => ({ type: "success", key: "cart.toast.cleared" }),
};

const PROBLEM_KEYS: Record<Exclude<CartOutcome, { ok: true }>["kind"], string> = {
  unknownProduct: "cart.errors.unknownProduct",
  outOfStock: "cart.errors.outOfStock",
  stockLimit: "cart.errors.stockLimit",
  notInCart: "cart.errors.notInCart",
};

/**
 * Every cart change posts here, with or without JavaScript. Success: 303 back to the page it came from,
 * with the toast as a flash message (a fetcher follows it without a reload, replacing the history
 * entry). Refusals: 400 (malformed), 404 (no such product or line) or 409 (stock), with the message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const t = requestTranslator(request);
  const read = await readFormBody(request);
  if (read.problem) return problem(t, BODY_PROBLEM_STATUS[read.problem], BODY_PROBLEM_KEY[read.problem]);
  const parsed = parseCartAction(cartFormFields(read.form));
  if ("errorKey" in parsed) return problem(t, 400, parsed.errorKey);
  const input = parsed.action;
  const { db } = context;

  if (input.intent === "whatsapp") {
    const [user, cartId] = await Promise.all([getSessionUser(request, db), findCartId(request, context)]);
    try {
      const order = await placeWhatsAppOrder(
        db,
        { cartId, userId: user?.id ?? null },
        { countNewOrder: () => consumeAttempt(context, "whatsappIp", context.clientIp), holdHours: context.config.orderHoldHours, ownerAlert: ownerAlert(context.config) },
      );
      return redirect(`/cart/whatsapp/${order.number}`, { status: 303, headers: PRIVATE });
    } catch (error) {
      if (error instanceof TooManyAttempts) return problem(t, 429, "cart.errors.tooManyOrders", undefined, null, error.retryAfterSeconds);
      if (!(error instanceof OrderError)) throw error;
      if (error.problem === "tooManyOpen") return problem(t, 429, "cart.errors.tooManyOrders", undefined, null, error.retryAfter);
      return error.problem === "empty" ? problem(t, 400, "cart.errors.empty") : problem(t, 409, "cart.errors.orderFailed");
    }
  }

  let outcome: CartOutcome;
  let setCookie: string | null = null;
  if (input.intent === "add") {
    ({ outcome, setCookie } = await addToCart(request, context, input.productId, input.sizeId));
  } else {
    const cartId = await findCartId(request, context);
    if (!cartId) {
      // No cart (or a forged cookie): there is nothing to change.
      outcome = input.intent === "increment" || input.intent === "set" ? { ok: false, kind: "notInCart" } : { ok: true, kind: input.intent === "clear" ? "cleared" : "removed" };
    } else if (input.intent === "remove") outcome = await removeLine(db, cartId, input.productId, input.sizeId);
    else if (input.intent === "increment") outcome = await incrementLine(db, cartId, input.productId, input.sizeId);
    else if (input.intent === "decrement") outcome = await decrementLine(db, cartId, input.productId, input.sizeId);
    else if (input.intent === "set") outcome = await setLineQuantity(db, cartId, input.productId, input.quantity, input.sizeId);
    else outcome = await clearCart(db, cartId);
  }

  if (!outcome.ok) {
    const values = outcome.available !== undefined ? { count: outcome.available } : undefined;
    return problem(t, PROBLEM_STATUS[outcome.kind], PROBLEM_KEYS[outcome.kind], values, setCookie);
  }
  const headers = new Headers({ ...PRIVATE, "X-Remix-Replace": "true" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  const to = backTo(request, "/cart");
  const toast = TOASTS[outcome.kind]?.(outcome.productName);
  return toast ? redirectWithToast(context, to, toast, { headers }) : redirect(to, { status: 303, headers });
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  return <CartScreen page={loaderData} error={actionData && "error" in actionData ? actionData.error : null} />;
}
