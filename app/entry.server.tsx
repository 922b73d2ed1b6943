import { renderToString } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "react-router";
import { ServerRouter } from "react-router";
import { DEFAULT_LOCALE } from "~/lib/i18n";
import { inLanguage as renderInLanguage } from "~/platform/translations.server";
import { detectLocale } from "~/http/language.server";
import { pageBytesWithoutScriptPreloads } from "~/http/script-preloads.server";
import { pageSecurityPolicy } from "~/http/security-headers.server";
import { inLanguage } from "~/http/seo.server";
import { cacheControl, carriesPersonalCookie, isShared, matchesEtag, pageEtag, PRIVATE } from "~/http/shared-cache.server";

export const streamTimeout = 5_000;

// Background work that needs the app's own modules (translations are bundled by Vite): server.ts
// reaches it through the build.
export { recheckUnpaidOnlinePayments } from "~/domain/payments/online-payments.server";
// Run by server.ts every minute and after catalogue changes: its e-mails are written in each
// shopper's language, which needs the app's translations.
export { sendBackInStockAlerts } from "~/domain/catalogue/back-in-stock.server";
export { sendCartReminders } from "~/domain/messages/cart-reminders.server";

/** What a route module may say of its page: `export const handle = { sharedCache: true }`. */
interface PageHandle {
  sharedCache?: boolean;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The same detection as the root loader's, so the page and <html lang> always agree.
  const { locale } = detectLocale(request);
  const url = new URL(request.url);
  const leaf = routerContext.staticHandlerContext.matches.at(-1);
  const shareable = Boolean(leaf && (routerContext.routeModules[leaf.route.id]?.handle as PageHandle | undefined)?.sharedCache);
  const answer = {
    shareable,
    personal: carriesPersonalCookie(request),
    setsCookie: responseHeaders.has("Set-Cookie"),
    status: responseStatusCode,
    method: request.method,
    seconds: loadContext.config.sharedCacheSeconds,
  };
  // Each language has its own addresses: a shopper whose saved choice or browser asks for another
  // language than the address's default is sent to their language's address once.
  if (shareable && !url.searchParams.has("lng") && locale !== DEFAULT_LOCALE && request.method === "GET") {
    return new Response(null, {
      status: 302,
      headers: { Location: inLanguage(url.pathname + url.search, locale), "Cache-Control": PRIVATE, Vary: "Accept-Language" },
    });
  }
  // The whole page is rendered before its first byte: shoppers without JavaScript and search engines
  // get all of it, and the status code is final. Nothing in the shop suspends, so with the router's
  // data read first it renders in one synchronous pass (docs/decisions/162).
  await handOffDataBeforeRendering(routerContext);
  const html = renderToString(renderInLanguage(locale, <ServerRouter context={routerContext} url={request.url} />));
  const bytes = pageBytesWithoutScriptPreloads(DOCTYPE, html);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Security-Policy", pageSecurityPolicy(html));
  responseHeaders.set("Cache-Control", cacheControl(answer));
  if (!isShared(answer)) return new Response(bytes, { headers: responseHeaders, status: responseStatusCode });
  // An address without `lng` is the default language's only for browsers that do not ask for another.
  if (!url.searchParams.has("lng")) responseHeaders.set("Vary", "Accept-Language");
  const etag = pageEtag(bytes);
  responseHeaders.set("ETag", etag);
  if (matchesEtag(request, etag)) return new Response(null, { headers: responseHeaders, status: 304 });
  return new Response(bytes, { headers: responseHeaders, status: responseStatusCode });
}

/** A page's data for client-side navigation is the shopper's own unless its loader says otherwise. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", PRIVATE);
  return response;
};

const DOCTYPE = "<!DOCTYPE html>";

/**
 * Reads the page's data for the browser (the router's encoded loader data) to its end, and gives it to
 * the router's render as already read. The page then renders in one synchronous pass, without a
 * Suspense boundary waiting on the data stream.
 */
async function handOffDataBeforeRendering(context: EntryContext) {
  const stream = context.serverHandoffStream;
  if (!stream) return;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let value = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) value += decoder.decode(chunk.value, { stream: true });
  value += decoder.decode();
  reader.releaseLock();
  const read = (result: { done: boolean; value: string }) => Object.assign(Promise.resolve(), { result });
  context.renderMeta = { ...context.renderMeta, streamCache: { 0: read({ done: false, value }), 1: read({ done: true, value: "" }) } };
}
