import { redirect } from "react-router";
import { requirePermission } from "~/http/staff-guard.server";
import type { Route } from "./+types/admin.regions";

// The spec's "regions" are brands: the old address keeps working.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "catalogue.edit");
  const { search } = new URL(request.url);
  return redirect(`/admin/brands${search}`);
}
