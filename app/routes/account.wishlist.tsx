import { data, redirect } from "react-router";
import { z } from "zod";
import { getSessionUser } from "~/http/session.server";
import { toggleWishlist } from "~/domain/shopper/wishlist.server";
import { readForm } from "~/http/form.server";
import { backTo, redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/account.wishlist";

export function loader() {
  return redirect("/profile?tab=favourites");
}

const input = z.object({ productId: z.coerce.number().int().positive().max(2_147_483_647) });

/** Toggles a product in the signed-in shopper's wishlist; anonymous shoppers sign in and come back. */
export async function action({ request, context }: Route.ActionArgs) {
  const back = backTo(request, "/");
  const user = await getSessionUser(request, context.db);
  if (!user) return redirect(`/auth?redirectTo=${encodeURIComponent(back)}`, { status: 303 });

  const parsed = input.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) throw data(null, { status: 400 });
  const result = await toggleWishlist(context.db, user.id, parsed.data.productId);
  // A product taken out of the shop meanwhile: say so rather than fail silently.
  if (!result) return redirectWithToast(context, back, { type: "error", key: "account.wishlist.failed" });
  return redirectWithToast(context, back, {
    type: "success",
    key: result.inWishlist ? "account.wishlist.added" : "account.wishlist.removed",
  });
}

