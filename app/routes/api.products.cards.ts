import { recentCards } from "~/domain/shopper/recently-viewed.server";
import { requestTranslator } from "~/http/language.server";
import { parseCardIds, RECENT_SHOWN } from "~/lib/recently-viewed";
import type { Route } from "./+types/api.products.cards";

/**
 * `GET /api/products/cards?ids=12,7,30`: what a visitor's "Recently viewed" strip shows of these
 * perfumes, in the order asked, leaving out unknown and archived ones (docs/decisions/126). The answer
 * is the same for everyone, so browsers and shared caches may keep it a minute. Anything but up to
 * eight whole-number ids (once) is refused with 400 and a message in the shopper's language.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const asked = new URL(request.url).searchParams.getAll("ids");
  const ids = parseCardIds(asked.length === 1 ? asked[0] : null);
  if (!ids) {
    const t = requestTranslator(request);
    return Response.json({ error: t("product.recentErrors.ids", { count: RECENT_SHOWN }) }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  return Response.json({ products: await recentCards(context.db, ids) }, { headers: { "Cache-Control": "public, max-age=60" } });
}
