import { Award, BadgePercent, Gift, History, KeyRound, LayoutDashboard, LogOut, MessageCircle, MessageSquareText, Package, ShieldCheck, ShoppingBag, Store, Tags, Truck, Users } from "lucide-react";
import { isRouteErrorResponse, Link, NavLink, Outlet, useRouteError, useRouteLoaderData } from "react-router";
import { countOrdersWaiting } from "~/domain/orders/order-alerts.server";
import { type Permission, permissionsOf } from "~/domain/backoffice/permissions.server";
import { requirePermission } from "~/http/staff-guard.server";
import { secondFactorDueFor } from "~/domain/accounts/second-factor.server";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { refusalMessage } from "~/lib/refusal";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/admin";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "dashboard");
  return {
    admin: { name: `${admin.firstName} ${admin.lastName}`.trim(), email: admin.email },
    waiting: await countOrdersWaiting(context.db),
    can: permissionsOf(admin.role),
    // Until the grace ends, a role that must have a second factor is reminded on every page (docs/decisions/222).
    secondFactorBy: await secondFactorDueFor(context.db, admin).then((due) => (due.state === "grace" ? due.until : null)),
  };
}

// Shoppers' pages do not carry the admin area's texts (nor the order status labels, the account
// area's); arriving here from one, they are fetched alongside the data (and also before a refusal is shown).
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [, , data] = await Promise.allSettled([ensureMessages("admin"), ensureMessages("account"), serverLoader()]);
  if (data.status === "rejected") throw data.reason;
  return data.value;
}

// The layout shows only who is signed in; each screen checks the role again in its own loader and
// action, so moving between admin screens does not ask for the layout again.
export function shouldRevalidate({ formMethod }: { formMethod?: string }) {
  // After a change (an order confirmed, shipped, cancelled) the count of orders waiting is read again.
  return formMethod !== undefined && formMethod.toUpperCase() !== "GET";
}

// Each link is shown only to the roles whose permission opens its screen (docs/decisions/218).
const NAV: { to: string; key: string; icon: typeof Package; end: boolean; permission: Permission }[] = [
  { to: "/admin", key: "dashboard", icon: LayoutDashboard, end: true, permission: "dashboard" },
  { to: "/admin/orders", key: "orders", icon: ShoppingBag, end: false, permission: "orders.view" },
  { to: "/admin/customers", key: "customers", icon: Users, end: false, permission: "customers.view" },
  { to: "/admin/products", key: "products", icon: Package, end: false, permission: "catalogue.view" },
  { to: "/admin/categories", key: "categories", icon: Tags, end: false, permission: "catalogue.edit" },
  { to: "/admin/brands", key: "brands", icon: Award, end: false, permission: "catalogue.edit" },
  { to: "/admin/reviews", key: "reviews", icon: MessageSquareText, end: false, permission: "reviews" },
  { to: "/admin/promotions", key: "promotions", icon: BadgePercent, end: false, permission: "promotions" },
  { to: "/admin/gift-cards", key: "giftCards", icon: Gift, end: false, permission: "credit" },
  { to: "/admin/delivery", key: "delivery", icon: Truck, end: false, permission: "settings" },
  { to: "/admin/messages", key: "messages", icon: MessageCircle, end: false, permission: "settings" },
  { to: "/admin/audit", key: "audit", icon: History, end: false, permission: "audit" },
  { to: "/admin/staff", key: "staff", icon: ShieldCheck, end: false, permission: "staff" },
  { to: "/admin/account", key: "account", icon: KeyRound, end: false, permission: "dashboard" },
];

function Sidebar({ admin, waiting = 0, can = [] }: { admin?: { name: string; email: string }; waiting?: number; can?: Permission[] }) {
  const { t } = useT();
  return (
    <aside className="bg-ink text-stone-200 lg:fixed lg:inset-y-0 lg:left-0 lg:flex lg:w-60 lg:flex-col">
      <div className="flex items-center justify-between gap-3 px-4 py-3 lg:block lg:px-5 lg:py-6">
        <Link to="/admin" className="font-serif text-xl font-semibold text-white">
          {t("admin.nav.title")}
        </Link>
        <Link
          to="/"
          className="inline-flex min-h-11 items-center gap-2 rounded-lg px-2 text-sm text-stone-300 hover:text-white lg:mt-2 lg:px-0"
        >
          <Store aria-hidden="true" size={16} />
          {t("admin.nav.viewShop")}
        </Link>
      </div>
      <nav aria-label={t("admin.nav.label")} className="overflow-x-auto lg:flex-1 lg:overflow-visible">
        <ul className="flex gap-1 px-2 pb-2 lg:flex-col lg:px-3">
          {NAV.filter((item) => can.includes(item.permission)).map(({ to, key, icon: Icon, end }) => (
            <li key={to} className="shrink-0">
              <NavLink
                to={to}
                end={end}
                className={({ isActive }) =>
                  `flex min-h-11 items-center gap-3 whitespace-nowrap rounded-lg px-3 text-sm focus-visible:outline-2 focus-visible:outline-brand-500 ${
                    isActive ? "bg-white/10 font-semibold text-white" : "text-stone-300 hover:bg-white/5 hover:text-white"
                  }`
                }
              >
                <Icon aria-hidden="true" size={18} />
                {t(`admin.nav.${key}`)}
                {key === "orders" && waiting > 0 && (
                  <span className="ml-auto rounded-full bg-brand-500 px-2 py-0.5 text-xs font-semibold text-ink" data-orders-waiting={waiting}>
                    <span aria-hidden="true">{waiting}</span>
                    <span className="sr-only">{t("admin.nav.waiting", { count: waiting })}</span>
                  </span>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {admin && (
        <div className="hidden border-t border-white/10 px-5 py-4 text-xs text-stone-400 lg:block">
          <p>
            {t("admin.nav.signedInAs")}
            <br />
            <span className="break-all text-stone-200">{admin.email}</span>
          </p>
          <form method="post" action="/auth/logout" className="mt-2">
            <button type="submit" className="inline-flex min-h-11 items-center gap-2 text-sm text-stone-300 hover:text-white">
              <LogOut aria-hidden="true" size={16} />
              {t("admin.nav.signOut")}
            </button>
          </form>
        </div>
      )}
    </aside>
  );
}

export function meta() {
  return [{ name: "robots", content: "noindex" }];
}

function SecondFactorReminder({ until }: { until: string }) {
  const { t, locale } = useT();
  return (
    <p className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-second-factor-reminder>
      {t("admin.account.reminder", { when: formatLagosTime(until, locale) })}{" "}
      <Link to="/admin/account" className="font-medium underline">
        {t("admin.account.setUp")}
      </Link>
    </p>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="min-h-screen bg-stone-100">
      <Sidebar admin={loaderData.admin} waiting={loaderData.waiting} can={loaderData.can} />
      <main id="main" className="min-w-0 px-4 py-6 sm:px-6 lg:ml-60 lg:px-10 lg:py-8">
        {loaderData.secondFactorBy && <SecondFactorReminder until={loaderData.secondFactorBy} />}
        <Outlet />
      </main>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useT();
  // Set when a screen inside the admin area failed (the sidebar still shows); unset when access was refused.
  const layout = useRouteLoaderData<typeof loader>("routes/admin");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status >= 500) console.error(error);
  // Staff inside the area (the layout loaded) are refused a screen their role does not open; anyone else the area.
  const key = status === 403 ? (layout ? "notYourRole" : "forbidden") : status === 404 ? "notFound" : "failed";
  const message = (
    <div className="mx-auto max-w-xl py-16 text-center">
      <h1 className="font-serif text-3xl font-semibold text-ink">{t(`admin.errors.${key}.title`)}</h1>
      <p className="mt-3 text-stone-600">{refusalMessage(error) ?? t(`admin.errors.${key}.body`)}</p>
      <div className="mt-6 flex justify-center gap-3">
        {layout && (
          <Link className="inline-flex min-h-11 items-center rounded-full border border-stone-300 px-5" to="/admin">
            {t("admin.nav.dashboard")}
          </Link>
        )}
        <Link className="inline-flex min-h-11 items-center rounded-full bg-ink px-5 text-white" to="/">
          {t("admin.nav.viewShop")}
        </Link>
      </div>
    </div>
  );
  return (
    <div className="min-h-screen bg-stone-100">
      {layout && <Sidebar admin={layout.admin} waiting={layout.waiting} can={layout.can} />}
      <main id="main" className={layout ? "min-w-0 px-4 py-6 sm:px-6 lg:ml-60 lg:px-10 lg:py-8" : "px-4"}>
        {message}
      </main>
    </div>
  );
}
