import { OrderMessagesPanel } from "~/components/admin/order-messages";
import type { OrderMessage } from "~/domain/messages/outbox.server";
import { Form, Link, useNavigation } from "react-router";
import { OrderPaymentPanel } from "~/components/admin/order-payment";
import { BackLink, Dialog, dangerButton, inputClass, PageHeader, Panel, primaryButton, secondaryButton, StatusBadge, TableScroller } from "~/components/admin/ui";
import type { AdminOrderDetail } from "~/domain/orders/admin-orders.server";
import type { StaffView } from "~/domain/backoffice/staff-view.server";
import { MAX_STATUS_NOTE } from "~/lib/admin";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { formatPhone, telHref, whatsAppHref } from "~/lib/phone";

export interface OrderScreenData {
  /** as this role may see it (no prices for fulfilment) */
  order: AdminOrderDetail;
  view: StaffView;
  changesStatus: boolean;
  canMarkPaid: boolean;
  canSetFee: boolean;
  canRefund: boolean;
  /** a guest order's link to the guest's page, for the roles that see customers */
  guestPage: string | null;
  /** the cancel dialog is open (?cancel=1) */
  confirmingCancel: boolean;
  /** the order's WhatsApp and SMS messages and their states (docs/decisions/220) */
  messages: OrderMessage[];
  /** what store credit and a gift card paid, and what is left to pay (docs/decisions/224), written by the loader */
  creditLines?: { label: string; amount: string }[];
}

const ACTION_LABEL = { confirmed: "confirm", shipped: "ship", delivered: "deliver", cancelled: "cancel" } as const;

/** An order for the staff: items and totals, details and address, payment, status change, history. */
export function OrderScreen({ loaderData }: { loaderData: OrderScreenData }) {
  const { t, locale } = useT();
  const { order } = loaderData;
  const prices = loaderData.view.prices;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const path = `/admin/orders/${order.number}`;
  const forward = order.next.filter((s) => s !== "cancelled");
  const canCancel = order.next.includes("cancelled");
  return (
    <>
      <BackLink to="/admin/orders">{t("admin.orders.back")}</BackLink>
      <PageHeader title={t("admin.orders.orderTitle", { number: order.number })}>
        <StatusBadge status={order.status} />
        {loaderData.view.prices && (
          <Link to={`/admin/orders/${encodeURIComponent(order.number)}/print`} className={secondaryButton}>
            {t("admin.orders.printInvoice")}
          </Link>
        )}
        <Link to={`/admin/orders/${encodeURIComponent(order.number)}/print?doc=slip`} className={secondaryButton}>
          {t("admin.orders.printSlip")}
        </Link>
      </PageHeader>

      <div className="grid gap-4 lg:grid-cols-3">
        <Panel id="items" title={t("admin.orders.items")} className="min-w-0 lg:col-span-2">
          <TableScroller label={t("admin.orders.orderTitle", { number: order.number })} className="mt-2">
            <table className="stack-table w-full text-left text-sm sm:min-w-[28rem]">
              <thead className="text-stone-500">
                <tr>
                  <th className="py-2 font-medium">{t("admin.orders.itemColumns.product")}</th>
                  {prices && <th className="py-2 text-right font-medium">{t("admin.orders.itemColumns.price")}</th>}
                  <th className="py-2 text-right font-medium">{t("admin.orders.itemColumns.quantity")}</th>
                  {prices && <th className="py-2 text-right font-medium">{t("admin.orders.itemColumns.total")}</th>}
                </tr>
              </thead>
              <tbody>
                {order.items.map((item) => (
                  <tr key={item.id} className="border-t border-stone-100">
                    <td className="py-2 font-medium sm:font-normal" data-label={t("admin.orders.itemColumns.product")}>
                      {item.name}
                    </td>
                    {prices && (
                      <td className="py-2 text-right tabular-nums" data-label={t("admin.orders.itemColumns.price")}>
                        {formatNaira(item.unitPrice)}
                      </td>
                    )}
                    <td className="py-2 text-right tabular-nums" data-label={t("admin.orders.itemColumns.quantity")}>
                      {item.quantity}
                    </td>
                    {prices && (
                      <td className="py-2 text-right tabular-nums" data-label={t("admin.orders.itemColumns.total")}>
                        {formatNaira(item.lineTotal)}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
              {prices && (
              <tfoot className="border-t border-stone-200">
                <tr>
                  <th scope="row" colSpan={3} className="py-1 text-right font-normal text-stone-600">
                    {t("admin.orders.subtotal")}
                  </th>
                  <td className="py-1 text-right tabular-nums">{formatNaira(order.subtotal)}</td>
                </tr>
                {order.discount > 0 && (
                  <tr>
                    <th scope="row" colSpan={3} className="py-1 text-right font-normal text-stone-600">
                      {t("admin.orders.discount", { code: order.promotionCode ?? "" })}
                    </th>
                    <td className="py-1 text-right tabular-nums" data-testid="admin-order-discount">
                      −{formatNaira(order.discount)}
                    </td>
                  </tr>
                )}
                <tr>
                  <th scope="row" colSpan={3} className="py-1 text-right font-normal text-stone-600">
                    {t("admin.orders.delivery")}
                  </th>
                  <td className="py-1 text-right tabular-nums" data-testid="admin-order-delivery">
                    {order.deliveryMethod === null && order.shipping === 0 ? t("admin.orders.deliveryInChat") : order.shipping === 0 ? t("admin.orders.free") : formatNaira(order.shipping)}
                  </td>
                </tr>
                <tr>
                  <th scope="row" colSpan={3} className="py-1 text-right font-semibold">
                    {t("admin.orders.total")}
                  </th>
                  <td className="py-1 text-right font-semibold tabular-nums">{formatNaira(order.total)}</td>
                </tr>
                {loaderData.creditLines?.map((line) => (
                  <tr key={line.label} data-testid="admin-order-credit-line">
                    <th scope="row" colSpan={3} className="py-1 text-right font-normal text-stone-600">
                      {line.label}
                    </th>
                    <td className="py-1 text-right tabular-nums">{line.amount}</td>
                  </tr>
                ))}
              </tfoot>
              )}
            </table>
          </TableScroller>
        </Panel>

        <Panel id="order" title={t("admin.orders.details")} className="min-w-0 space-y-3 text-sm">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-stone-500">{t("admin.orders.columns.date")}</dt>
            <dd>{formatLagosTime(order.createdAt, locale)}</dd>
            <dt className="text-stone-500">{t("admin.orders.columns.channel")}</dt>
            <dd>{t(`admin.orders.channel.${order.channel}`)}</dd>
            <dt className="text-stone-500">{t("admin.orders.columns.customer")}</dt>
            <dd className="break-all">
              {order.customerName !== null ? (
                <>
                  {order.customerName}
                  {order.customerEmail && (
                    <>
                      <br />
                      {order.customerEmail}
                    </>
                  )}
                  {order.guest && (
                    <>
                      <br />
                      <span className="text-xs font-medium text-amber-800" data-testid="guest-order">{t("admin.orders.guestOrder")}</span>
                      {loaderData.guestPage && (
                        <>
                          <br />
                          <Link to={loaderData.guestPage} className="text-sm font-medium text-brand-700 underline" data-guest-page>
                            {t("admin.orders.guestCustomer")}
                          </Link>
                        </>
                      )}
                    </>
                  )}
                </>
              ) : (
                t("admin.orders.guest")
              )}
            </dd>
            <dt className="text-stone-500">{t("admin.orders.phone")}</dt>
            <dd>
              {order.phone ? (
                <span className="flex flex-wrap gap-x-3">
                  <a href={telHref(order.phone)} aria-label={t("admin.orders.callPhone", { phone: formatPhone(order.phone) })} className="underline">
                    {formatPhone(order.phone)}
                  </a>
                  <a href={whatsAppHref(order.phone)} target="_blank" rel="noopener noreferrer" aria-label={t("admin.orders.whatsAppPhone", { phone: formatPhone(order.phone) })} className="underline">
                    WhatsApp
                  </a>
                </span>
              ) : (
                <span className="text-stone-600">{t("admin.orders.noPhone")}</span>
              )}
            </dd>
            {order.channel === "checkout" && (
              <>
                <dt className="text-stone-500">{t("admin.orders.privateLink")}</dt>
                <dd>
                  {order.privateLink ? t("admin.orders.privateLinkActive") : t("admin.orders.privateLinkNone")}
                  {order.privateLink && loaderData.changesStatus && (
                    <Form method="post" className="mt-1">
                      <input type="hidden" name="intent" value="revokeLink" />
                      <button type="submit" className="text-sm font-medium text-rose-700 underline">
                        {t("admin.orders.revokeLink")}
                      </button>
                    </Form>
                  )}
                  {!order.privateLink && order.guest && loaderData.changesStatus && (
                    <Form method="post" className="mt-1">
                      <input type="hidden" name="intent" value="reissueLink" />
                      <button type="submit" className="text-sm font-medium text-brand-700 underline">
                        {t("admin.orders.reissueLink")}
                      </button>
                    </Form>
                  )}
                </dd>
              </>
            )}
          </dl>
          <h3 className="font-semibold text-ink">{t("admin.orders.address")}</h3>
          {order.deliveryMethod === "pickup" ? (
            <p>{t("admin.orders.deliveryFields.pickup")}</p>
          ) : order.address ? (
            <address className="not-italic">
              {order.address.street}
              <br />
              {order.address.city}, {order.address.state}
              <br />
              {order.address.country}
            </address>
          ) : (
            <p className="text-stone-600">{t("admin.orders.noAddress")}</p>
          )}
        </Panel>
      </div>

      {prices && (
      <OrderPaymentPanel
        order={order}
        canMarkPaid={loaderData.canMarkPaid}
        canRefund={loaderData.canRefund}
        canSetFee={loaderData.canSetFee}
        shipping={order.shipping}
        busy={busy}
      />
      )}

      {loaderData.changesStatus && (
      <Panel id="status" title={t("admin.orders.changeStatus")} className="mt-4">
        {order.next.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">{t("admin.orders.final")}</p>
        ) : (
          <Form method="post" className="mt-3 space-y-3" preventScrollReset>
            {order.channel === "whatsapp" && order.status === "pending" && <p className="text-sm text-stone-600">{t("admin.orders.stockRule")}</p>}
            <input type="hidden" name="from" value={order.status} />
            <label className="block text-sm">
              <span className="block font-medium text-stone-800">{order.customerName !== null ? t("admin.orders.note") : t("admin.orders.noteNoMail")}</span>
              <textarea name="note" rows={2} maxLength={MAX_STATUS_NOTE} className={inputClass} placeholder={t("admin.orders.notePlaceholder")} />
            </label>
            <div className="flex flex-wrap gap-2">
              {forward.map((to) => (
                <button key={to} type="submit" name="to" value={to} className={primaryButton} disabled={busy}>
                  {t(`admin.orders.actions.${ACTION_LABEL[to as keyof typeof ACTION_LABEL]}`)}
                </button>
              ))}
              {canCancel && (
                <Link to={`${path}?cancel=1`} className={secondaryButton} preventScrollReset>
                  {t("admin.orders.actions.cancel")}
                </Link>
              )}
            </div>
          </Form>
        )}
      </Panel>
      )}

      <OrderMessagesPanel messages={loaderData.messages} />

      <Panel id="history" title={t("admin.orders.history")} className="mt-4">
        {order.history.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">{t("admin.orders.noHistory")}</p>
        ) : (
          <ol className="mt-3 space-y-3 border-l-2 border-stone-200 pl-4">
            {order.history.map((event) => (
              <li key={event.id} data-history-status={event.status}>
                <div className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={event.status} />
                  <time dateTime={event.at} className="text-sm text-stone-600">
                    {formatLagosTime(event.at, locale)}
                  </time>
                </div>
                <p className="mt-1 text-sm text-stone-700">{event.actor ? t("admin.orders.by", { name: event.actor }) : t("admin.orders.byCustomer")}</p>
                {event.note && <p className="mt-1 whitespace-pre-line text-sm text-stone-700">{event.note}</p>}
              </li>
            ))}
          </ol>
        )}
      </Panel>

      {loaderData.confirmingCancel && (
        <Dialog title={t("admin.orders.cancelTitle", { number: order.number })} closeHref={path}>
          <p className="text-stone-700">{order.customerName !== null ? t("admin.orders.cancelConfirm") : t("admin.orders.cancelConfirmGuest")}</p>
          <Form method="post" action={path} className="mt-4 space-y-3" preventScrollReset>
            <input type="hidden" name="from" value={order.status} />
            <input type="hidden" name="to" value="cancelled" />
            <label className="block text-sm">
              <span className="block font-medium text-stone-800">{order.customerName !== null ? t("admin.orders.note") : t("admin.orders.noteNoMail")}</span>
              <textarea name="note" rows={2} maxLength={MAX_STATUS_NOTE} className={inputClass} />
            </label>
            <div className="flex flex-wrap justify-end gap-2">
              <Link to={path} className={secondaryButton} preventScrollReset replace>
                {t("admin.orders.keepOrder")}
              </Link>
              <button type="submit" className={dangerButton} disabled={busy}>
                {t("admin.orders.actions.cancel")}
              </button>
            </div>
          </Form>
        </Dialog>
      )}
    </>
  );
}
