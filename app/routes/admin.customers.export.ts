import { exportCustomersCsv } from "~/domain/backoffice/customers-export.server";
import { staffView } from "~/domain/backoffice/staff-view.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { requirePermission } from "~/http/staff-guard.server";
import { requireTextQuery } from "~/http/form.server";
import type { Route } from "./+types/admin.customers.export";

/** Every account and every guest as a CSV download, guests marked as such (docs/decisions/217). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "customers.view");
  // The customers' details leave the shop: the password again after 15 minutes, then back to the download (docs/decisions/222).
  requireRecentAuthentication(request, staff);
  requireTextQuery(request);
  const csv = await exportCustomersCsv(context.db, staffView(staff.role));
  const day = new Date(Date.now() + 60 * 60 * 1000).toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="unboxed-customers-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
