import { Form } from "react-router";
import type { GiftCardRow, Movement } from "~/domain/credit/credit.server";
import type { GiftCardFields } from "~/domain/credit/credit.server";
import { formatLagosDate } from "~/lib/dates";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";
import { Field, inputClass, PageHeader, Panel, primaryButton, secondaryButton, TableScroller } from "./ui";

/** Store credit and gift cards in the back office (docs/decisions/224): plain forms, server decides. */

/** On an order's page, for those who may refund: part or all of it back as the customer's credit. */
export function CreditRefundPanel({ number, left, error }: { number: string; left: number; error?: string | null }) {
  const { t } = useT();
  return (
    <Panel id="credit-refund" title={t("credit.admin.refundHeading")} className="mt-6">
      <p className="mt-1 text-sm text-stone-600">{t("credit.admin.refundLeft", { amount: formatNaira(left) })}</p>
      <Form method="post" action={`/admin/orders/${number}/credit`} className="mt-3 flex flex-wrap items-end gap-3">
        <Field label={t("credit.admin.refundAmount")} error={error}>
          {(props) => <input {...props} name="amount" inputMode="decimal" required className={inputClass} />}
        </Field>
        <Field label={t("credit.admin.refundNote")}>{(props) => <input {...props} name="note" maxLength={300} className={inputClass} />}</Field>
        <button type="submit" className={secondaryButton}>
          {t("credit.admin.refund")}
        </button>
      </Form>
    </Panel>
  );
}

const sign = (amount: number) => `${amount < 0 ? "−" : "+"}${formatNaira(Math.abs(amount))}`;

/** On a customer's page: the balance, its movements, and (for those who may) a change with a note. */
export function CustomerCreditPanel({ id, balance, movements, canChange }: { id: number; balance: number; movements: Movement[]; canChange: boolean }) {
  const { t, locale } = useT();
  return (
    <Panel id="customer-credit" title={t("credit.admin.customerHeading")} className="mt-6">
      <p className="mt-1 text-sm" data-testid="customer-credit-balance">
        {t("credit.admin.customerBalance", { amount: formatNaira(balance) })}
      </p>
      {movements.length > 0 && (
        <ul className="mt-2 text-sm">
          {movements.map((m) => (
            <li key={m.id} className="flex gap-3 border-t border-stone-100 py-1">
              <span className="whitespace-nowrap">{formatLagosDate(m.createdAt, locale)}</span>
              <span className="flex-1">
                {t(`credit.profile.reasons.${m.reason}`)}
                {m.orderNumber ? ` · ${m.orderNumber}` : ""}
                {m.note ? ` · ${m.note}` : ""}
              </span>
              <span className="whitespace-nowrap tabular-nums">{sign(m.amount)}</span>
            </li>
          ))}
        </ul>
      )}
      {canChange && (
        <Form method="post" action={`/admin/customers/${id}/credit`} className="mt-3 flex flex-wrap items-end gap-3">
          <Field label={t("credit.admin.adjustAmount")}>{(props) => <input {...props} name="amount" required className={inputClass} />}</Field>
          <Field label={t("credit.admin.adjustNote")}>{(props) => <input {...props} name="note" required maxLength={300} className={inputClass} />}</Field>
          <button type="submit" className={secondaryButton}>
            {t("credit.admin.adjust")}
          </button>
        </Form>
      )}
    </Panel>
  );
}

export const EMPTY_GIFT_CARD: GiftCardFields = { amount: "", expiresOn: "", recipientName: "", recipientEmail: "", message: "", locale: "en", sold: "" };

/** The gift cards screen: the list, and the form that issues one. */
export function GiftCardsScreen({ cards, values, errors, busy }: { cards: GiftCardRow[]; values: GiftCardFields; errors: Partial<Record<keyof GiftCardFields, string>>; busy: boolean }) {
  const { t, locale } = useT();
  return (
    <>
      <PageHeader title={t("credit.giftCards.title")} />
      <p className="mb-4 text-sm text-stone-600">{t("credit.giftCards.intro")}</p>
      <Form method="post" className="mb-8 grid max-w-xl gap-3" noValidate>
        <Field label={t("credit.giftCards.amount")} error={errors.amount}>
          {(props) => <input {...props} name="amount" defaultValue={values.amount} inputMode="decimal" className={inputClass} />}
        </Field>
        <Field label={t("credit.giftCards.expiresOn")} error={errors.expiresOn}>
          {(props) => <input {...props} type="date" name="expiresOn" defaultValue={values.expiresOn} className={inputClass} />}
        </Field>
        <Field label={t("credit.giftCards.recipientName")} error={errors.recipientName}>
          {(props) => <input {...props} name="recipientName" defaultValue={values.recipientName} maxLength={100} className={inputClass} />}
        </Field>
        <Field label={t("credit.giftCards.recipientEmail")} error={errors.recipientEmail}>
          {(props) => <input {...props} type="email" name="recipientEmail" defaultValue={values.recipientEmail} className={inputClass} />}
        </Field>
        <Field label={t("credit.giftCards.message")} error={errors.message}>
          {(props) => <textarea {...props} name="message" defaultValue={values.message} maxLength={1000} rows={3} className={inputClass} />}
        </Field>
        <Field label={t("credit.giftCards.locale")}>
          {(props) => (
            <select {...props} name="locale" defaultValue={values.locale} className={inputClass}>
              <option value="en">English</option>
              <option value="es">Español</option>
            </select>
          )}
        </Field>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="sold" value="on" defaultChecked={values.sold === "on"} />
          {t("credit.giftCards.sold")}
        </label>
        <div>
          <button type="submit" className={primaryButton} disabled={busy}>
            {t("credit.giftCards.issue")}
          </button>
        </div>
      </Form>
      {cards.length === 0 ? (
        <p className="text-stone-600">{t("credit.giftCards.empty")}</p>
      ) : (
        <TableScroller label={t("credit.giftCards.title")}>
          <table className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th className="p-2">{t("credit.giftCards.code")}</th>
                <th className="p-2">{t("credit.giftCards.recipient")}</th>
                <th className="p-2">{t("credit.giftCards.initial")}</th>
                <th className="p-2">{t("credit.giftCards.balance")}</th>
                <th className="p-2">{t("credit.giftCards.expires")}</th>
                <th className="p-2">{t("credit.giftCards.kind")}</th>
              </tr>
            </thead>
            <tbody>
              {cards.map((c) => (
                <tr key={c.id} className="border-b border-stone-100" data-testid="gift-card-row">
                  <td className="p-2 font-mono">{c.code}</td>
                  <td className="p-2">{c.recipientEmail}</td>
                  <td className="p-2 tabular-nums">{formatNaira(c.initialAmount)}</td>
                  <td className="p-2 tabular-nums">{formatNaira(c.balance)}</td>
                  <td className="p-2">{c.expiresAt ? formatLagosDate(c.expiresAt, locale) : t("credit.giftCards.never")}</td>
                  <td className="p-2">{t(c.sold ? "credit.giftCards.soldKind" : "credit.giftCards.givenKind")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
    </>
  );
}
