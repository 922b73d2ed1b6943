import { ArrowLeft } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { Dialog, dangerButton, inputClass, PageHeader, primaryButton, secondaryButton, StatusBadge, TableScroller } from "~/components/admin/ui";
import { OrderMessagesPanel } from "~/components/admin/order-messages";
import { OrderPaymentPanel } from "~/components/admin/order-payment";
import { orderMessages } from "~/domain/messages/outbox.server";
import { changeOrderStatus, getAdminOrder } from "~/domain/admin-orders.server";
import { canMarkPaid, canSetDeliveryFee, markOrderPaid, recordRefund, setDeliveryFee } from "~/domain/payments.server";
import { refundOnlineOrder } from "~/domain/online-payments.server";
import { isOrderNumber } from "~/domain/orders.server";
import { MAX_STATUS_NOTE, ORDER_STATUSES } from "~/lib/admin";
import type { OrderStatus } from "~/db/schema";
import { assertPermission, can, requirePermission } from "~/domain/permissions.server";
import { orderDetailFor, staffView } from "~/domain/staff-view.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/lib/i18n.server";
import { formatNaira } from "~/lib/money";
import { formatLagosTime } from "~/lib/dates";
import { formatPhone, telHref, whatsAppHref } from "~/lib/phone";
import { redirectWithToast } from "~/lib/toast.server";
import { readForm } from "~/lib/form.server";
import type { Route } from "./+types/admin.orders.$number";


export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "orders.view");
  const found = isOrderNumber(params.number) ? await getAdminOrder(context.db, params.number) : undefined;
  if (!found) throw data(null, { status: 404 });
  const view = staffView(staff.role);
  const order = orderDetailFor(found, view);
  const t = requestTranslator(request);
  // Each part of the page is offered only to the roles whose permission acts on it (docs/decisions/218).
  const payments = can(staff.role, "orders.payments");
  const changesStatus = can(staff.role, "orders.status");
  return {
    order,
    view,
    changesStatus,
    canMarkPaid: payments && canMarkPaid(found),
    canSetFee: payments && canSetDeliveryFee(found),
    canRefund: can(staff.role, "orders.refund") && found.paymentStatus === "paid",
    messages: await orderMessages(context.db, found.id),
    confirmingCancel: changesStatus && new URL(request.url).searchParams.has("cancel") && found.next.includes("cancelled"),
    title: t("admin.meta.title", { page: t("admin.orders.orderTitle", { number: order.number }) }),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

const status = z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]);
const statusChange = z.object({ from: status, to: status, note: z.string().max(MAX_STATUS_NOTE * 2).optional() });

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "orders.status");
  const path = `/admin/orders/${encodeURIComponent(params.number)}`;
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "deliveryFee" || intent === "markPaid") assertPermission(admin, request, context, "orders.payments");
  if (intent === "refund") assertPermission(admin, request, context, "orders.refund");
  if (intent === "deliveryFee" && isOrderNumber(params.number)) {
    const fee = form.get("fee");
    const result = await setDeliveryFee(context, { number: params.number, fee: typeof fee === "string" ? fee : "", actorId: admin.id });
    if (!result.ok) {
      if (result.error === "notFound") throw data(null, { status: 404 });
      const key = result.error === "invalid" ? "feeInvalid" : result.error === "stale" ? "paymentStale" : "paymentNotAllowed";
      return redirectWithToast(context, path, { type: "error", key: `admin.orders.toast.${key}` });
    }
    return redirectWithToast(context, path, { type: "success", key: "admin.orders.toast.feeSet", values: { number: params.number, fee: formatNaira(result.fee) } });
  }
  if ((intent === "markPaid" || intent === "refund") && isOrderNumber(params.number)) {
    const input = { number: params.number, actorId: admin.id };
    const online = intent === "refund" && (await getAdminOrder(context.db, params.number))?.paymentMethod === "paystack";
    const result = intent === "markPaid" ? await markOrderPaid(context, input) : online ? await refundOnlineOrder(context, input) : await recordRefund(context, input);
    if (!result.ok) {
      if (result.error === "notFound") throw data(null, { status: 404 });
      const key = result.error === "stale" ? "paymentStale" : result.error === "unavailable" ? "refundUnavailable" : "paymentNotAllowed";
      return redirectWithToast(context, path, { type: "error", key: `admin.orders.toast.${key}` });
    }
    const mail = "mail" in result ? result.mail : "none";
    const key = intent === "refund" ? (online ? "refundedOnline" : "refunded") : mail === "queued" ? "paidMailed" : "paid";
    return redirectWithToast(context, path, { type: "success", key: `admin.orders.toast.${key}`, values: { number: params.number } });
  }
  const parsed = statusChange.safeParse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")));
  if (!parsed.success || !isOrderNumber(params.number)) {
    return redirectWithToast(context, path, { type: "error", key: "admin.common.toast.badRequest" });
  }
  const { from, to, note } = parsed.data;
  const result = await changeOrderStatus(context, { number: params.number, from, to, note, actorId: admin.id });
  if (!result.ok) {
    if (result.error === "notFound") throw data(null, { status: 404 });
    const values = result.error === "notEnoughStock" ? { product: result.product, count: result.available } : undefined;
    return redirectWithToast(context, path, { type: "error", key: `admin.orders.toast.${result.error}`, values });
  }
  const t = requestTranslator(request);
  const key = result.mail === "queued" ? "admin.orders.toast.changedMailed" : "admin.orders.toast.changed";
  return redirectWithToast(context, path, { type: "success", key, values: { number: params.number, status: t(`admin.orders.status.${to}`) } });
}

const ACTION_LABEL = { confirmed: "confirm", shipped: "ship", delivered: "deliver", cancelled: "cancel" } as const;

export default function AdminOrder({ loaderData }: Route.ComponentProps) {
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
      <Link to="/admin/orders" className="mb-2 inline-flex min-h-11 items-center gap-2 text-sm text-stone-600 hover:text-ink">
        <ArrowLeft aria-hidden="true" size={16} />
        {t("admin.orders.back")}
      </Link>
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
        <section className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 shadow-sm lg:col-span-2" aria-labelledby="items-heading">
          <h2 id="items-heading" className="font-semibold text-ink">
            {t("admin.orders.items")}
          </h2>
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
              </tfoot>
              )}
            </table>
          </TableScroller>
        </section>

        <section className="min-w-0 space-y-3 rounded-xl border border-stone-200 bg-white p-4 text-sm shadow-sm" aria-labelledby="order-heading">
          <h2 id="order-heading" className="font-semibold text-ink">
            {t("admin.orders.details")}
          </h2>
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
        </section>
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
      <section className="mt-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm" aria-labelledby="status-heading">
        <h2 id="status-heading" className="font-semibold text-ink">
          {t("admin.orders.changeStatus")}
        </h2>
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
      </section>
      )}

      <OrderMessagesPanel messages={loaderData.messages} />

      <section className="mt-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm" aria-labelledby="history-heading">
        <h2 id="history-heading" className="font-semibold text-ink">
          {t("admin.orders.history")}
        </h2>
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
      </section>

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
