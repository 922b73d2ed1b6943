import type { ReminderStats } from "~/domain/messages/cart-reminders.server";
import type { MessageCounts } from "~/domain/messages/outbox.server";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

/** The dashboard's WhatsApp and SMS figures: waiting and failed per channel, and cart reminders' results. */
export function MessageFigures({ counts, reminders, showRevenue }: { counts: MessageCounts; reminders: ReminderStats; showRevenue: boolean }) {
  const { t } = useT();
  return (
    <section className="mt-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm" data-testid="message-figures">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-500">{t("admin.messages.dashboard")}</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {(["whatsapp", "sms"] as const).map((channel) => (
          <li key={channel} data-figure={`messages-${channel}`} className={counts[channel].failed > 0 ? "text-rose-900" : undefined}>
            {t("admin.messages.waiting", { channel: t(`admin.messages.${channel}`), waiting: counts[channel].waiting, failed: counts[channel].failed })}
          </li>
        ))}
        <li data-figure="cart-reminders">
          {t("admin.messages.reminders", { sent: reminders.sent, recovered: reminders.recovered, revenue: showRevenue ? formatNaira(reminders.revenue) : "—" })}
        </li>
      </ul>
    </section>
  );
}
