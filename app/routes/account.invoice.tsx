import { data } from "react-router";
import { InvoiceDocument } from "~/components/invoice";
import { invoiceForCustomer, invoiceOptions, type InvoicePaper } from "~/domain/orders/invoice.server";
import { isOrderNumber } from "~/domain/orders/orders.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { requireUser } from "~/http/session.server";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import type { Route } from "./+types/account.invoice";

/** The customer's printable invoice of one of their own orders (save it as PDF from the print dialog). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  // A number that cannot be an order's (a NUL in it would be an error on PostgreSQL) is no order.
  const invoice = isOrderNumber(params.number) ? await invoiceForCustomer(context.db, context.config, user.id, params.number) : null;
  // Someone else's order, or none: the same 404 either way (someone else's is logged).
  if (!invoice) {
    await noteRefusedObject(context, request, user.id, { kind: "invoice", number: params.number });
    throw data(null, { status: 404 });
  }
  const { paper } = invoiceOptions(new URL(request.url));
  const t = requestTranslator(request);
  return { invoice, paper, title: `${t("invoice.invoice")} ${invoice.number} | Unboxed` };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), ensureMessages("invoice")]);
  return loaded;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function CustomerInvoice({ loaderData }: Route.ComponentProps) {
  const { invoice, paper } = loaderData;
  const base = `/orders/${encodeURIComponent(invoice.number)}`;
  const href = (o: { paper: InvoicePaper }) => `${base}/invoice${o.paper === "receipt" ? "?paper=receipt" : ""}`;
  return <InvoiceDocument invoice={invoice} kind="invoice" paper={paper} href={href} backHref={base} allowSlip={false} />;
}
