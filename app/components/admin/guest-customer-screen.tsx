import { BackLink, PageHeader, Panel } from "~/components/admin/ui";
import { CustomerOrders } from "~/components/admin/customer-screen";
import type { GuestCustomerDetail } from "~/domain/backoffice/customers.server";
import { formatLagosDate, formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { formatPhone, telHref } from "~/lib/phone";

/** A guest's page (docs/decisions/217): the e-mail and numbers used, the orders placed with that e-mail. */
export function GuestCustomerScreen({ guest, prices }: { guest: GuestCustomerDetail; prices: boolean }) {
  const { t, locale } = useT();
  const path = `/admin/customers/guest/${encodeURIComponent(guest.guestOrder)}`;
  const language = guest.locale === "en" || guest.locale === "es" ? guest.locale : "unknown";
  return (
    <>
      <BackLink to="/admin/customers">{t("admin.customers.back")}</BackLink>
      <PageHeader title={guest.name || guest.email || t("admin.orders.guest")}>
        <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900" data-customer-role="guest">
          {t("admin.customers.guest")}
        </span>
      </PageHeader>
      <Panel id="details" title={t("admin.customers.details")} className="min-w-0 text-sm">
        <p className="mt-1 text-stone-700">{t("admin.customers.guestNote")}</p>
        <dl className="mt-2 space-y-2" data-customer-details>
          {guest.email && (
            <div>
              <dt className="text-stone-600">{t("admin.customers.email")}</dt>
              <dd className="break-all" data-customer-email>
                {guest.email}
              </dd>
            </div>
          )}
          {guest.phones.length > 0 && (
            <div>
              <dt className="text-stone-600">{t("admin.customers.phones")}</dt>
              <dd className="flex flex-wrap gap-x-3">
                {guest.phones.map((phone) => (
                  <a key={phone} href={telHref(phone)} className="underline" data-customer-phone>
                    {formatPhone(phone)}
                  </a>
                ))}
              </dd>
            </div>
          )}
          <div>
            <dt className="text-stone-600">{t("admin.customers.firstOrder")}</dt>
            <dd>{formatLagosDate(guest.firstOrderAt, locale)}</dd>
          </div>
          <div>
            <dt className="text-stone-600">{t("admin.customers.language")}</dt>
            <dd>{t(`admin.customers.languages.${language}`)}</dd>
          </div>
          <div>
            <dt className="text-stone-600">{t("admin.customers.columns.orders")}</dt>
            <dd className="tabular-nums" data-orders={guest.orders}>
              {guest.orders}
            </dd>
          </div>
          {prices && (
            <div>
              <dt className="text-stone-600">
                {t("admin.customers.columns.spent")} <span className="text-xs">({t("admin.customers.spentHint")})</span>
              </dt>
              <dd className="tabular-nums" data-spent={guest.spent}>
                {formatNaira(guest.spent)}
              </dd>
            </div>
          )}
          <div>
            <dt className="text-stone-600">{t("admin.customers.columns.lastOrder")}</dt>
            <dd>{guest.lastOrderAt ? formatLagosTime(guest.lastOrderAt, locale) : t("admin.customers.never")}</dd>
          </div>
        </dl>
      </Panel>
      <CustomerOrders orders={guest.recentOrders} page={guest.ordersPage} pages={guest.ordersPages} path={path} prices={prices} />
    </>
  );
}
