import { Form } from "react-router";
import { useT } from "~/lib/i18n";
import { inputClass, PageHeader, primaryButton, TableScroller } from "./ui";

export interface MessageSettingsView {
  kinds: { kind: string; marketing: boolean; whatsapp: boolean; sms: boolean }[];
  connected: { whatsapp: boolean; sms: boolean };
  ownerWhatsapp: boolean;
  delayHours: number;
  /** the discount code reminders carry (null: none) and the shop's codes to choose from */
  reminderCode: string | null;
  codes: { code: string; label: string }[];
}

/** The owner's choice of channels per message and the cart reminder's delay (docs/decisions/220). */
export function MessageSettings({ view, error }: { view: MessageSettingsView; error: string | null }) {
  const { t } = useT();
  return (
    <>
      <PageHeader title={t("admin.messages.title")} />
      <p className="mb-4 max-w-3xl text-sm text-stone-700">{t("admin.messages.intro")}</p>
      <ul className="mb-4 space-y-1 text-sm" data-testid="message-channels">
        {(["whatsapp", "sms"] as const).map((channel) => (
          <li key={channel} data-channel={channel} data-connected={view.connected[channel] ? "yes" : "no"}>
            {t(view.connected[channel] ? "admin.messages.channelOn" : "admin.messages.channelOff", { channel: t(`admin.messages.${channel}`) })}
          </li>
        ))}
      </ul>
      <Form method="post" className="space-y-6" key={JSON.stringify(view)}>
        <TableScroller label={t("admin.messages.title")}>
          <table className="min-w-full text-sm">
            <thead>
              <tr className="text-left text-stone-600">
                <th className="px-3 py-2">{t("admin.messages.message")}</th>
                <th className="px-3 py-2">{t("admin.messages.whatsapp")}</th>
                <th className="px-3 py-2">{t("admin.messages.sms")}</th>
              </tr>
            </thead>
            <tbody>
              {view.kinds.map((row) => {
                const name = t(`admin.messages.kinds.${row.kind}`);
                return (
                  <tr key={row.kind} className="border-t border-stone-200" data-kind={row.kind}>
                    <th scope="row" className="px-3 py-2 text-left font-medium">
                      {name}
                      {row.marketing && <span className="block text-xs font-normal text-stone-600">{t("admin.messages.marketing")}</span>}
                      {row.kind === "new-order-alert" && <span className="block text-xs font-normal text-stone-600">{t("admin.messages.ownerOnly")}</span>}
                    </th>
                    <td className="px-3 py-2">
                      <input type="checkbox" name={`${row.kind}.whatsapp`} defaultChecked={row.whatsapp} aria-label={`${name}: ${t("admin.messages.whatsapp")}`} className="size-4" />
                    </td>
                    <td className="px-3 py-2">
                      {row.kind !== "new-order-alert" && (
                        <input type="checkbox" name={`${row.kind}.sms`} defaultChecked={row.sms} aria-label={`${name}: ${t("admin.messages.sms")}`} className="size-4" />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroller>
        <label className="block max-w-sm text-sm">
          <span className="block font-medium text-stone-800">{t("admin.messages.delay")}</span>
          <input
            name="delayHours"
            inputMode="decimal"
            defaultValue={String(view.delayHours)}
            className={inputClass}
            {...(error && error !== "admin.messages.codeError" ? { "aria-invalid": true as const, "aria-describedby": "delay-error" } : {})}
          />
          {error && error !== "admin.messages.codeError" && (
            <span id="delay-error" className="mt-1 block text-sm text-red-700" data-field-error>
              {t(error)}
            </span>
          )}
          <span className="mt-1 block text-stone-600">{t("admin.messages.delayHint")}</span>
        </label>
        <label className="block max-w-sm text-sm">
          <span className="block font-medium text-stone-800">{t("admin.messages.code")}</span>
          <select
            name="reminderCode"
            defaultValue={view.reminderCode ?? ""}
            className={inputClass}
            {...(error === "admin.messages.codeError" ? { "aria-invalid": true as const, "aria-describedby": "code-error" } : {})}
          >
            <option value="">{t("admin.messages.codeNone")}</option>
            {view.codes.map((c) => (
              <option key={c.code} value={c.code}>
                {c.label}
              </option>
            ))}
          </select>
          {error === "admin.messages.codeError" && (
            <span id="code-error" className="mt-1 block text-sm text-red-700" data-field-error>
              {t(error)}
            </span>
          )}
          <span className="mt-1 block text-stone-600">{t("admin.messages.codeHint")}</span>
        </label>
        <button type="submit" className={primaryButton}>
          {t("admin.messages.save")}
        </button>
      </Form>
    </>
  );
}
