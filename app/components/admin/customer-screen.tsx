import { Link } from "react-router";
import { ErasePanel } from "~/components/admin/erase-panel";
import { RolePanel } from "~/components/admin/role-panel";
import { BackLink, Fact, ListTable, PageHeader, Pagination, Panel, screenHref, StatusBadge } from "~/components/admin/ui";
import { PaymentStatusBadge } from "~/components/payment-status";
import type { CustomerDetail, CustomerOrder } from "~/domain/backoffice/customers.server";
import type { Role } from "~/db/schema";
import { formatLagosDate, formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { formatPhone, telHref } from "~/lib/phone";

export interface CustomerScreenData {
  customer: CustomerDetail;
  /** the staff member is looking at their own account */
  self: boolean;
  canChangeRoles: boolean;
  /** the role a change asks to confirm */
  confirming: Role | null;
  /** the owner may erase this customer's personal data (docs/decisions/221) */
  canErase: boolean;
  erased: boolean;
}

type EraseProblem = { key: string; values?: Record<string, string> } | null;

const ORDER_COLUMNS = ["number", "date", "status", "payment", "total"] as const;

/** A customer's details, role, addresses and orders. */
export function CustomerScreen({ loaderData, problem, eraseProblem }: { loaderData: CustomerScreenData; problem: string | null; eraseProblem: EraseProblem }) {
  const { t, locale } = useT();
  const { customer } = loaderData;
  const path = `/admin/customers/${customer.id}`;
  const language = customer.locale === "en" || customer.locale === "es" ? customer.locale : "unknown";
  return (
    <>
      <BackLink to="/admin/customers">{t("admin.customers.back")}</BackLink>
      <PageHeader title={customer.name || customer.email}>
        <span className="rounded-full bg-stone-200 px-3 py-1 text-sm font-medium text-ink" data-customer-role={customer.role}>
          {t(`admin.customers.roles.${customer.role}`)}
        </span>
      </PageHeader>

      <div className="grid gap-4 lg:grid-cols-3">
        <Panel id="details" title={t("admin.customers.details")} className="min-w-0 text-sm">
          <dl className="mt-2 space-y-2" data-customer-details>
            {customer.email && (
              <Fact label={t("admin.customers.email")} className="break-all">
                {customer.email}
              </Fact>
            )}
            {customer.phone && (
              <Fact label={t("admin.orders.phone")} data-customer-phone>
                <a href={telHref(customer.phone)} className="underline">
                  {formatPhone(customer.phone)}
                </a>
              </Fact>
            )}
            <Fact label={t("admin.customers.columns.signedUp")}>{formatLagosDate(customer.createdAt, locale)}</Fact>
            <Fact label={t("admin.customers.language")}>{t(`admin.customers.languages.${language}`)}</Fact>
            <Fact label={t("admin.customers.columns.orders")} className="tabular-nums" data-orders={customer.orders}>
              {customer.orders}
            </Fact>
            <Fact label={<SpentLabel />} className="tabular-nums" data-spent={customer.spent}>
              {formatNaira(customer.spent)}
            </Fact>
            <Fact label={t("admin.customers.columns.lastOrder")}>{customer.lastOrderAt ? formatLagosTime(customer.lastOrderAt, locale) : t("admin.customers.never")}</Fact>
          </dl>
          <p className="mt-3 text-stone-700" data-wishlist-count={customer.wishlistCount}>
            {t("admin.customers.wishlist", { count: customer.wishlistCount })}
          </p>
        </Panel>

        {loaderData.canChangeRoles && (
          <RolePanel
            customer={customer}
            self={loaderData.self}
            confirming={loaderData.confirming}
            problem={problem}
            path={path}
          />
        )}

        {loaderData.canErase && <ErasePanel erased={loaderData.erased} problem={eraseProblem} />}

        <Panel id="addresses" title={t("admin.customers.addresses")} className="min-w-0 text-sm lg:col-span-3">
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
        </Panel>
      </div>

      <CustomerOrders orders={customer.recentOrders} page={customer.ordersPage} pages={customer.ordersPages} path={path} />
    </>
  );
}

/** One page of a customer's (an account's or a guest's) orders, newest first. */
/** The name of a customer's spend fact, with what it counts: on the account's and the guest's screens. */
export function SpentLabel() {
  const { t } = useT();
  return (
    <>
      {t("admin.customers.columns.spent")} <span className="text-xs">({t("admin.customers.spentHint")})</span>
    </>
  );
}

export function CustomerOrders({ orders, page, pages, path, prices = true }: { orders: CustomerOrder[]; page: number; pages: number; path: string; prices?: boolean }) {
  const { t, locale } = useT();
  const label = (c: (typeof ORDER_COLUMNS)[number]) => t(`admin.customers.orderColumns.${c}`);
  const columns = ORDER_COLUMNS.filter((c) => prices || c !== "total");
  return (
    <div className="mt-6">
      <h2 className="mb-2 font-semibold text-ink">{t("admin.customers.orders")}</h2>
      <ListTable
        label={t("admin.customers.orders")}
        tableClassName="stack-table w-full text-left text-sm sm:min-w-[36rem]"
        columns={columns.map((c) => ({ key: c, label: label(c), right: c === "total" }))}
        empty={orders.length === 0 && t("admin.customers.noOrders")}
      >
        {orders.map((o) => (
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
            {prices && (
              <td className="px-3 py-2 text-right tabular-nums" data-label={label("total")}>
                {formatNaira(o.total)}
              </td>
            )}
          </tr>
        ))}
      </ListTable>
      <Pagination page={page} pages={pages} href={(p) => screenHref(path, { page: p })} />
    </div>
  );
}
