import { BackLink, Fact, PageHeader, Panel } from "~/components/admin/ui";
import { CustomerOrders, SpentLabel } from "~/components/admin/customer-screen";
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
            <Fact label={t("admin.customers.email")} className="break-all" data-customer-email>
              {guest.email}
            </Fact>
          )}
          {guest.phones.length > 0 && (
            <Fact label={t("admin.customers.phones")} className="flex flex-wrap gap-x-3">
              {guest.phones.map((phone) => (
                <a key={phone} href={telHref(phone)} className="underline" data-customer-phone>
                  {formatPhone(phone)}
                </a>
              ))}
            </Fact>
          )}
          <Fact label={t("admin.customers.firstOrder")}>{formatLagosDate(guest.firstOrderAt, locale)}</Fact>
          <Fact label={t("admin.customers.language")}>{t(`admin.customers.languages.${language}`)}</Fact>
          <Fact label={t("admin.customers.columns.orders")} className="tabular-nums" data-orders={guest.orders}>
            {guest.orders}
          </Fact>
          {prices && (
            <Fact label={<SpentLabel />} className="tabular-nums" data-spent={guest.spent}>
              {formatNaira(guest.spent)}
            </Fact>
          )}
          <Fact label={t("admin.customers.columns.lastOrder")}>{guest.lastOrderAt ? formatLagosTime(guest.lastOrderAt, locale) : t("admin.customers.never")}</Fact>
        </dl>
      </Panel>
      <CustomerOrders orders={guest.recentOrders} page={guest.ordersPage} pages={guest.ordersPages} path={path} prices={prices} />
    </>
  );
}
