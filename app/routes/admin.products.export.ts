import { exportCatalogueCsv } from "~/domain/catalogue/catalogue-csv.server";
import { requirePermission } from "~/http/staff-guard.server";
import type { Route } from "./+types/admin.products.export";

/** The whole catalogue as a CSV download (archived products included, marked so). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "catalogue.export");
  const csv = await exportCatalogueCsv(context.db);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="unboxed-products-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
