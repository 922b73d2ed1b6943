import Addresses from "~/components/profile-addresses";
import Favourites from "~/components/profile-favourites";
import Orders, { NUMBER_SLOT, ORDER_COLUMNS, type OrderColumnTexts } from "~/components/profile-orders";
import { ProfileCredit } from "~/components/profile-credit";
import { profileCredit, profileCreditHtml } from "~/http/credit-panel.server";
import { data, Form, Link } from "react-router";
import type { AddressErrors } from "~/components/address-fields";
import { listAddresses, MAX_ADDRESSES } from "~/domain/accounts/addresses.server";
import { addressBookAction } from "~/http/address-book.server";
import { accountPhone, setAccountPhone } from "~/domain/accounts/accounts.server";
import { listOrdersForUser } from "~/domain/orders/order-history.server";
import { requireUser } from "~/http/session.server";
import { wishlistCards } from "~/domain/shopper/wishlist.server";
import { marketingChoice, setMarketingChoice } from "~/http/consent-form.server";
import { PhoneField } from "~/components/phone-field";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { formatLagosTime } from "~/lib/dates";
import { detectLocale, requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { ensureMessages } from "~/lib/i18n.client";
import { privacyTexts } from "~/domain/privacy/privacy-texts.server";
import type { Route } from "./+types/account.profile";

// Only one tab shows at a time: the favourites (product cards) and the address forms are scripts of
// their own, loaded when their tab is shown, not with every visit to the orders list.

const TABS = ["orders", "favourites", "addresses"] as const;
type Tab = (typeof TABS)[number];

function tabFrom(url: URL): Tab {
  const tab = url.searchParams.get("tab");
  return (TABS as readonly string[]).includes(tab ?? "") ? (tab as Tab) : "orders";
}

// Someone's orders and addresses: never kept by a shared cache or shown again from the back button.
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const tab = tabFrom(new URL(request.url));
  const t = requestTranslator(request);
  const { locale } = detectLocale(request);
  return {
    user: { firstName: user.firstName, lastName: user.lastName, email: user.email, phone: await accountPhone(context.db, user.id) },
    tab,
    // Each order's time written here, in the shopper's language: the page's scripts carry no date formatting.
    orders: tab === "orders" ? (await listOrdersForUser(context.db, user.id)).map((order) => ({ ...order, placedAt: formatLagosTime(order.createdAt, locale) })) : [],
    addresses: tab === "addresses" ? await listAddresses(context.db, user.id) : [],
    maxAddresses: MAX_ADDRESSES,
    wishlist: tab === "favourites" ? await wishlistCards(context.db, user.id) : [],
    // Written here, in the shopper's language: the browser gets none of these texts (docs/decisions/220).
    marketing: await marketingChoice(context.db, user.id, request),
    // Store credit and its movements, written here (docs/decisions/224); null when the account never had any.
    credit: await profileCredit(context, t, locale, user.id).then((c) => (c ? profileCreditHtml(c) : null)),
    title: t("account.profile.title"),
    // Written here, so the privacy texts stay out of the profile's scripts (docs/decisions/221).
    privacyLink: privacyTexts(locale).profile.link,
    // Shown in one state of one tab only: written here, out of the page's scripts.
    texts: {
      noOrders: t("account.orders.empty"),
      viewDetails: t("account.orders.viewDetails"),
      viewDetailsOf: t("account.orders.viewDetailsOf", { number: NUMBER_SLOT }),
      columns: Object.fromEntries(ORDER_COLUMNS.map((key) => [key, t(`account.orders.${key}`)])) as OrderColumnTexts,
      pickup: t("account.orders.pickup"),
      noFavourites: t("account.wishlist.empty"),
      addressLimit: t("address.limitNote", { max: MAX_ADDRESSES }), atMax: t("address.atMax"),
    },
  };
}

/** Reached by in-app navigation: the page's texts are loaded with its data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), ensureMessages("account"), ensureMessages("address")]);
  return data;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.title} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  if (intent === "set-phone") {
    const typed = String(form.get("phone") ?? "");
    const saved = await setAccountPhone(context.db, user.id, typed);
    if (!saved.ok) return data({ intent, addressId: null, errors: { phone: saved.error } as AddressErrors, values: { phone: typed } }, { status: 400 });
    return redirectWithToast(context, `/profile?tab=${tabFrom(new URL(request.url))}`, { type: "success", key: "address.toast.phoneSaved" });
  }
  if (intent === "marketing") {
    const on = await setMarketingChoice(context.db, user.id, request, form.get("marketing") === "on");
    return redirectWithToast(context, `/profile?tab=${tabFrom(new URL(request.url))}`, { type: "success", key: on ? "messages.consent.granted" : "messages.consent.withdrawn" });
  }
  return addressBookAction(request, context, user.id, intent, form);
}

function initials(firstName: string, lastName: string): string {
  return `${firstName.trim()[0] ?? ""}${lastName.trim()[0] ?? ""}`.toUpperCase();
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const { user, tab } = loaderData;
  return (
    <div className="mx-auto max-w-5xl">
      <header className="flex items-center gap-4">
        <span aria-hidden="true" className="grid h-16 w-16 shrink-0 place-items-center rounded-full bg-ink font-serif text-xl text-white">
          {initials(user.firstName, user.lastName)}
        </span>
        <div className="min-w-0">
          <h1 className="break-words font-serif text-2xl font-semibold">
            {user.firstName} {user.lastName}
          </h1>
          <p className="break-all text-stone-600">{user.email}</p>
        </div>
      </header>
      <Form method="post" className="mt-4 flex max-w-md flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="set-phone" />
        <PhoneField
          id="account-phone"
          label="address.accountPhone"
          className="min-w-0 flex-1"
          value={actionData?.intent === "set-phone" ? actionData.values.phone : user.phone}
          error={actionData?.intent === "set-phone" ? actionData.errors.phone : undefined}
        />
        <button type="submit" className="mb-7 rounded-full border border-stone-300 px-4 py-2.5 text-sm font-medium">
          {t("address.savePhone")}
        </button>
      </Form>
      <p className="mt-2 text-sm">
        <Link to="/profile/privacy" className="underline underline-offset-2">
          {loaderData.privacyLink}
        </Link>
      </p>

      <Form method="post" className="mt-4 text-sm" data-testid="marketing-consent">
        <input type="hidden" name="intent" value="marketing" />
        <p>{loaderData.marketing.state}</p>
        {!loaderData.marketing.on && (
          <label className="flex gap-2">
            <input type="checkbox" name="marketing" value="on" />
            {loaderData.marketing.label}
          </label>
        )}
        <button name="marketing" value={loaderData.marketing.on ? "off" : ""} className="underline">
          {loaderData.marketing.button}
        </button>
      </Form>

      {loaderData.credit && <ProfileCredit html={loaderData.credit} />}

      <nav aria-label={t("account.profile.title")} className="mt-8 flex gap-1 border-b border-stone-200">
        {TABS.map((name) => (
          <Link
            key={name}
            to={`/profile?tab=${name}`}
            aria-current={tab === name ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-3 text-sm font-medium ${
              tab === name ? "border-ink text-ink" : "border-transparent text-stone-600 hover:text-ink"
            }`}
          >
            {t(`account.profile.tabs.${name}`)}
          </Link>
        ))}
      </nav>

      <div className="py-6">
        {tab === "orders" && <Orders orders={loaderData.orders} texts={loaderData.texts} />}
        {tab === "favourites" && <Favourites products={loaderData.wishlist} emptyText={loaderData.texts.noFavourites} />}
        {tab === "addresses" && <Addresses addresses={loaderData.addresses} max={loaderData.maxAddresses} texts={loaderData.texts} failed={actionData ?? null} />}
      </div>
    </div>
  );
}
