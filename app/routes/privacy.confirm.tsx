import { data, Link } from "react-router";
import { DownloadForm, EraseForm, Notice } from "~/components/privacy";
import { eraseGuestData, guestData, guestLinkState } from "~/domain/privacy/data-rights.server";
import { privacyTexts } from "~/domain/privacy/privacy-texts.server";
import { bodyRefusal, readForm, textFields } from "~/http/form.server";
import { detectLocale } from "~/http/language.server";
import { translatorFor } from "~/platform/translations.server";
import { fill } from "~/http/content.server";
import { inLanguage } from "~/http/seo.server";
import type { Route } from "./+types/privacy.confirm";

/** A guest's link (docs/decisions/221): what is kept under the confirmed e-mail, to download or erase. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale } = detectLocale(request);
  const texts = privacyTexts(locale).confirm;
  const t = translatorFor(locale);
  const token = new URL(request.url).searchParams.get("token");
  const link = await guestLinkState(context, token);
  const page = { title: texts.title, back: inLanguage("/privacy", locale), backLabel: privacyTexts(locale).guest.back };
  if (link.state !== "valid") return data({ ...page, problem: texts[link.state], held: null }, { status: link.state === "invalid" ? 404 : 410 });
  if (link.hasAccount) return { ...page, problem: texts.hasAccount, signIn: { label: texts.signIn, to: "/auth?redirectTo=%2Fprofile%2Fprivacy" }, held: null };
  const found = await guestData(context, token);
  const sections = (found?.data ?? {}) as Record<string, unknown[] | null>;
  const count = (name: string) => (Array.isArray(sections[name]) ? sections[name].length : 0);
  const lines = [
    count("orders") && t("privacy.confirm.orders", { count: count("orders") }),
    count("backInStockRequests") && t("privacy.confirm.backInStock", { count: count("backInStockRequests") }),
    count("emailsSent") && t("privacy.confirm.emails", { count: count("emailsSent") }),
  ].filter((line): line is string => Boolean(line));
  return {
    ...page,
    problem: null,
    held: {
      token: token!,
      intro: fill(texts.intro, { email: link.email }),
      lines,
      nothing: texts.nothing,
      download: texts.download,
      eraseHeading: texts.eraseHeading,
      eraseText: texts.eraseText,
      erase: texts.erase,
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { intent, token } = textFields(form, ["intent", "token"]);
  if (intent !== "erase") throw bodyRefusal(request, "notAForm");
  const { locale } = detectLocale(request);
  const texts = privacyTexts(locale);
  const result = await eraseGuestData(context, token);
  if (result.ok) return { done: texts.confirm.erased, problem: null };
  const problem =
    result.reason === "openOrders"
      ? fill(texts.errors.openOrders, { orders: (result.orders ?? []).join(", ") })
      : result.reason === "hasAccount"
        ? texts.confirm.hasAccount
        : texts.confirm[result.reason];
  return data({ done: null, problem }, { status: result.reason === "invalid" ? 404 : result.reason === "openOrders" ? 409 : 410 });
}

// A link to someone's data: never kept by a cache, never indexed, its address never sent to another site
// ("no-referrer" would make the browser send "Origin: null" with the forms, which the Origin check refuses).
export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page ? `${page.title} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

export default function PrivacyConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { held } = loaderData;
  return (
    <article className="prose-page">
      <h1>{loaderData.title}</h1>
      {actionData?.done ? (
        <Notice tone="success" message={actionData.done} />
      ) : (
        <>
          <Notice message={actionData?.problem ?? loaderData.problem} />
          {"signIn" in loaderData && loaderData.signIn && <Link to={loaderData.signIn.to}>{loaderData.signIn.label}</Link>}
          {held && !actionData?.problem && (
            <>
              <p>{held.intro}</p>
              {held.lines.length ? (
                <ul data-held>
                  {held.lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : null}
              <p>{held.nothing}</p>
              <DownloadForm action="/privacy/confirm/download" token={held.token} label={held.download} />
              <h2>{held.eraseHeading}</h2>
              <p>{held.eraseText}</p>
              <EraseForm token={held.token} label={held.erase} />
            </>
          )}
        </>
      )}
      <p>
        <Link to={loaderData.back}>{loaderData.backLabel}</Link>
      </p>
    </article>
  );
}
