import { data, Link } from "react-router";
import { requirePermission } from "~/http/staff-guard.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { nairaAmount, refundAsCredit } from "~/domain/credit/credit.server";
import { isOrderNumber } from "~/domain/orders/orders.server";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatNaira } from "~/lib/money";
import type { Route } from "./+types/admin.orders.$number.credit";

// A paid order refunded, wholly or a part, as the customer's store credit (docs/decisions/224); audited,
// and asking the password again after 15 minutes like any refund (222).

const STATUS = { amount: 400, notFound: 404, guest: 409, notPaid: 409, tooMuch: 409 } as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "orders.refund");
  if (!isOrderNumber(params.number)) throw data(null, { status: 404 });
  const t = requestTranslator(request);
  const back = `/admin/orders/${params.number}`;
  // A refund: the password again after 15 minutes, as for any refund (docs/decisions/222).
  requireRecentAuthentication(request, admin, back);
  const form = await readForm(request);
  const amount = nairaAmount(String(form.get("amount") ?? ""));
  const refuse = (status: number, key: string, values?: Record<string, string>) =>
    data({ message: t(`credit.admin.errors.${key}`, values), back, backText: t("promotions.shopper.back") }, { status });
  if (amount === null || Number.isNaN(amount) || amount <= 0) return refuse(400, "amount");
  const result = await refundAsCredit(context.db, { number: params.number, amount, note: String(form.get("note") ?? ""), actorId: admin.id });
  if (!result.ok) return refuse(STATUS[result.error], result.error, { amount: formatNaira(result.left ?? 0) });
  return redirectWithToast(context, back, { type: "success", key: "credit.admin.refunded", values: { amount: formatNaira(result.refunded) } });
}

/** Without JavaScript, a refused refund lands here: why, and the way back. */
export default function CreditRefundRefused({ actionData }: Route.ComponentProps) {
  return (
    <div className="py-10">
      <p role="alert" className="text-red-700">
        {actionData?.message}
      </p>
      <Link to={actionData?.back ?? "/admin/orders"} className="mt-4 inline-block underline">
        {actionData?.backText ?? "←"}
      </Link>
    </div>
  );
}
