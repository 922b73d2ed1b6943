import { Form, Link } from "react-router";
import type { OrderStatus } from "~/db/schema";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { PageHeader, primaryButton, secondaryButton, StatusBadge, TableScroller } from "./ui";

/** One order a code or a sale took part in, with the two amounts its page shows, already written. */
export interface ResultOrder {
  number: string;
  createdAt: string;
  status: OrderStatus;
  amount: string;
  total: string;
}

/** The top of a code's or a sale's page: the way back, its name, and pausing or resuming it. */
export function PromotionHeader({ title, back, paused }: { title: string; back: { to: string; label: string }; paused: boolean }) {
  const { t } = useT();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to={back.to} className="underline underline-offset-2">
          {back.label}
        </Link>
      </p>
      <PageHeader title={title}>
        <Form method="post">
          <input type="hidden" name="intent" value={paused ? "resume" : "pause"} />
          <button type="submit" className={paused ? primaryButton : secondaryButton}>
            {t(paused ? "promotions.admin.resume" : "promotions.admin.pause")}
          </button>
        </Form>
      </PageHeader>
    </>
  );
}

/**
 * What a discount code or an automatic sale brought (docs/decisions/219 and 225): its figures, then its
 * latest orders, each with the promotion's own amount (discount given, bottles sold) and the total.
 */
export function PromotionResultsPanel({
  heading,
  figures,
  testIdPrefix,
  gridClass,
  orders,
  noOrders,
  amountHeading,
}: {
  heading: string;
  figures: { key: string; label: string; value: string }[];
  testIdPrefix: "promotion" | "sale";
  gridClass: string;
  orders: ResultOrder[];
  noOrders: string;
  amountHeading: string;
}) {
  const { t, locale } = useT();
  return (
    <>
      <h2 className="mb-3 text-lg font-semibold">{heading}</h2>
      <dl className={`mb-4 grid gap-3 text-sm ${gridClass}`}>
        {figures.map(({ key, label, value }) => (
          <div key={key} className="rounded-xl border border-stone-200 bg-white p-3">
            <dt className="text-stone-600">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`${testIdPrefix}-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {orders.length === 0 ? (
        <p className="mb-8 text-stone-600">{noOrders}</p>
      ) : (
        <TableScroller label={heading} className="mb-8">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("promotions.admin.order")}</th>
                <th className="p-2">{t("promotions.admin.placed")}</th>
                <th className="p-2">{t("promotions.admin.status")}</th>
                <th className="p-2 text-right">{amountHeading}</th>
                <th className="p-2 text-right">{t("promotions.admin.total")}</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.number} className="border-b border-stone-100">
                  <td className="p-2">
                    <Link to={`/admin/orders/${o.number}`} className="underline underline-offset-2">
                      {o.number}
                    </Link>
                  </td>
                  <td className="p-2">{formatLagosTime(o.createdAt, locale)}</td>
                  <td className="p-2">
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="p-2 text-right tabular-nums">{o.amount}</td>
                  <td className="p-2 text-right tabular-nums">{o.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
    </>
  );
}
