import { renderToString } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { shopperAndState, shopperStateAndProduct } from "~/domain/personal.server";
import { detectLocale, inLanguage, translatorFor } from "~/lib/i18n.server";
import { compilePersonalTemplate, fillPersonalTemplate, type PersonalTemplate } from "~/lib/personal-page.server";
import type { PersonalBody } from "~/lib/page-cache.server";
import { FragmentsContext } from "~/lib/fragments";
import { fragmentsFor } from "~/lib/fragments.server";
import { NonceProvider } from "~/lib/nonce";
import { recentRow } from "~/lib/personal-strip.server";
import { pageBytesWithoutScriptPreloads } from "~/lib/script-preloads.server";

export const streamTimeout = 5_000;

// Background work that needs the app's own modules (translations are bundled by Vite): server.ts
// reaches it through the build.
export { recheckUnpaidOnlinePayments } from "~/domain/online-payments.server";
// Run by server.ts every minute and after catalogue changes: its e-mails are written in each
// shopper's language, which needs the app's translations.
export { sendBackInStockAlerts } from "~/domain/back-in-stock.server";

/**
 * A cached anonymous page made this request's shopper's (docs/decisions/141), or null when it must be
 * rendered in full. Used by server.ts's page cache; lives here because it needs the app's texts. On a
 * product page, a signed-in shopper's review and back-in-stock forms and recently viewed row are
 * theirs too, and their view is recorded (docs/decisions/150).
 */
export async function personalPage(
  page: { body: Buffer; personal?: PersonalTemplate | null },
  request: Request,
  context: Pick<AppLoadContext, "db">,
): Promise<PersonalBody | null> {
  const { locale } = detectLocale(request);
  const t = translatorFor(locale);
  // Cut once per cached page (its language is part of its key), on the first shopper who needs it.
  if (page.personal === undefined) page.personal = compilePersonalTemplate(page.body, t);
  const template = page.personal;
  if (!template) return null;
  const productId = template.product ? Number(/^\/shop\/(\d{1,10})$/.exec(new URL(request.url).pathname)?.[1]) : null;
  if (productId !== null && !(productId > 0)) return null;
  if (productId === null) {
    const { state } = await shopperAndState(request, context, locale);
    return { parts: fillPersonalTemplate(template, state, t), spliced: template.spliced };
  }
  const { state, product: personal } = await shopperStateAndProduct(request, context, locale, productId, template.product?.soldOut !== undefined);
  const recent = await recentRow(personal.recent, state, locale);
  return { parts: fillPersonalTemplate(template, state, t, { personal, recentHtml: recent.html, recentData: recent.data }), spliced: template.spliced };
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // The same detection as the root loader's, so the page and <html lang> always agree.
  const { locale } = detectLocale(request);
  // The whole page is rendered before its first byte: shoppers without JavaScript and search engines
  // get all of it, and the status code is final. Nothing in the shop suspends (no lazy parts, no
  // deferred data), so with the router's data read first it renders in one synchronous pass, as
  // strings: React's streaming renderer spent about a sixth of a page's CPU turning its many small
  // chunks into bytes (docs/decisions/162).
  await handOffDataBeforeRendering(routerContext);
  const html = renderToString(
    <NonceProvider value={nonce}>
      {inLanguage(
        locale,
        <FragmentsContext.Provider value={fragmentsFor(locale)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </FragmentsContext.Provider>,
      )}
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const bytes = pageBytesWithoutScriptPreloads(DOCTYPE, html);
  if (!loadContext.renderedPage) return new Response(bytes, { headers: responseHeaders, status: responseStatusCode });
  loadContext.renderedPage.bytes = bytes;
  return new Response(null, { headers: responseHeaders, status: responseStatusCode });
}

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
