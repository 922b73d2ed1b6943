import { useEffect } from "react";
import { Link, useFetcher, useRevalidator } from "react-router";
import type { CartActionError } from "~/components/add-to-cart-button";
import { Icon } from "~/components/icon";
import type { CartLine } from "~/domain/shopper/cart.server";
import { isBuyable, MAX_LINE_QUANTITY } from "~/lib/cart";
import { useT } from "~/lib/i18n";
import { imageVariantUrl } from "~/lib/images";
import { formatNaira } from "~/lib/money";

const iconButton =
  "grid h-11 w-11 shrink-0 place-items-center rounded-full border border-stone-300 bg-white text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40";

/** One line of the cart: its quantity changed in place (each change a plain form posting to /cart), or removed. */
export function CartLineRow({ line, quantity, removed }: { line: CartLine; quantity: number; removed: boolean }) {
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
