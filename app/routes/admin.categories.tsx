import { TaxonomyScreen } from "~/components/admin/taxonomy-screen";
import { requirePermission } from "~/http/staff-guard.server";
import type { Route } from "./+types/admin.categories";
import { loadTaxonomyScreen, taxonomyAction } from "./admin-taxonomy.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "catalogue.edit");
  return loadTaxonomyScreen("category", request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "catalogue.edit");
  return taxonomyAction("category", admin, request, context);
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function AdminCategories({ loaderData }: Route.ComponentProps) {
  return <TaxonomyScreen data={loaderData} />;
}
