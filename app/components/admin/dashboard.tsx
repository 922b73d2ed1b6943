import { MessageFigures } from "~/components/admin/message-figures";
import type { ReminderStats } from "~/domain/messages/cart-reminders.server";
import type { MessageCounts } from "~/domain/messages/outbox.server";
import { Link } from "react-router";
import { RevenueChart } from "~/components/admin/revenue-chart";
import { PageHeader, StatusBadge, TableScroller } from "~/components/admin/ui";
import { PaymentStatusBadge } from "~/components/payment-status";
import type { Dashboard } from "~/domain/backoffice/dashboard.server";
import type { StaffView } from "~/domain/backoffice/staff-view.server";
import type { ShopSetup } from "~/domain/orders/delivery.server";
import type { WaitingOrder } from "~/domain/orders/order-alerts.server";
import { ORDER_STATUSES } from "~/lib/admin";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

export interface DashboardScreenData {
  /** as this role may see it */
  dashboard: Dashboard;
  waiting: WaitingOrder[];
  waitingCount: number;
  /** null for those who may not change the settings */
  setup: ShopSetup | null;
  view: StaffView;
  /** WhatsApp and SMS waiting or failed, and cart reminders (docs/decisions/220) */
  messages: { counts: MessageCounts; reminders: ReminderStats; showRevenue: boolean };
}

function Card({ title, children, className = "" }: { title: string; children: React.ReactNode; className?: string }) {
  return (
    <section className={`rounded-xl border border-stone-200 bg-white p-4 shadow-sm ${className}`}>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-500">{title}</h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}

/** The back office's first screen: orders waiting, the period figures, the chart, stock and mail. */
export function DashboardScreen({ loaderData }: { loaderData: DashboardScreenData }) {
  const { t, locale } = useT();
  const d = loaderData.dashboard;
  const view = loaderData.view;
  const periods = [
    { key: "today", figure: d.today },
    { key: "week", figure: d.week },
    { key: "month", figure: d.month },
  ] as const;
  return (
    <>
      <PageHeader title={t("admin.dashboard.title")} />
      {loaderData.setup && <SetupChecklist setup={loaderData.setup} />}
      <Card title={t("admin.dashboard.waiting.title")} className="mb-4 border-brand-500">
        {loaderData.waiting.length === 0 ? (
          <p className="text-stone-600">{t("admin.dashboard.waiting.none")}</p>
        ) : (
          <ul className="divide-y divide-stone-100" data-waiting-orders>
            {loaderData.waiting.map((o) => (
              <li key={o.number} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm" data-waiting-order={o.number}>
                <Link to={`/admin/orders/${o.number}`} className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline">
                  {o.number}
                </Link>
                <span className="font-medium">{t(o.status === "pending" ? "admin.dashboard.waiting.confirm" : "admin.dashboard.waiting.ship")}</span>
                <StatusBadge status={o.status} />
                <span>{formatLagosTime(o.createdAt, locale)}</span>
                {view.contact && (
                  <span className="text-stone-600">
                    {o.customer ?? t("admin.orders.guest")}
                    {o.guest && <span className="ml-1 text-xs font-medium text-amber-800" data-testid="guest-order">{t("admin.orders.guest")}</span>}
                  </span>
                )}
                <span className="text-stone-600">{t(`admin.orders.channel.${o.channel}`)}</span>
                {view.prices && <span className="ml-auto tabular-nums">{formatNaira(o.total)}</span>}
              </li>
            ))}
          </ul>
        )}
        {loaderData.waitingCount > loaderData.waiting.length && (
          <Link to="/admin/orders?status=pending" className="mt-2 inline-flex min-h-11 items-center text-sm text-brand-700 hover:underline">
            {t("admin.dashboard.waiting.all", { count: loaderData.waitingCount })}
          </Link>
        )}
      </Card>
      <div className="grid gap-4 sm:grid-cols-3">
        {periods.map(({ key, figure }) => (
          <Card key={key} title={t(`admin.dashboard.period.${key}`)}>
            {view.revenue && (
              <p className="text-2xl font-semibold tabular-nums text-ink" data-figure={`${key}-revenue`}>
                {formatNaira(figure.revenue)}
              </p>
            )}
            <p className="text-sm text-stone-600" data-figure={`${key}-orders`}>
              {t("admin.dashboard.orderCount", { count: figure.orders })}
            </p>
          </Card>
        ))}
      </div>

      {view.revenue && (
        <Card title={t("admin.dashboard.chart.title")} className="mt-4">
          <RevenueChart days={d.daily} />
        </Card>
      )}

      <div className="mt-4 grid gap-4 lg:grid-cols-3">
        <Card title={t("admin.dashboard.byStatus")}>
          <ul className="space-y-1">
            {ORDER_STATUSES.map((status) => (
              <li key={status} className="flex items-center justify-between">
                <Link to={`/admin/orders?status=${status}`} className="inline-flex min-h-11 items-center hover:underline">
                  <StatusBadge status={status} />
                </Link>
                <span className="tabular-nums" data-status-count={status}>
                  {d.byStatus[status]}
                </span>
              </li>
            ))}
          </ul>
          <FigureLink to="/admin/orders?status=pending&channel=whatsapp" className="mt-3 bg-emerald-50 text-emerald-900 hover:bg-emerald-100" label={t("admin.dashboard.pendingWhatsapp")} figure="pending-whatsapp" value={d.pendingWhatsapp} />
          <FigureLink to="/admin/orders?payment=unpaid" className="mt-2 bg-amber-50 text-amber-900 hover:bg-amber-100" label={t("admin.dashboard.unpaid")} figure="unpaid" value={d.unpaid} />
        </Card>

        <Card title={t("admin.dashboard.lowStock", { count: d.lowStock.count })}>
          <StockList items={d.lowStock.items} empty={t("admin.dashboard.noLowStock")} />
        </Card>
        <Card title={t("admin.dashboard.soldOut", { count: d.soldOut.count })}>
          <StockList items={d.soldOut.items} empty={t("admin.dashboard.noSoldOut")} />
        </Card>
      </div>

      <Card title={t("admin.dashboard.mail.title")} className="mt-4">
        <dl className="grid gap-2 text-sm sm:grid-cols-3">
          {(["pending", "retrying", "failed"] as const).map((key) => (
            <div key={key} className={`flex items-center justify-between rounded-lg px-3 py-2 ${key === "failed" && d.mail.failed > 0 ? "bg-rose-50 text-rose-900" : "bg-stone-50"}`}>
              <dt>{t(`admin.dashboard.mail.${key}`)}</dt>
              <dd className="font-semibold tabular-nums" data-figure={`mail-${key}`}>
                {d.mail[key]}
              </dd>
            </div>
          ))}
        </dl>
        {d.mail.failed > 0 && <p className="mt-2 text-sm text-rose-900">{t("admin.dashboard.mail.note")}</p>}
      </Card>
      <MessageFigures {...loaderData.messages} />

      <Card title={t("admin.dashboard.latest")} className="mt-4">
        {d.latest.length === 0 ? (
          <p className="text-stone-600">{t("admin.orders.empty")}</p>
        ) : (
          <TableScroller label={t("admin.dashboard.latest")}>
            <table className="w-full min-w-[36rem] text-left text-sm">
              <thead className="text-stone-500">
                <tr>
                  <th className="py-2 font-medium">{t("admin.orders.columns.number")}</th>
                  <th className="py-2 font-medium">{t("admin.orders.columns.date")}</th>
                  {view.contact && <th className="py-2 font-medium">{t("admin.orders.columns.customer")}</th>}
                  <th className="py-2 font-medium">{t("admin.orders.columns.channel")}</th>
                  <th className="py-2 font-medium">{t("admin.orders.columns.status")}</th>
                  {view.prices && <th className="py-2 text-right font-medium">{t("admin.orders.columns.total")}</th>}
                </tr>
              </thead>
              <tbody>
                {d.latest.map((o) => (
                  <tr key={o.number} className="border-t border-stone-100">
                    <td className="py-2">
                      <Link to={`/admin/orders/${o.number}`} className="font-medium text-brand-700 hover:underline">
                        {o.number}
                      </Link>
                    </td>
                    <td className="py-2">{formatLagosTime(o.createdAt, locale)}</td>
                    {view.contact && (
                      <td className="py-2">
                        {o.customer ?? t("admin.orders.guest")}
                        {o.guest && <span className="block text-xs font-medium text-amber-800" data-testid="guest-order">{t("admin.orders.guest")}</span>}
                      </td>
                    )}
                    <td className="py-2">{t(`admin.orders.channel.${o.channel}`)}</td>
                    <td className="py-2">
                      <StatusBadge status={o.status} /> <PaymentStatusBadge status={o.paymentStatus} />
                    </td>
                    {view.prices && <td className="py-2 text-right tabular-nums">{formatNaira(o.total)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
        )}
      </Card>
    </>
  );
}

/** A count that opens the orders it counts. */
function FigureLink({ to, className, label, figure, value }: { to: string; className: string; label: string; figure: string; value: number }) {
  return (
    <Link to={to} className={`flex min-h-11 items-center justify-between rounded-lg px-3 text-sm ${className}`}>
      <span>{label}</span>
      <span className="font-semibold tabular-nums" data-figure={figure}>
        {value}
      </span>
    </Link>
  );
}

function StockList({ items, empty }: { items: { id: number; name: string; stock: number }[]; empty: string }) {
  const { t } = useT();
  if (items.length === 0) return <p className="text-sm text-stone-600">{empty}</p>;
  return (
    <ul className="divide-y divide-stone-100 text-sm">
      {items.map((p) => (
        <li key={p.id} className="flex items-center justify-between gap-2">
          <Link to={`/admin/products?edit=${p.id}`} className="inline-flex min-h-11 items-center hover:underline">
            {p.name}
          </Link>
          <span className="shrink-0 tabular-nums text-stone-600">{t("admin.dashboard.inStock", { count: p.stock })}</span>
        </li>
      ))}
    </ul>
  );
}

/** What a new shop still has to set up; shown until everything is, and naming the states shoppers cannot pay from. */
function SetupChecklist({ setup }: { setup: ShopSetup }) {
  const { t } = useT();
  const blocked = setup.statesWithoutPayment;
  const items = [
    { key: "payment", done: setup.paymentOnline, text: t(setup.paymentOnline ? "admin.dashboard.setup.paymentDone" : "admin.dashboard.setup.payment") },
    {
      key: "zones",
      done: setup.zones > 0 && blocked.length === 0,
      text: blocked.length === 0 ? t("admin.dashboard.setup.zonesDone", { count: setup.zones }) : t("admin.dashboard.setup.zonesBlocked", { count: blocked.length, states: blocked.join(", ") }),
      link: "/admin/delivery",
    },
    { key: "ownerEmail", done: setup.ownerEmail, text: t(setup.ownerEmail ? "admin.dashboard.setup.ownerEmailDone" : "admin.dashboard.setup.ownerEmail") },
    { key: "bank", done: setup.bankDetails, text: t(setup.bankDetails ? "admin.dashboard.setup.bankDone" : "admin.dashboard.setup.bank") },
  ];
  if (items.every((item) => item.done)) return null;
  return (
    <section aria-labelledby="setup-heading" data-testid="setup-checklist" className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm shadow-sm">
      <h2 id="setup-heading" className="font-semibold text-ink">
        {t("admin.dashboard.setup.title")}
      </h2>
      <ul className="mt-2 space-y-2">
        {items.map((item) => (
          <li key={item.key} data-setup={item.key} data-done={item.done ? "yes" : "no"} className="flex gap-2">
            <span aria-hidden="true" className={item.done ? "text-emerald-700" : "text-amber-700"}>
              {item.done ? "✓" : "!"}
            </span>
            <span>
              <span className="sr-only">{t(item.done ? "admin.dashboard.setup.done" : "admin.dashboard.setup.todo")}: </span>
              {item.text}
              {item.link && !item.done && (
                <>
                  {" "}
                  <Link to={item.link} className="underline">
                    {t("admin.dashboard.setup.openDelivery")}
                  </Link>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
