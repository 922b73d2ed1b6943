import { ArrowLeft } from "lucide-react";
import { data, Link } from "react-router";
import { RolePanel } from "~/components/admin/role-panel";
import { PageHeader, Pagination, screenHref, StatusBadge, TableScroller } from "~/components/admin/ui";
import { PaymentStatusBadge } from "~/components/payment-status";
import { changeRole, getCustomer, isRole } from "~/domain/customers.server";
import { can, requirePermission } from "~/domain/permissions.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { customerFor, staffView } from "~/domain/staff-view.server";
import { pageParam, positiveInt } from "~/lib/admin-params";
import { formatLagosDate, formatLagosTime } from "~/lib/dates";
import { readForm } from "~/lib/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/lib/i18n.server";
import { formatNaira } from "~/lib/money";
import { formatPhone, telHref } from "~/lib/phone";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/admin.customers.$id";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "customers.view");
  const id = positiveInt(params.id);
  const url = new URL(request.url);
  const found = id ? await getCustomer(context.db, id, { ordersPage: pageParam(url.searchParams.get("page")) }) : undefined;
  if (!found) throw data(null, { status: 404 });
  const customer = customerFor(found, staffView(admin.role));
  const t = requestTranslator(request);
  const confirming = url.searchParams.get("role");
  return {
    customer,
    self: customer.id === admin.id,
    canChangeRoles: can(admin.role, "staff"),
    confirming: can(admin.role, "staff") && customer.id !== admin.id && isRole(confirming) && confirming !== customer.role ? confirming : null,
    title: t("admin.meta.title", { page: customer.name || customer.email }),
  };
}

// Why a role change was refused, and the status it is answered with.
const REFUSAL_STATUS = { self: 403, notOwner: 403, lastOwner: 409 } as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "staff");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  requireRecentAuthentication(request, admin, `/admin/customers/${id}`);
  const form = await readForm(request);
  const role = form.get("role");
  if (form.get("intent") !== "role" || !isRole(role)) return data({ problem: "admin.common.toast.badRequest" }, { status: 400 });
  const result = await changeRole(context.db, { actorId: admin.id, userId: id, role });
  if (!result.ok) {
    if (result.error === "notFound") throw data(null, { status: 404 });
    return data({ problem: `admin.customers.role.errors.${result.error}` }, { status: REFUSAL_STATUS[result.error] });
  }
  const t = requestTranslator(request);
  const key = result.changed ? "changed" : "unchanged";
  const values = { email: result.email, role: t(`admin.customers.roles.${role}`) };
  return redirectWithToast(context, `/admin/customers/${id}`, { type: result.changed ? "success" : "info", key: `admin.customers.role.toast.${key}`, values });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

const ORDER_COLUMNS = ["number", "date", "status", "payment", "total"] as const;

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const { customer } = loaderData;
  const path = `/admin/customers/${customer.id}`;
  const label = (c: (typeof ORDER_COLUMNS)[number]) => t(`admin.customers.orderColumns.${c}`);
  const language = customer.locale === "en" || customer.locale === "es" ? customer.locale : "unknown";
  return (
    <>
      <Link to="/admin/customers" className="mb-2 inline-flex min-h-11 items-center gap-2 text-sm text-stone-600 hover:text-ink">
        <ArrowLeft aria-hidden="true" size={16} />
        {t("admin.customers.back")}
      </Link>
      <PageHeader title={customer.name || customer.email}>
        <span className="rounded-full bg-stone-200 px-3 py-1 text-sm font-medium text-ink" data-customer-role={customer.role}>
          {t(`admin.customers.roles.${customer.role}`)}
        </span>
      </PageHeader>

      <div className="grid gap-4 lg:grid-cols-3">
        <section className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm" aria-labelledby="details-heading">
          <h2 id="details-heading" className="font-semibold text-ink">
            {t("admin.customers.details")}
          </h2>
          <dl className="mt-2 space-y-2" data-customer-details>
            {customer.email && (
              <div>
                <dt className="text-stone-600">{t("admin.customers.email")}</dt>
                <dd className="break-all">{customer.email}</dd>
              </div>
            )}
            {customer.phone && (
              <div>
                <dt className="text-stone-600">{t("admin.orders.phone")}</dt>
                <dd data-customer-phone>
                  <a href={telHref(customer.phone)} className="underline">
                    {formatPhone(customer.phone)}
                  </a>
                </dd>
              </div>
            )}
            <div>
              <dt className="text-stone-600">{t("admin.customers.columns.signedUp")}</dt>
              <dd>{formatLagosDate(customer.createdAt, locale)}</dd>
            </div>
            <div>
              <dt className="text-stone-600">{t("admin.customers.language")}</dt>
              <dd>{t(`admin.customers.languages.${language}`)}</dd>
            </div>
            <div>
              <dt className="text-stone-600">{t("admin.customers.columns.orders")}</dt>
              <dd className="tabular-nums" data-orders={customer.orders}>
                {customer.orders}
              </dd>
            </div>
            <div>
              <dt className="text-stone-600">
                {t("admin.customers.columns.spent")} <span className="text-xs">({t("admin.customers.spentHint")})</span>
              </dt>
              <dd className="tabular-nums" data-spent={customer.spent}>
                {formatNaira(customer.spent)}
              </dd>
            </div>
            <div>
              <dt className="text-stone-600">{t("admin.customers.columns.lastOrder")}</dt>
              <dd>{customer.lastOrderAt ? formatLagosTime(customer.lastOrderAt, locale) : t("admin.customers.never")}</dd>
            </div>
          </dl>
          <p className="mt-3 text-stone-700" data-wishlist-count={customer.wishlistCount}>
            {t("admin.customers.wishlist", { count: customer.wishlistCount })}
          </p>
        </section>

        {loaderData.canChangeRoles && (
          <RolePanel
            customer={customer}
            self={loaderData.self}
            confirming={loaderData.confirming}
            problem={actionData && "problem" in actionData ? actionData.problem : null}
            path={path}
          />
        )}

        <section className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm lg:col-span-3" aria-labelledby="addresses-heading">
          <h2 id="addresses-heading" className="font-semibold text-ink">
            {t("admin.customers.addresses")}
          </h2>
          {customer.addresses.length === 0 ? (
            <p className="mt-2 text-stone-600">{t("admin.customers.noAddresses")}</p>
          ) : (
            <ul className="mt-2 grid gap-2 sm:grid-cols-2">
              {customer.addresses.map((a) => (
                <li key={a.id} className="rounded-lg border border-stone-200 p-3" data-customer-address>
                  <span className="block break-words">{a.street}</span>
                  <span className="block">
                    {a.city}, {a.state}
                  </span>
                  <span className="block">{a.country}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <div className="mt-6">
        <h2 className="mb-2 font-semibold text-ink">
          {t("admin.customers.orders")}
        </h2>
        <TableScroller label={t("admin.customers.orders")} className="rounded-xl border border-stone-200 bg-white shadow-sm">
          <table className="stack-table w-full text-left text-sm sm:min-w-[36rem]">
            <thead className="bg-stone-50 text-stone-600">
              <tr>
                {ORDER_COLUMNS.map((c) => (
                  <th key={c} scope="col" className={`px-3 py-3 font-medium ${c === "total" ? "text-right" : ""}`}>
                    {label(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {customer.recentOrders.length === 0 && (
                <tr>
                  <td colSpan={ORDER_COLUMNS.length} className="px-3 py-8 text-center text-stone-600">
                    {t("admin.customers.noOrders")}
                  </td>
                </tr>
              )}
              {customer.recentOrders.map((o) => (
                <tr key={o.id} className="border-t border-stone-100" data-customer-order={o.number}>
                  <td className="px-3 py-2" data-label={label("number")}>
                    <Link to={`/admin/orders/${encodeURIComponent(o.number)}`} className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline">
                      {o.number}
                    </Link>
                  </td>
                  <td className="px-3 py-2" data-label={label("date")}>
                    {formatLagosTime(o.createdAt, locale)}
                  </td>
                  <td className="px-3 py-2" data-label={label("status")}>
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="px-3 py-2" data-label={label("payment")}>
                    <PaymentStatusBadge status={o.paymentStatus} />
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums" data-label={label("total")}>
                    {formatNaira(o.total)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
        <Pagination page={customer.ordersPage} pages={customer.ordersPages} href={(page) => screenHref(path, { page })} />
      </div>
    </>
  );
}
