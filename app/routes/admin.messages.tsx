import { data } from "react-router";
import { MessageSettings } from "~/components/admin/message-settings";
import {
  channelChoices,
  MARKETING_KINDS,
  MESSAGE_KINDS,
  parseMessageSettingsForm,
  reminderCodeSetting,
  reminderDelayMinutes,
  saveChannelChoices,
  saveReminderCode,
  saveReminderDelay,
} from "~/domain/messages/catalogue.server";
import { listPromotions } from "~/domain/promotions/admin.server";
import { requirePermission } from "~/http/staff-guard.server";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.messages";

const PATH = "/admin/messages";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const t = requestTranslator(request);
  const [choices, delay, code, promotions] = await Promise.all([channelChoices(context.db), reminderDelayMinutes(context.db), reminderCodeSetting(context.db), listPromotions(context.db)]);
  const { messaging } = context.config;
  return {
    view: {
      kinds: MESSAGE_KINDS.map((kind) => ({ kind, marketing: MARKETING_KINDS.has(kind), ...choices[kind] })),
      connected: { whatsapp: messaging.whatsapp !== null, sms: messaging.sms !== null },
      ownerWhatsapp: messaging.ownerWhatsapp !== null,
      delayHours: Math.round((delay / 60) * 100) / 100,
      reminderCode: code,
      // Written here: the promotions' texts are not among this screen's.
      codes: promotions.map((p) => ({ code: p.code, label: p.state === "active" ? p.code : `${p.code} (${t(`promotions.admin.states.${p.state}`)})` })),
    },
    title: t("admin.meta.title", { page: t("admin.nav.messages") }),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  await requirePermission(request, context, "settings");
  const parsed = parseMessageSettingsForm(await readForm(request));
  if (!parsed.ok) return data({ error: parsed.error }, { status: 400 });
  // The code first: one the shop does not have changes nothing.
  if (!(await saveReminderCode(context.db, parsed.reminderCode))) return data({ error: "admin.messages.codeError" }, { status: 400 });
  await saveChannelChoices(context.db, parsed.choices);
  await saveReminderDelay(context.db, parsed.delayMinutes);
  return redirectWithToast(context, PATH, { type: "success", key: "admin.messages.saved" });
}

export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  return <MessageSettings view={loaderData.view} error={actionData?.error ?? null} />;
}
