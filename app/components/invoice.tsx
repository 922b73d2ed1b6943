import { Link } from "react-router";
import type { InvoiceKind, InvoicePaper, InvoiceView } from "~/domain/orders/invoice.server";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { formatPhone } from "~/lib/phone";

const toolbarLink = "inline-flex min-h-11 items-center rounded-lg border border-stone-300 bg-white px-3 text-sm hover:bg-stone-100 aria-[current=page]:bg-ink aria-[current=page]:text-white";

/**
 * A printable invoice or packing slip (no prices). Two papers: A4, and 80 mm receipt printers
 * (app.css gives each its @page). The toolbar is not printed.
 */
export function InvoiceDocument({
  invoice,
  kind,
  paper,
  href,
  backHref,
  allowSlip,
}: {
  invoice: InvoiceView;
  kind: InvoiceKind;
  paper: InvoicePaper;
  /** the same document with other options */
  href: (options: { kind: InvoiceKind; paper: InvoicePaper }) => string;
  backHref: string;
  allowSlip: boolean;
}) {
  const { t, locale } = useT();
  const receipt = paper === "receipt";
  const slip = kind === "slip";
  return (
    <div className={`min-h-screen bg-stone-100 print:bg-white ${receipt ? "print-receipt" : "print-a4"}`}>
      <nav aria-label={t("invoice.toolbar")} className="flex flex-wrap items-center gap-2 border-b border-stone-200 bg-white px-4 py-3 print:hidden">
        <Link to={backHref} className={toolbarLink}>
          {t("invoice.back")}
        </Link>
        {allowSlip && (
          <>
            <Link to={href({ kind: "invoice", paper })} className={toolbarLink} aria-current={!slip ? "page" : undefined}>
              {t("invoice.invoice")}
            </Link>
            <Link to={href({ kind: "slip", paper })} className={toolbarLink} aria-current={slip ? "page" : undefined}>
              {t("invoice.slip")}
            </Link>
          </>
        )}
        <Link to={href({ kind, paper: "a4" })} className={toolbarLink} aria-current={!receipt ? "page" : undefined}>
          {t("invoice.a4")}
        </Link>
        <Link to={href({ kind, paper: "receipt" })} className={toolbarLink} aria-current={receipt ? "page" : undefined}>
          {t("invoice.receipt")}
        </Link>
        <button type="button" onClick={() => window.print()} className="inline-flex min-h-11 items-center rounded-lg bg-ink px-4 text-sm font-medium text-white">
          {t("invoice.print")}
        </button>
        <p className="basis-full text-xs text-stone-600">{t("invoice.hint")}</p>
      </nav>

      <main
        id="main"
        data-invoice={kind}
        className={`mx-auto bg-white text-ink shadow-sm print:shadow-none ${
          receipt ? "my-4 w-[80mm] p-3 text-[11px] leading-snug print:my-0 print:w-full print:p-0" : "my-6 max-w-[210mm] p-10 text-sm print:my-0 print:max-w-none print:p-0"
        }`}
      >
        <header className={receipt ? "space-y-2 text-center" : "flex items-start justify-between gap-6"}>
          <div className={receipt ? "" : "space-y-1"}>
            <p className="font-serif text-2xl font-semibold">{invoice.shop.name}</p>
            <p>{invoice.shop.address}</p>
            <p>{invoice.shop.email}</p>
            <p>{invoice.shop.phone}</p>
          </div>
          <div className={receipt ? "flex flex-col items-center" : "flex flex-col items-end text-right"}>
            <h1 className="text-xl font-semibold uppercase tracking-wide">{slip ? t("invoice.slip") : t("invoice.invoice")}</h1>
            <p className="mt-1">
              {t("invoice.number")} <strong data-invoice-number>{invoice.number}</strong>
            </p>
            <p>
              {t("invoice.date")} {formatLagosTime(invoice.createdAt, locale)}
            </p>
            <svg
              viewBox={`0 0 ${invoice.qr.size} ${invoice.qr.size}`}
              width={receipt ? 96 : 112}
              height={receipt ? 96 : 112}
              role="img"
              aria-label={t("invoice.qr", { number: invoice.number })}
              className="mt-2"
              shapeRendering="crispEdges"
              data-invoice-qr
            >
              <rect width={invoice.qr.size} height={invoice.qr.size} fill="#fff" />
              <path d={invoice.qr.d} fill="#000" />
            </svg>
          </div>
        </header>

        <section className={`grid gap-4 ${receipt ? "mt-3 border-t border-dashed border-stone-400 pt-2" : "mt-8 sm:grid-cols-2"}`}>
          <div>
            <h2 className="font-semibold">{t("invoice.customer")}</h2>
            {invoice.customer ? (
              <>
                <p>{invoice.customer.name}</p>
                {invoice.customer.email && <p>{invoice.customer.email}</p>}
              </>
            ) : (
              <p>{t(`invoice.channel.${invoice.channel}`)}</p>
            )}
          </div>
          <div>
            <h2 className="font-semibold">{t("invoice.deliverTo")}</h2>
            {invoice.address ? (
              <address className="not-italic" data-invoice-address>
                {invoice.address.street}
                <br />
                {invoice.address.city}, {invoice.address.state}
                <br />
                {invoice.address.country}
              </address>
            ) : (
              <p>{t("invoice.noAddress")}</p>
            )}
            {invoice.phone && <p data-invoice-phone>{t("invoice.phone", { phone: formatPhone(invoice.phone) })}</p>}
          </div>
        </section>

        <table className={`w-full text-left ${receipt ? "mt-3" : "mt-8"}`}>
          <thead className="border-b border-stone-400">
            <tr>
              <th scope="col" className="py-1 pr-2 font-semibold">{t("invoice.item")}</th>
              <th scope="col" className="py-1 pr-2 text-right font-semibold">{t("invoice.quantity")}</th>
              {!slip && <th scope="col" className={`py-1 pr-2 text-right font-semibold ${receipt ? "hidden" : ""}`}>{t("invoice.unitPrice")}</th>}
              {!slip && <th scope="col" className="py-1 text-right font-semibold">{t("invoice.amount")}</th>}
              {slip && <th scope="col" className="py-1 text-right font-semibold">{t("invoice.packed")}</th>}
            </tr>
          </thead>
          <tbody>
            {invoice.items.map((item, i) => (
              <tr key={i} className="border-b border-stone-200 align-top" data-invoice-item>
                <td className="py-1 pr-2">{item.name}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{item.quantity}</td>
                {!slip && <td className={`py-1 pr-2 text-right tabular-nums ${receipt ? "hidden" : ""}`}>{formatNaira(item.unitPrice)}</td>}
                {!slip && <td className="py-1 text-right tabular-nums">{formatNaira(item.lineTotal)}</td>}
                {slip && <td className="py-1 text-right" aria-hidden="true">☐</td>}
              </tr>
            ))}
          </tbody>
          {!slip && (
            <tfoot>
              <tr>
                <th scope="row" colSpan={receipt ? 2 : 3} className="pt-2 pr-2 text-right font-normal">{t("invoice.subtotal")}</th>
                <td className="pt-2 text-right tabular-nums">{formatNaira(invoice.subtotal)}</td>
              </tr>
              {invoice.discount > 0 && (
                <tr>
                  <th scope="row" colSpan={receipt ? 2 : 3} className="pr-2 text-right font-normal">{t("invoice.discount", { code: invoice.promotionCode ?? "" })}</th>
                  <td className="text-right tabular-nums" data-invoice-discount>−{formatNaira(invoice.discount)}</td>
                </tr>
              )}
              <tr>
                <th scope="row" colSpan={receipt ? 2 : 3} className="pr-2 text-right font-normal">{t("invoice.shipping")}</th>
                <td className="text-right tabular-nums">{invoice.shipping === 0 ? t("invoice.free") : formatNaira(invoice.shipping)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={receipt ? 2 : 3} className="pr-2 text-right font-semibold">{t("invoice.total")}</th>
                <td className="text-right font-semibold tabular-nums" data-invoice-total>{formatNaira(invoice.total)}</td>
              </tr>
              {invoice.vat !== null && (
                <tr>
                  <th scope="row" colSpan={receipt ? 2 : 3} className="pr-2 text-right font-normal text-stone-600">{t("invoice.vat")}</th>
                  <td className="text-right tabular-nums text-stone-600" data-invoice-vat>{formatNaira(invoice.vat)}</td>
                </tr>
              )}
              {/* What a gift card and store credit paid of the total, and what is left (docs/decisions/224). */}
              {invoice.giftCard > 0 && (
                <tr>
                  <th scope="row" colSpan={receipt ? 2 : 3} className="pr-2 text-right font-normal">{t("invoice.giftCard", { code: invoice.giftCardCode ?? "" })}</th>
                  <td className="text-right tabular-nums" data-invoice-gift-card>−{formatNaira(invoice.giftCard)}</td>
                </tr>
              )}
              {invoice.storeCredit > 0 && (
                <tr>
                  <th scope="row" colSpan={receipt ? 2 : 3} className="pr-2 text-right font-normal">{t("invoice.storeCredit")}</th>
                  <td className="text-right tabular-nums" data-invoice-store-credit>−{formatNaira(invoice.storeCredit)}</td>
                </tr>
              )}
              {invoice.giftCard + invoice.storeCredit > 0 && (
                <tr>
                  <th scope="row" colSpan={receipt ? 2 : 3} className="pr-2 text-right font-semibold">{t("invoice.due")}</th>
                  <td className="text-right font-semibold tabular-nums" data-invoice-due>{formatNaira(invoice.total - invoice.giftCard - invoice.storeCredit)}</td>
                </tr>
              )}
            </tfoot>
          )}
        </table>

        {slip ? (
          <p className={receipt ? "mt-3" : "mt-8"}>{t("invoice.slipNote", { count: invoice.items.reduce((n, i) => n + i.quantity, 0) })}</p>
        ) : (
          <p className={receipt ? "mt-3" : "mt-8"} data-invoice-payment>
            {paymentLine(invoice, t, locale)}
          </p>
        )}
        <p className={`${receipt ? "mt-2 text-center" : "mt-4"} text-stone-600`}>{t("invoice.thanks")}</p>
      </main>
    </div>
  );
}

/** How the invoice says the order is or will be paid, from its payment status and method. */
function paymentLine(invoice: InvoiceView, t: ReturnType<typeof useT>["t"], locale: ReturnType<typeof useT>["locale"]): string {
  const { status, method, paidAt } = invoice.payment;
  if (status === "paid") return t("invoice.paid", { date: paidAt ? formatLagosTime(paidAt, locale) : "" });
  if (status === "refunded") return t("invoice.refunded");
  if (method === "on_delivery") return t("invoice.payOnDelivery");
  if (method === "paystack") return t("invoice.payOnline");
  const bank = invoice.shop.bank;
  if (bank) return t("invoice.payByTransfer", { bank: bank.name, account: bank.accountNumber, holder: bank.accountName, number: invoice.number });
  return t("invoice.payAsAgreed");
}
