import type { OrderMessage } from "~/domain/messages/outbox.server";
import { formatLagosTime } from "~/lib/dates";
import { useT } from "~/lib/i18n";

/** An order's WhatsApp and SMS messages and their state; a failure says so without touching the order. */
export function OrderMessagesPanel({ messages }: { messages: OrderMessage[] }) {
  const { t, locale } = useT();
  return (
    <section className="mt-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm" aria-labelledby="messages-heading" data-testid="order-messages">
      <h2 id="messages-heading" className="font-semibold text-ink">
        {t("admin.messages.onOrder")}
      </h2>
      {messages.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">{t("admin.messages.onOrderNone")}</p>
      ) : (
        <ul className="mt-3 space-y-2 text-sm">
          {messages.map((m) => (
            <li key={m.id} data-message-kind={m.kind} data-message-channel={m.channel} data-message-status={m.status}>
              <span className="font-medium">{t(`admin.messages.kinds.${m.kind}`)}</span> · {t(`admin.messages.${m.channel}`)} ·{" "}
              <span className={m.status === "failed" ? "font-semibold text-red-700" : "text-stone-700"}>{t(`admin.messages.status.${m.status}`)}</span>{" "}
              <time dateTime={m.createdAt} className="text-stone-500">
                {formatLagosTime(m.sentAt ?? m.createdAt, locale)}
              </time>
              {m.attempts > 1 && <span className="text-stone-500"> · {t("admin.messages.tries", { count: m.attempts })}</span>}
              {m.status === "failed" && (
                <p role="status" className="mt-1 rounded border border-red-200 bg-red-50 px-2 py-1 text-red-900">
                  {t("admin.messages.failedNote", { error: m.lastError ?? m.errorCode ?? "" })}
                </p>
              )}
              {m.status === "pending" && m.lastError && <p className="mt-1 text-stone-600">{m.lastError}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
