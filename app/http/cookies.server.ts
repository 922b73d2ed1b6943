import type { IncomingMessage } from "node:http";
import { LOCALE_COOKIE, pickLocale } from "../lib/locale-detect";
import type { Locale } from "../lib/i18n";

/** Reads one cookie from a request; undefined when absent or malformed. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The language of a request the HTTP server answers itself, before the app (a refusal): ?lng=, the
 * language cookie, then Accept-Language, as the app decides.
 */
export function localeOfNodeRequest(req: IncomingMessage): Locale {
  const url = req.url ?? "";
  const queryAt = url.indexOf("?");
  return pickLocale({
    query: queryAt === -1 ? null : new URLSearchParams(url.slice(queryAt + 1)).get("lng"),
    cookie: readCookie(new Request("http://localhost/", { headers: { Cookie: req.headers.cookie ?? "" } }), LOCALE_COOKIE),
    acceptLanguage: req.headers["accept-language"],
  }).locale;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  httpOnly?: boolean;
  secure?: boolean;
}

/** A Set-Cookie value, always Path=/ and SameSite=Lax. maxAgeSeconds 0 deletes the cookie. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
