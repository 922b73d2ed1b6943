import { Link } from "react-router";
import { FilterForm, FilterSelect, ListTable, PageHeader, Pagination, screenHref } from "~/components/admin/ui";
import type { AuditEntity } from "~/db/schema";
import { auditActors, type AuditEntry, listAudit } from "~/domain/backoffice/audit.server";
import { AUDIT_ENTITIES, STOCK_REASONS } from "~/lib/admin";
import { requirePermission } from "~/http/staff-guard.server";
import { pageParam, positiveInt } from "~/lib/admin-params";
import { type Locale, type Translate, useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { formatNaira } from "~/lib/money";
import { formatLagosDate, formatLagosTime } from "~/lib/dates";
import type { Route } from "./+types/admin.audit";

const PATH = "/admin/audit";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "audit");
  const url = new URL(request.url);
  const raw = url.searchParams.get("entity");
  const entity = (AUDIT_ENTITIES as string[]).includes(raw ?? "") ? (raw as AuditEntity) : null;
  const by = positiveInt(url.searchParams.get("by"));
  const [log, actors] = await Promise.all([listAudit(context.db, { entity, actorId: by, page: pageParam(url.searchParams.get("page")) }), auditActors(context.db)]);
  const t = requestTranslator(request);
  return { ...log, entity, by, actors, title: t("admin.meta.title", { page: t("admin.nav.audit") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

// Kobo amounts; store credit and gift card amounts too (docs/decisions/224).
const MONEY_FIELDS = new Set(["price", "discount", "storeCredit", "refundedAsCredit", "amount", "minSubtotal"]);
// A promotion's or a sale's times, as the owner set them in Lagos (docs/decisions/219 and 225).
const TIME_FIELDS = new Set(["startsAt", "endsAt"]);
const PROMOTION_KINDS = new Set(["percent", "fixed", "free_delivery"]);

function showValue(field: string, value: unknown, t: Translate, locale: Locale): string {
  if (value === null || value === undefined || value === "") return t("admin.audit.none");
  if (typeof value === "boolean") return t(value ? "admin.audit.yes" : "admin.audit.no");
  if (MONEY_FIELDS.has(field) && typeof value === "number") return formatNaira(value);
  // A gift card's expiry: the end of a day in Lagos (docs/decisions/224).
  if (field === "expiresAt" && typeof value === "string") return formatLagosDate(value, locale);
  if (TIME_FIELDS.has(field) && typeof value === "string") return formatLagosTime(value, locale);
  if (field === "kind" && typeof value === "string" && PROMOTION_KINDS.has(value)) return t(`admin.audit.kinds.${value}`);
  if (field === "status" && typeof value === "string") return t(`admin.orders.status.${value}`);
  // "admin" is kept for entries written before the staff roles (docs/decisions/218).
  if (field === "role" && typeof value === "string" && ["admin", "customer", "owner", "manager", "fulfilment", "support"].includes(value)) return t(`admin.customers.roles.${value}`);
  if (field === "stockReason" && (STOCK_REASONS as unknown[]).includes(value)) return t(`admin.stock.reasons.${value as string}`);
  return String(value);
}

function Changes({ entry }: { entry: AuditEntry }) {
  const { t, locale } = useT();
  const fields = Object.entries(entry.changes);
  if (fields.length === 0) return null;
  return (
    <ul className="space-y-0.5">
      {fields.map(([field, pair]) => {
        const [before, after] = Array.isArray(pair) ? pair : [null, pair];
        return (
          <li key={field} data-change={field}>
            <span className="text-stone-500">{t(`admin.audit.fields.${field}`)}:</span>{" "}
            {entry.action !== "create" && (
              <>
                <span className="break-words line-through decoration-stone-400">{showValue(field, before, t, locale)}</span> →{" "}
              </>
            )}
            <span className="break-words">{showValue(field, after, t, locale)}</span>
          </li>
        );
      })}
    </ul>
  );
}

function entityLink(entry: AuditEntry): string | null {
  if (entry.action === "delete" || entry.entityId === null) return null;
  if (entry.entity === "user") return `/admin/customers/${entry.entityId}`;
  if (entry.entity === "order") return `/admin/orders/${encodeURIComponent(entry.summary)}`;
  if (entry.entity === "product" && entry.action !== "archive") return `/admin/products?edit=${entry.entityId}`;
  if (entry.entity === "promotion") return `/admin/promotions/${entry.entityId}`;
  if (entry.entity === "sale") return `/admin/promotions/sale-${entry.entityId}`;
  return null;
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const log = loaderData;
  return (
    <>
      <PageHeader title={t("admin.audit.title")} />
      <FilterForm className="flex items-end gap-2">
        <FilterSelect
          name="entity"
          label={t("admin.audit.filter")}
          value={log.entity}
          any={t("admin.audit.everything")}
          options={AUDIT_ENTITIES.map((e) => [e, t(`admin.audit.entities.${e}`)] as const)}
        />
        <FilterSelect name="by" label={t("admin.audit.by")} value={log.by} any={t("admin.audit.everyone")} options={log.actors.map((a) => [a.id, a.name] as const)} />
      </FilterForm>
      <ListTable
        label={t("admin.audit.title")}
        className="mt-4"
        tableClassName="w-full min-w-[48rem] text-left text-sm"
        columns={["when", "who", "what", "changes"].map((c) => ({ key: c, label: t(`admin.audit.columns.${c}`) }))}
        empty={log.entries.length === 0 && t("admin.audit.empty")}
      >
        {log.entries.map((entry) => {
          const link = entityLink(entry);
          return (
            <tr key={entry.id} className="border-t border-stone-100 align-top" data-audit-entry={`${entry.entity}:${entry.action}`}>
              <td className="whitespace-nowrap px-3 py-2">{formatLagosTime(entry.createdAt, locale)}</td>
              <td className="px-3 py-2">{entry.actor ?? t("admin.audit.unknownActor")}</td>
              <td className="px-3 py-2">
                <span className="font-medium">{t(`admin.audit.actions.${entry.action}`, { entity: t(`admin.audit.entities.${entry.entity}`) })}</span>{" "}
                {link ? (
                  <Link to={link} className="text-brand-700 underline hover:no-underline">
                    {entry.summary}
                  </Link>
                ) : (
                  <span>{entry.summary}</span>
                )}
              </td>
              <td className="px-3 py-2">
                <Changes entry={entry} />
              </td>
            </tr>
          );
        })}
      </ListTable>
      <Pagination page={log.page} pages={log.pages} href={(page) => screenHref(PATH, { entity: log.entity, by: log.by, page })} />
    </>
  );
}
