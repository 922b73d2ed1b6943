const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

/**
 * `prefix` and the rendered page without the framework's script preload hints in its <head>
 * (docs/decisions/013), as UTF-8 bytes. Without them, a slow connection spends its first bandwidth on
 * the page, its style sheet and its first pictures; the scripts are fetched as the page's module
 * script asks for them, and hydrate the already readable and usable page a little later. The page is
 * flattened into one string once (React hands it over in many pieces), and its body is encoded
 * straight from that string: joining the edited head and the body into a new string first copied a
 * page's worth of characters again for every render (docs/decisions/162).
 */
export function pageBytesWithoutScriptPreloads(prefix: string, html: string): Buffer<ArrayBuffer> {
  const end = html.indexOf("</head>");
  const head = prefix + (end === -1 ? html : html.slice(0, end).replace(MODULE_PRELOAD, ""));
  const body = end === -1 ? "" : html.slice(end);
  const headBytes = Buffer.byteLength(head);
  // Not zero-filled first: every byte is written just below.
  const bytes = Buffer.allocUnsafeSlow(headBytes + Buffer.byteLength(body));
  bytes.write(head, 0);
  bytes.write(body, headBytes);
  return bytes;
}
