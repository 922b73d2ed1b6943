import { data } from "react-router";
import { GuestCustomerScreen } from "~/components/admin/guest-customer-screen";
import { getGuestCustomer } from "~/domain/backoffice/customers.server";
import { guestCustomerFor, staffView } from "~/domain/backoffice/staff-view.server";
import { requirePermission } from "~/http/staff-guard.server";
import { requestTranslator } from "~/http/language.server";
import { pageParam } from "~/lib/admin-params";
import type { Route } from "./+types/admin.customers.guest.$number";

/**
 * A guest's page (docs/decisions/217), reached through one of its orders: every checkout order
 * without an account placed with that order's e-mail. An order with an account, or none, is a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "customers.view");
  const number = String(params.number ?? "");
  const url = new URL(request.url);
  const found = /^[A-Za-z0-9-]{1,40}$/.test(number) ? await getGuestCustomer(context.db, number, { ordersPage: pageParam(url.searchParams.get("page")) }) : undefined;
  if (!found) throw data(null, { status: 404 });
  const view = staffView(staff.role);
  const guest = guestCustomerFor(found, view);
  const t = requestTranslator(request);
  return { guest, prices: view.prices, title: t("admin.meta.title", { page: guest.name || t("admin.customers.guest") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function AdminGuestCustomer({ loaderData }: Route.ComponentProps) {
  return <GuestCustomerScreen guest={loaderData.guest} prices={loaderData.prices} />;
}
