import { ensureCart } from "~/http/cart.server";
import { restoreRemindedCart } from "~/domain/messages/cart-reminders.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/cart.restore";

/**
 * The link in a cart reminder (docs/decisions/220): the reminded cart's items go into this browser's
 * cart (signed in or not, on any device), as far as stock allows, and the shopper lands on the cart.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const token = params.token ?? "";
  const { cartId, setCookie } = await ensureCart(request, context);
  const restored = await restoreRemindedCart(context.db, token, cartId);
  const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
  if (!restored) return redirectWithToast(context, "/cart", { type: "error", key: "messages.restore.unknown" }, { headers });
  // With the owner's code the reminder announced, now on the cart (docs/decisions/220).
  const toast = restored.code ? { key: "messages.restore.restoredCode", values: { code: restored.code } } : { key: "messages.restore.restored" };
  return redirectWithToast(context, "/cart", { type: "success", ...toast }, { headers });
}
