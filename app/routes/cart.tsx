import { useEffect, useMemo } from "react";
import { WhatsAppOrderButton } from "~/components/whatsapp-order-button";
import { data, Link, redirect, useFetcher, useRevalidator } from "react-router";
import type { CartActionError } from "~/components/add-to-cart-button";
import { Icon } from "~/components/icon";
import { usePendingCartActions } from "~/components/cart-summary";
import { addToCart, findCartId, requestCartView } from "~/http/cart.server";
import { type CartLine, type CartOutcome, clearCart, decrementLine, incrementLine, parseCartAction, PROBLEM_STATUS, cartFormFields, removeLine, setLineQuantity } from "~/domain/shopper/cart.server";
import { RecentStrip } from "~/components/recently-viewed-strip";
import { recentlyViewedInCart } from "~/domain/shopper/recently-viewed.server";
import { ownerAlert } from "~/domain/orders/order-alerts.server";
import { OrderError, placeWhatsAppOrder } from "~/domain/orders/orders.server";
import { consumeAttempt, TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { getSessionUser } from "~/http/session.server";
import { CartDiscount } from "~/components/discount-code-form";
import { cartCodePanel } from "~/http/code-panel.server";
import { isBuyable, MAX_LINE_QUANTITY } from "~/lib/cart";
import { applyCartActions } from "~/lib/cart-optimistic";
import { BODY_PROBLEM_KEY, BODY_PROBLEM_STATUS, readFormBody } from "~/http/form.server";
import { type Translate, useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { imageVariantUrl } from "~/lib/images";
import { formatNaira } from "~/lib/money";
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

// ---------------------------------------------------------------------------------------------

const iconButton =
  "grid h-11 w-11 shrink-0 place-items-center rounded-full border border-stone-300 bg-white text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40";

function LineRow({ line, quantity, removed }: { line: CartLine; quantity: number; removed: boolean }) {
  const { t } = useT();
  const fetcher = useFetcher<CartActionError>();
  const revalidator = useRevalidator();
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  useEffect(() => {
    // Refused (e.g. the stock changed in the meantime): show the cart as it now is.
    if (error) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [error]);

  const buyable = isBuyable(line);
  const lineTotal = buyable ? line.unitPrice * quantity : 0;
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="productId" value={line.productId} />
      <input type="hidden" name="sizeId" value={line.sizeId} />
    </>
  );
  const note =
    line.status === "soldOut"
      ? t("cart.line.soldOut")
      : line.status === "unavailable"
        ? t("cart.line.unavailable")
        : line.status === "reduced"
          ? t("cart.line.reduced", { count: line.stock })
          : null;

  return (
    <tr
      role="row"
      hidden={removed}
      data-product-id={line.productId}
      data-size-id={line.sizeId}
      className={`grid grid-cols-[4rem_1fr_auto] items-center gap-x-3 gap-y-2 border-b border-stone-200 py-4 md:table-row ${buyable ? "" : "bg-stone-100/60"}`}
    >
      <td role="cell" className="row-span-2 md:table-cell md:w-20 md:py-4 md:pl-2">
        <div className="h-20 w-16 overflow-hidden rounded-md bg-brand-50">
          {line.image && (
            <img
              src={imageVariantUrl(line.image, 320)}
              alt=""
              width={64}
              height={80}
              loading="lazy"
              decoding="async"
              className={`h-full w-full object-cover ${buyable ? "" : "opacity-50 grayscale"}`}
            />
          )}
        </div>
      </td>
      <td role="cell" className="min-w-0 md:table-cell md:py-4">
        <p className="text-xs uppercase tracking-wide text-stone-500">{line.brandName}</p>
        {line.status === "unavailable" ? (
          <p className="font-medium text-stone-600">{line.name}</p>
        ) : (
          <Link to={`/shop/${line.productId}`} className="font-medium text-ink underline-offset-2 hover:underline">
            {line.name}
          </Link>
        )}
        {line.sizeLabel && <p className="text-sm text-stone-700" data-size-label>{t("cart.line.size", { size: line.sizeLabel })}</p>}
        <p className="text-sm text-stone-600">{t("cart.line.each", { price: formatNaira(line.unitPrice) })}</p>
        {note && (
          <p className={`mt-1 text-sm font-medium ${buyable ? "text-amber-800" : "text-red-700"}`} data-line-status={line.status}>
            {note}
          </p>
        )}
        {error && (
          <p role="alert" className="mt-1 text-sm font-medium text-red-700">
            {error.message}
          </p>
        )}
      </td>
      <td role="cell" className="col-start-2 md:table-cell md:py-4">
        {buyable ? (
          <div className="flex items-center gap-1">
            <fetcher.Form method="post" action="/cart" preventScrollReset>
              {hidden("decrement")}
              <button type="submit" className={iconButton} aria-label={t("cart.line.decrease", { name: line.name })}>
                <Icon name="minus" size={18} />
              </button>
            </fetcher.Form>
            <fetcher.Form
              method="post"
              action="/cart"
              preventScrollReset
              onBlur={(event) => {
                const input = event.currentTarget.elements.namedItem("quantity") as HTMLInputElement;
                if (input.value !== String(quantity) && input.checkValidity()) fetcher.submit(event.currentTarget);
              }}
            >
              {hidden("set")}
              <input
                // Shows the latest quantity whenever it changes, and what was typed until then.
                key={quantity}
                type="number"
                name="quantity"
                inputMode="numeric"
                min={1}
                max={Math.min(line.stock, MAX_LINE_QUANTITY)}
                step={1}
                required
                defaultValue={quantity}
                aria-label={t("cart.line.quantity", { name: line.name })}
                className="h-11 w-12 rounded-md border border-stone-300 bg-white text-center text-base tabular-nums [appearance:textfield] focus-visible:outline-2 focus-visible:outline-brand-600 [&::-webkit-inner-spin-button]:appearance-none"
              />
            </fetcher.Form>
            <fetcher.Form method="post" action="/cart" preventScrollReset>
              {hidden("increment")}
              <button type="submit" className={iconButton} disabled={quantity >= line.stock} aria-label={t("cart.line.increase", { name: line.name })}>
                <Icon name="plus" size={18} />
              </button>
            </fetcher.Form>
          </div>
        ) : (
          <span className="text-sm text-stone-500">{t("cart.line.notCounted")}</span>
        )}
      </td>
      <td role="cell" className="col-start-3 row-start-1 self-start text-right text-sm font-semibold tabular-nums sm:text-base md:table-cell md:py-4 md:align-middle" data-testid="line-total">
        {buyable ? formatNaira(lineTotal) : t("cart.line.notCounted")}
      </td>
      <td role="cell" className="col-start-3 row-start-2 text-right md:table-cell md:w-14 md:py-4 md:pr-2">
        <fetcher.Form method="post" action="/cart" preventScrollReset className="inline-block">
          {hidden("remove")}
          <button
            type="submit"
            className="grid h-11 w-11 place-items-center rounded-full text-stone-600 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
            aria-label={t("cart.line.remove", { name: line.name })}
          >
            <Icon name="trash" size={20} />
          </button>
        </fetcher.Form>
      </td>
    </tr>
  );
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const { cart, signedIn } = loaderData;
  const clearFetcher = useFetcher();
  const pending = usePendingCartActions();

  // The lines as they will be once the actions in flight are done.
  const expected = useMemo(() => {
    const base = cart.lines.map((l) => ({ ...l, buyable: isBuyable(l) }));
    return new Map(applyCartActions(base, pending).lines.map((l) => [l.sizeId, l]));
  }, [cart.lines, pending]);
  const lines = [...expected.values()];
  const subtotal = lines.reduce((sum, l) => (l.buyable ? sum + l.unitPrice * l.quantity : sum), 0);
  const canOrder = lines.some((l) => l.buyable);
  const hasExcluded = lines.some((l) => !l.buyable);
  const empty = lines.length === 0;
  // Without JavaScript a refused action renders this page with its message.
  const error = actionData && "error" in actionData ? actionData.error : null;

  return (
    <section aria-labelledby="cart-heading">
      <h1 id="cart-heading" className="font-serif text-3xl font-semibold">
        {t("cart.title")}
      </h1>
      {error && (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {error.message}
        </p>
      )}

      {empty && (
        <div className="mt-8 rounded-xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
          <p className="text-lg font-medium">{t("cart.empty")}</p>
          <p className="mt-2 text-stone-600">{t("cart.emptyHint")}</p>
          <Link to="/shop" className="mt-6 inline-flex min-h-11 items-center rounded-full bg-ink px-5 text-white hover:bg-stone-700">
            {t("cart.continueShopping")}
          </Link>
          <WhatsAppButton disabled className="mx-auto mt-6 max-w-xs" />
        </div>
      )}
      {/* Rows stay mounted (hidden) until the server confirms a removal: their answer must not be dropped. */}
      {cart.lines.length > 0 && (
        <div hidden={empty} className="mt-6 lg:grid lg:grid-cols-[1fr_20rem] lg:items-start lg:gap-8">
          <div>
            <table role="table" className="block w-full md:table">
              <caption className="sr-only">{t("cart.table.caption")}</caption>
              <thead role="rowgroup" className="sr-only md:not-sr-only md:table-header-group">
                <tr role="row" className="border-b border-stone-300 text-left text-xs uppercase tracking-wide text-stone-500">
                  <th role="columnheader" scope="col" colSpan={2} className="py-2 pl-2 font-medium">
                    {t("cart.table.product")}
                  </th>
                  <th role="columnheader" scope="col" className="py-2 font-medium">
                    {t("cart.table.quantity")}
                  </th>
                  <th role="columnheader" scope="col" className="py-2 text-right font-medium">
                    {t("cart.table.total")}
                  </th>
                  <th role="columnheader" scope="col" className="py-2 pr-2 text-right font-medium">
                    <span className="sr-only">{t("cart.table.remove")}</span>
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup" className="block md:table-row-group">
                {cart.lines.map((line) => {
                  const next = expected.get(line.sizeId);
                  return <LineRow key={line.sizeId} line={line} quantity={next?.quantity ?? line.quantity} removed={!next} />;
                })}
              </tbody>
            </table>
            <clearFetcher.Form method="post" action="/cart" preventScrollReset className="mt-4">
              <input type="hidden" name="intent" value="clear" />
              <button type="submit" className="min-h-11 rounded-full px-3 text-sm font-medium text-stone-700 underline underline-offset-2 hover:text-red-700">
                {t("cart.summary.clear")}
              </button>
            </clearFetcher.Form>
          </div>

          <aside aria-labelledby="summary-heading" className="mt-8 rounded-xl border border-stone-200 bg-white p-5 lg:mt-0">
            <h2 id="summary-heading" className="text-lg font-semibold">
              {t("cart.summary.title")}
            </h2>
            <dl className="mt-4 flex items-baseline justify-between">
              <dt>{t("cart.summary.subtotal")}</dt>
              <dd className="text-xl font-semibold tabular-nums" data-testid="cart-subtotal">
                {formatNaira(subtotal)}
              </dd>
            </dl>
            {!empty && <CartDiscount panel={loaderData.code} subtotal={subtotal} />}
            <p className="mt-1 text-sm text-stone-600">{t("cart.summary.note")}</p>
            {hasExcluded && <p className="mt-2 text-sm text-amber-800">{t("cart.summary.excluded")}</p>}
            <div className="mt-5 grid gap-3">
              {canOrder ? (
                <Link
                  to={signedIn ? "/checkout" : `/auth?redirectTo=${encodeURIComponent("/checkout")}`}
                  className="inline-flex min-h-12 items-center justify-center rounded-full bg-ink px-5 font-medium text-white hover:bg-stone-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                >
                  {t("cart.summary.checkout")}
                </Link>
              ) : (
                <button type="button" disabled className="min-h-12 rounded-full bg-stone-300 px-5 font-medium text-stone-600">
                  {t("cart.summary.checkout")}
                </button>
              )}
              {!signedIn && canOrder && <p className="-mt-1 text-center text-xs text-stone-600">{t("cart.summary.signInHint")}</p>}
              {!empty && <WhatsAppButton disabled={!canOrder} />}
            </div>
          </aside>
        </div>
      )}
      <RecentStrip title={t("cart.recent")} products={loaderData.recent} />
    </section>
  );
}

function WhatsAppButton({ disabled, className = "" }: { disabled: boolean; className?: string }) {
  const { t } = useT();
  return <WhatsAppOrderButton disabled={disabled} className={className} label={t("cart.summary.whatsapp")} hint={t("cart.summary.whatsappHint")} hintId="whatsapp-hint" />;
}
