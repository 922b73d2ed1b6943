import { data } from "react-router";
import { CustomerScreen } from "~/components/admin/customer-screen";
import { changeRole, getCustomer, isRole } from "~/domain/backoffice/customers.server";
import { can } from "~/domain/backoffice/permissions.server";
import { requirePermission } from "~/http/staff-guard.server";
import { eraseCustomerForShopper } from "~/domain/privacy/data-rights.server";
import { isErasedEmail } from "~/domain/privacy/personal-data.server";
import { pageParam, positiveInt } from "~/lib/admin-params";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { customerFor, staffView } from "~/domain/backoffice/staff-view.server";
import { CustomerCreditPanel } from "~/components/admin/credit-forms";
import { creditStatement } from "~/domain/credit/credit.server";
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
    // Only the owner (who holds `staff`) erases, and only a customer's account (docs/decisions/221).
    canErase: can(admin.role, "staff") && customer.role === "customer",
    erased: isErasedEmail(customer.email),
    confirming: can(admin.role, "staff") && customer.id !== admin.id && isRole(confirming) && confirming !== customer.role ? confirming : null,
    title: t("admin.meta.title", { page: customer.name || customer.email }),
    // Store credit (docs/decisions/224): seen with the customer, changed by those who hold `credit`.
    credit: customer.role === "customer" ? { ...(await creditStatement(context.db, customer.id)), canChange: can(admin.role, "credit") } : null,
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
  if (form.get("intent") === "erase") return eraseAction(context, { actorId: admin.id, userId: id, confirmed: form.get("confirm") === "yes" });
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

const ERASE_REFUSAL = { erased: 409, staff: 409, openOrders: 409 } as const;

/** The owner erases a customer's personal data at the shopper's written request (the caller holds `staff`). */
async function eraseAction(context: Route.ActionArgs["context"], input: { actorId: number; userId: number; confirmed: boolean }) {
  if (!input.confirmed) return data({ eraseProblem: { key: "admin.customers.erase.errors.notConfirmed" } }, { status: 400 });
  const result = await eraseCustomerForShopper(context, input);
  if (result.ok) return redirectWithToast(context, `/admin/customers/${input.userId}`, { type: "success", key: "admin.customers.erase.done" });
  if (result.reason === "notFound") throw data(null, { status: 404 });
  const values = result.reason === "openOrders" ? { orders: result.orders.join(", ") } : undefined;
  return data({ eraseProblem: { key: `admin.customers.erase.errors.${result.reason}`, values } }, { status: ERASE_REFUSAL[result.reason] });
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <CustomerScreen
        loaderData={loaderData}
        problem={actionData && "problem" in actionData ? actionData.problem : null}
        eraseProblem={actionData && "eraseProblem" in actionData ? actionData.eraseProblem : null}
      />
      {loaderData.credit && <CustomerCreditPanel id={loaderData.customer.id} {...loaderData.credit} />}
    </>
  );
}
