import { data } from "react-router";
import { z } from "zod";
import { OrderScreen } from "~/components/admin/order-screen";
import { changeOrderStatus, getAdminOrder } from "~/domain/orders/admin-orders.server";
import { canMarkPaid, canSetDeliveryFee, markOrderPaid, setDeliveryFee } from "~/domain/payments/payments.server";
import { refundOrder } from "~/domain/payments/online-payments.server";
import { isOrderNumber } from "~/domain/orders/orders.server";
import { reissueOrderLink, revokeOrderLink } from "~/domain/orders/order-tracking.server";
import { orderMessages } from "~/domain/messages/outbox.server";
import { MAX_STATUS_NOTE, ORDER_STATUSES } from "~/lib/admin";
import type { OrderStatus } from "~/db/schema";
import { assertPermission, requirePermission } from "~/http/staff-guard.server";
import { can } from "~/domain/backoffice/permissions.server";
import { orderDetailFor, staffView } from "~/domain/backoffice/staff-view.server";
import { requestTranslator } from "~/http/language.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { formatNaira } from "~/lib/money";
import { redirectWithToast } from "~/http/toast.server";
import { readForm } from "~/http/form.server";
import { CreditRefundPanel } from "~/components/admin/credit-forms";
import { refundableLeft } from "~/domain/credit/credit.server";
import { creditLines } from "~/domain/credit/credit-lines.server";
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
    // A guest order links to the guest's page for the roles that see customers.
    guestPage: found.guest && can(staff.role, "customers.view") ? `/admin/customers/guest/${encodeURIComponent(found.number)}` : null,
    // What may still be refunded as store credit (docs/decisions/224): an account's paid order only.
    creditRefundLeft: can(staff.role, "orders.refund") && found.paymentStatus === "paid" ? await refundableLeft(context.db, found.number) : null,
    // What store credit and a gift card paid, and what is left to collect (docs/decisions/224).
    creditLines: view.prices ? creditLines(t, found) : [],
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
  if (intent === "refund") {
    assertPermission(admin, request, context, "orders.refund");
    // Money leaving the shop: the password again after 15 minutes (docs/decisions/222).
    requireRecentAuthentication(request, admin, path);
  }
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
    const { result, online } = intent === "markPaid" ? { result: await markOrderPaid(context, input), online: false } : await refundOrder(context, input);
    if (!result.ok) {
      if (result.error === "notFound") throw data(null, { status: 404 });
      const key = result.error === "stale" ? "paymentStale" : result.error === "unavailable" ? "refundUnavailable" : result.error === "partlyAsCredit" ? "refundPartlyAsCredit" : "paymentNotAllowed";
      return redirectWithToast(context, path, { type: "error", key: `admin.orders.toast.${key}` });
    }
    const mail = "mail" in result ? result.mail : "none";
    const key = intent === "refund" ? (online ? "refundedOnline" : "refunded") : mail === "queued" ? "paidMailed" : "paid";
    return redirectWithToast(context, path, { type: "success", key: `admin.orders.toast.${key}`, values: { number: params.number } });
  }
  if (intent === "revokeLink" && isOrderNumber(params.number)) {
    assertPermission(admin, request, context, "orders.status");
    const found = await getAdminOrder(context.db, params.number);
    if (!found) throw data(null, { status: 404 });
    await revokeOrderLink(context.db, found.id, admin.id);
    return redirectWithToast(context, path, { type: "success", key: "admin.orders.toast.linkRevoked", values: { number: params.number } });
  }
  if (intent === "reissueLink" && isOrderNumber(params.number)) {
    // A new private link, e-mailed to the guest, after the old one was revoked (docs/decisions/217).
    const result = await reissueOrderLink(context.db, context.config, { number: params.number, actorId: admin.id });
    if (!result.ok && result.error === "notFound") throw data(null, { status: 404 });
    if (!result.ok) return redirectWithToast(context, path, { type: "error", key: `admin.orders.toast.${result.error === "active" ? "linkActive" : "linkNoEmail"}` });
    return redirectWithToast(context, path, { type: "success", key: "admin.orders.toast.linkReissued", values: { number: params.number, email: result.email } });
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

export default function AdminOrder({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <OrderScreen loaderData={loaderData} />
      {loaderData.creditRefundLeft ? <CreditRefundPanel number={loaderData.order.number} left={loaderData.creditRefundLeft} /> : null}
    </>
  );
}
