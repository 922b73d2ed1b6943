import { data } from "react-router";
import { InvoiceDocument } from "~/components/invoice";
import { invoiceForAdmin, invoiceOptions, type InvoiceKind, type InvoicePaper } from "~/domain/orders/invoice.server";
import { requirePermission } from "~/http/staff-guard.server";
import { invoiceFor, staffView } from "~/domain/backoffice/staff-view.server";
import { ensureMessages } from "~/lib/i18n.client";
import { requestTranslator } from "~/http/language.server";
import type { Route } from "./+types/admin.invoice";

/** The printable invoice or packing slip of any order, for the owner (outside the admin frame, to print). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "orders.view");
  const view = staffView(staff.role);
  const options = invoiceOptions(new URL(request.url));
  // The invoice is money: a role without prices prints the packing slip only (docs/decisions/218).
  if (options.kind !== "slip" && !view.prices) throw data(null, { status: 403 });
  const found = await invoiceForAdmin(context.db, context.config, params.number);
  if (!found) throw data(null, { status: 404 });
  const invoice = invoiceFor(found, view);
  const t = requestTranslator(request);
  return { invoice, ...options, allowInvoice: view.prices, title: `${t(options.kind === "slip" ? "invoice.slip" : "invoice.invoice")} ${invoice.number}` };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), ensureMessages("invoice"), ensureMessages("admin")]);
  return loaded;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function AdminInvoice({ loaderData }: Route.ComponentProps) {
  const { invoice, kind, paper, allowInvoice } = loaderData;
  const base = `/admin/orders/${encodeURIComponent(invoice.number)}`;
  const href = (o: { kind: InvoiceKind; paper: InvoicePaper }) =>
    `${base}/print${o.kind === "slip" || o.paper === "receipt" ? "?" : ""}${[o.kind === "slip" ? "doc=slip" : "", o.paper === "receipt" ? "paper=receipt" : ""].filter(Boolean).join("&")}`;
  return <InvoiceDocument invoice={invoice} kind={kind} paper={paper} href={href} backHref={base} allowSlip={allowInvoice} />;
}
