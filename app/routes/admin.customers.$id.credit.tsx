import { data, Link } from "react-router";
import { requirePermission } from "~/http/staff-guard.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { adjustCredit, nairaAmount } from "~/domain/credit/credit.server";
import { positiveInt } from "~/lib/admin-params";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatNaira } from "~/lib/money";
import type { Route } from "./+types/admin.customers.$id.credit";

// A customer's store credit given or taken back by hand, with a note (docs/decisions/224); audited.

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "credit");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const t = requestTranslator(request);
  const back = `/admin/customers/${id}`;
  // Money out of the shop: the password again after 15 minutes, as for a refund (docs/decisions/222).
  requireRecentAuthentication(request, admin, back);
  const form = await readForm(request);
  const raw = String(form.get("amount") ?? "").trim();
  const negative = /^[-−]/.test(raw);
  const amount = nairaAmount(raw.replace(/^[-−]/, ""));
  const refuse = (status: number, key: string) => data({ message: t(`credit.admin.errors.${key}`), back, backText: t("promotions.shopper.back") }, { status });
  if (amount === null || Number.isNaN(amount) || amount === 0) return refuse(400, "amount");
  const result = await adjustCredit(context.db, { userId: id, amount: negative ? -amount : amount, note: String(form.get("note") ?? ""), actorId: admin.id });
  if (!result.ok) return refuse(result.error === "notFound" ? 404 : result.error === "belowZero" ? 409 : 400, result.error);
  return redirectWithToast(context, back, { type: "success", key: "credit.admin.adjusted", values: { amount: formatNaira(result.balance) } });
}

/** Without JavaScript, a refused change lands here: why, and the way back. */
export default function CreditRefused({ actionData }: Route.ComponentProps) {
  return (
    <div className="py-10">
      <p role="alert" className="text-red-700">
        {actionData?.message}
      </p>
      <Link to={actionData?.back ?? "/admin/customers"} className="mt-4 inline-block underline">
        {actionData?.backText ?? "←"}
      </Link>
    </div>
  );
}
