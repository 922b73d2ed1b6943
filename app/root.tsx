import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { DEFAULT_LOCALE, useT } from "./lib/i18n";
import { translatorFor } from "~/platform/translations.server";
import { detectLocale, localeCookie } from "~/http/language.server";
import { LOCALE_COOKIE } from "~/lib/locale-detect";
import { readCookie } from "./http/cookies.server";
import { refusalMessage } from "./lib/refusal";
import { readToast } from "./http/toast.server";
import { personalState } from "~/http/personal.server";
import { Toasts } from "./components/toasts";

export const links: Route.LinksFunction = () => [
  // With a precedence, React puts the stylesheet ahead of the script preloads: the page paints sooner.
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale, fromQuery } = detectLocale(request);
  const { shop } = context.config;
  const [{ toast, clear }, personal] = await Promise.all([readToast(request, context), personalState(request, context, locale)]);
  const headers = new Headers();
  // A language chosen with ?lng= is remembered for the next visits; once remembered, its pages set no
  // cookie, so a shared cache may keep them.
  if (fromQuery && readCookie(request, LOCALE_COOKIE) !== locale) headers.append("Set-Cookie", localeCookie(locale));
  if (clear) headers.append("Set-Cookie", clear);
  return data(
    {
      locale,
      // Translated here, so a toast reads right on any page, whichever texts that page loaded.
      toast: toast && { id: toast.id, type: toast.type, text: translatorFor(locale)(toast.key, toast.values) },
      // Read with usePersonal().
      personal: JSON.stringify(personal),
      shop: { phone: shop.phone, whatsapp: shop.whatsapp, email: shop.email, socials: shop.socials },
    },
    { headers },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const locale = root?.locale ?? DEFAULT_LOCALE;
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1c1917" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-stone-50 text-stone-900 antialiased">
        {children}
        <Toasts toast={root?.toast ?? null} />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Last resort, when even the store layout could not render. */
export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const { t } = useT();
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">{notFound ? t("common.notFound.title") : t("common.error.title")}</h1>
      <p className="mt-3 text-stone-600">{notFound ? t("common.notFound.body") : (refusalMessage(error) ?? t("common.error.body"))}</p>
      <a className="mt-6 inline-block underline" href="/">
        {t("common.notFound.backHome")}
      </a>
    </main>
  );
}
