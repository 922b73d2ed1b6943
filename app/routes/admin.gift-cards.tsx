import { data, useNavigation } from "react-router";
import { EMPTY_GIFT_CARD, GiftCardsScreen } from "~/components/admin/credit-forms";
import { requirePermission } from "~/http/staff-guard.server";
import { requireRecentAuthentication } from "~/domain/accounts/reauthentication.server";
import { type GiftCardFields, issueGiftCard, listGiftCards, parseGiftCard } from "~/domain/credit/credit.server";
import { queueGiftCardEmail } from "~/domain/credit/credit-mail.server";
import { readForm } from "~/http/form.server";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { translatorFor } from "~/platform/translations.server";
import { ensureMessages } from "~/lib/i18n.client";
import type { Route } from "./+types/admin.gift-cards";

// Gift cards (docs/decisions/224): the list with each card's balance, and the form that issues one
// (or records one sold) and e-mails its code to the recipient.

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "credit");
  const t = requestTranslator(request);
  return { cards: await listGiftCards(context.db), title: t("admin.meta.title", { page: t("credit.giftCards.title") }) };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("credit")]);
  return data;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

const FIELDS = Object.keys(EMPTY_GIFT_CARD) as (keyof GiftCardFields)[];

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "credit");
  // A gift card is money out of the shop to any e-mail: the password again after 15 minutes (docs/decisions/222).
  requireRecentAuthentication(request, admin, "/admin/gift-cards");
  const form = await readForm(request);
  const values = Object.fromEntries(FIELDS.map((name) => [name, String(form.get(name) ?? "").slice(0, 2000)])) as GiftCardFields;
  const parsed = parseGiftCard(values);
  if (!parsed.ok) return data({ errors: parsed.errors, values }, { status: 400 });
  await issueGiftCard(context.db, parsed.input, admin.id, queueGiftCardEmail(translatorFor, { name: context.config.shop.name, publicUrl: context.config.publicUrl }));
  return redirectWithToast(context, "/admin/gift-cards", { type: "success", key: "credit.giftCards.issued", values: { email: parsed.input.recipientEmail } });
}

export default function AdminGiftCards({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return <GiftCardsScreen cards={loaderData.cards} values={actionData?.values ?? EMPTY_GIFT_CARD} errors={actionData?.errors ?? {}} busy={busy} />;
}
