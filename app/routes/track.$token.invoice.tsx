import { data } from "react-router";
import { InvoiceDocument } from "~/components/invoice";
import { invoiceForLink, invoiceOptions, type InvoicePaper } from "~/domain/orders/invoice.server";
import { findOrderByLink } from "~/domain/orders/order-tracking.server";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import type { Route } from "./+types/track.$token.invoice";

/** The printable invoice of the order a private link opens (docs/decisions/217). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const order = await findOrderByLink(context.db, params.token.slice(0, 100));
  const invoice = order ? await invoiceForLink(context.db, context.config, order.number) : null;
  if (!invoice) throw data(null, { status: 404 });
  const { paper } = invoiceOptions(new URL(request.url));
  const t = requestTranslator(request);
  return { invoice, paper, title: `${t("invoice.invoice")} ${invoice.number} | Unboxed` };
}

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), ensureMessages("invoice")]);
  return loaded;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function PrivateLinkInvoice({ loaderData, params }: Route.ComponentProps) {
  const { invoice, paper } = loaderData;
  const base = `/track/${params.token}`;
  const href = (o: { paper: InvoicePaper }) => `${base}/invoice${o.paper === "receipt" ? "?paper=receipt" : ""}`;
  return <InvoiceDocument invoice={invoice} kind="invoice" paper={paper} href={href} backHref={base} allowSlip={false} />;
}
