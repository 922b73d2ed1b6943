import { exportOrdersCsv, orderExportFileName, parseOrderExportFilters } from "~/domain/orders/order-export.server";
import { requirePermission } from "~/http/staff-guard.server";
import { requireTextQuery } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { staffView } from "~/domain/backoffice/staff-view.server";
import type { Route } from "./+types/admin.orders.export";

/** Orders for the accountant as a CSV download: a date range (Lagos days) and a status. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "orders.export");
  // The customers' details leave the shop: the password again after 15 minutes, then back to the download (docs/decisions/222).
  requireRecentAuthentication(request, staff);
  requireTextQuery(request);
  const parsed = parseOrderExportFilters(new URL(request.url).searchParams);
  if ("error" in parsed) {
    return new Response(requestTranslator(request)(parsed.error), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const csv = await exportOrdersCsv(context.db, parsed.filters, staffView(staff.role), context.config.shop.vatIncluded);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${orderExportFileName(parsed.filters)}"`,
      "Cache-Control": "no-store",
    },
  });
}
