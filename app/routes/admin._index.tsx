import { DashboardScreen } from "~/components/admin/dashboard";
import { loadDashboard } from "~/domain/backoffice/dashboard.server";
import { shopSetup } from "~/domain/orders/delivery.server";
import { countOrdersWaiting, ordersWaiting } from "~/domain/orders/order-alerts.server";
import { can } from "~/domain/backoffice/permissions.server";
import { requirePermission } from "~/http/staff-guard.server";
import { dashboardFor, staffView, waitingFor } from "~/domain/backoffice/staff-view.server";
import { requestTranslator } from "~/http/language.server";
import { reminderStats } from "~/domain/messages/cart-reminders.server";
import { messageOutboxCounts } from "~/domain/messages/outbox.server";
import type { Route } from "./+types/admin._index";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "dashboard");
  const view = staffView(staff.role);
  const t = requestTranslator(request);
  const [dashboard, waiting, waitingCount, setup, messageCounts, reminders] = await Promise.all([
    loadDashboard(context.db, new Date(), context.config.lowStockThreshold),
    ordersWaiting(context.db),
    countOrdersWaiting(context.db),
    shopSetup(context.db, context.config),
    messageOutboxCounts(context.db),
    reminderStats(context.db),
  ]);
  return {
    dashboard: dashboardFor(dashboard, view),
    waiting: waitingFor(waiting, view),
    waitingCount,
    // The setup checklist leads to the settings: only for those who may change them.
    setup: can(staff.role, "settings") ? setup : null,
    view,
    messages: { counts: messageCounts, reminders, showRevenue: can(staff.role, "revenue") },
    title: t("admin.meta.title", { page: t("admin.nav.dashboard") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <DashboardScreen loaderData={loaderData} />;
}
