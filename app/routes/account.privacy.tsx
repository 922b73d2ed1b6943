import { data, Link } from "react-router";
import { DownloadForm, EraseForm, Notice } from "~/components/privacy";
import { clearCartCookie } from "~/http/cart.server";
import { eraseAccount } from "~/domain/privacy/data-rights.server";
import { privacyTexts } from "~/domain/privacy/privacy-texts.server";
import { TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { destroySession, requireUser } from "~/http/session.server";
import { fill } from "~/http/content.server";
import { bodyRefusal, passOnRetryAfter, readForm, textFields } from "~/http/form.server";
import { detectLocale } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/account.privacy";

/** A signed-in shopper's data: download it, or erase the account (docs/decisions/221). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return { texts: privacyTexts(detectLocale(request).locale).profile };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const { intent, password } = textFields(form, ["intent", "password"]);
  if (intent !== "erase") throw bodyRefusal(request, "notAForm");
  const texts = privacyTexts(detectLocale(request).locale);
  let result;
  try {
    result = await eraseAccount(context, { userId: user.id, password });
  } catch (error) {
    if (!(error instanceof TooManyAttempts)) throw error;
    const minutes = Math.max(1, Math.ceil(error.retryAfterSeconds / 60));
    return data({ password: fill(texts.errors.tooMany, { minutes }), form: null }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
  if (result.ok) {
    // Every session of the account is gone already; this browser's cookies go too.
    const headers = new Headers();
    headers.append("Set-Cookie", await destroySession(request, context));
    headers.append("Set-Cookie", clearCartCookie(context));
    return redirectWithToast(context, "/", { type: "success", key: "privacy.toast.erased" }, { headers });
  }
  if (result.reason === "openOrders") return data({ password: null, form: fill(texts.errors.openOrders, { orders: result.orders.join(", ") }) }, { status: 409 });
  if (result.reason === "staff") return data({ password: null, form: texts.errors.staff }, { status: 403 });
  return data({ password: texts.errors[result.reason], form: null }, { status: 400 });
}

// Someone's own page: never kept by a shared cache; a 429 carries its Retry-After.
export function headers(args: Route.HeadersArgs) {
  return { ...passOnRetryAfter(args), "Cache-Control": "private, no-store" };
}

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page ? `${page.texts.title} | Unboxed` : "Unboxed" }, { name: "robots", content: "noindex" }];
}

export default function AccountPrivacy({ loaderData: { texts }, actionData }: Route.ComponentProps) {
  return (
    <article className="prose-page">
      <h1>{texts.title}</h1>
      <p className="lead">{texts.intro}</p>
      <p>
        <Link to="/privacy">{texts.policy}</Link>
      </p>
      <section aria-labelledby="download-heading">
        <h2 id="download-heading">{texts.downloadHeading}</h2>
        <p>{texts.downloadText}</p>
        <DownloadForm action="/profile/privacy/download" label={texts.download} />
      </section>
      <section aria-labelledby="erase-heading">
        <h2 id="erase-heading">{texts.eraseHeading}</h2>
        <p>{texts.eraseText}</p>
        <Notice message={actionData?.form} />
        <EraseForm label={texts.erase} password={{ label: texts.password, error: actionData?.password }} />
      </section>
    </article>
  );
}
