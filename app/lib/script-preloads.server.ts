const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

/**
 * Drops the framework's script preload hints from the document's <head> (docs/decisions/013).
 * Without them, a slow connection spends its first bandwidth on the page, its style sheet and its
 * first pictures; the scripts are fetched as the page's module script asks for them, and hydrate the
 * already readable and usable page a little later. The rest of the document is kept as it is.
 */
export function withoutScriptPreloads(html: string): string {
  const end = html.indexOf("</head>");
  if (end === -1) return html;
  return html.slice(0, end).replace(MODULE_PRELOAD, "") + html.slice(end);
}
