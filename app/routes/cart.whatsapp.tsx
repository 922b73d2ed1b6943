import { data, Link } from "react-router";
import { findCartId } from "~/http/cart.server";
import { findOrderByNumber, whatsAppMessage, whatsAppUrl } from "~/domain/orders/orders.server";
import { getSessionUser } from "~/http/session.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { formatNaira } from "~/lib/money";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/cart.whatsapp";

/**
 * Where 'Checkout on WhatsApp' lands (in its new tab) once the order is recorded: it goes straight on
 * to wa.me with the message written out, and shows the reference and a link in case it does not.
 * Only the cart (or the account) that made the order can open it.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const [order, cartId, user] = await Promise.all([
    findOrderByNumber(context.db, params.reference),
    findCartId(request, context),
    getSessionUser(request, context.db),
  ]);
  const mine = order && order.channel === "whatsapp" && ((cartId !== null && order.cartId === cartId) || (user !== null && order.userId === user.id));
  if (!order || !mine) throw data(null, { status: 404 });
  const t = requestTranslator(request);
  return data(
    {
      number: order.number,
      total: order.total,
      items: order.items.map((i) => ({ name: i.name, quantity: i.quantity, lineTotal: i.unitPrice * i.quantity })),
      url: whatsAppUrl(context.config.shop.whatsapp, whatsAppMessage(t, order)),
      title: t("cart.meta.whatsappTitle"),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("cart")]);
  return data;
}

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return [{ title: data.title }, { name: "robots", content: "noindex" }, { httpEquiv: "refresh", content: `0;url=${data.url}` }];
}

export default function WhatsAppHandOff({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <section aria-labelledby="whatsapp-heading" className="mx-auto max-w-lg py-8 text-center">
      <h1 id="whatsapp-heading" className="font-serif text-3xl font-semibold">
        {t("cart.whatsapp.heading")}
      </h1>
      <p className="mt-4 text-stone-700">{t("cart.whatsapp.recorded", { number: loaderData.number })}</p>
      <ul className="mt-6 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white text-left">
        {loaderData.items.map((item, i) => (
          <li key={i} className="flex justify-between gap-4 px-4 py-3 text-sm">
            <span>
              {item.name} × {item.quantity}
            </span>
            <span className="tabular-nums">{formatNaira(item.lineTotal)}</span>
          </li>
        ))}
        <li className="flex justify-between gap-4 px-4 py-3 font-semibold">
          <span>{t("cart.summary.subtotal")}</span>
          <span className="tabular-nums">{formatNaira(loaderData.total)}</span>
        </li>
      </ul>
      <a
        href={loaderData.url}
        rel="noopener noreferrer"
        className="mt-6 inline-flex min-h-12 items-center justify-center rounded-full bg-[#1f7a4d] px-6 font-medium text-white hover:bg-[#176240] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {t("cart.whatsapp.open")}
      </a>
      <p className="mt-4">
        <Link to="/cart" className="text-sm text-stone-700 underline underline-offset-2">
          {t("cart.whatsapp.back")}
        </Link>
      </p>
    </section>
  );
}
