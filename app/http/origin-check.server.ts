import type { RequestHandler } from "express";
import { logSecurityEvent } from "../platform/security-log.server";

/**
 * Cross-site request check for every request that can change something: the browser's Origin header
 * (or, when a browser sends none, the Referer) must be the shop's own origin. Returns true when allowed.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string | undefined): string | null {
  if (!value || value === "null") return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

export function isSameOriginRequest(input: {
  method: string;
  origin?: string;
  referer?: string;
  /** the Host header of the request and the protocol it arrived with */
  host?: string;
  protocol: string;
  publicUrl: string;
}): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return true;
  const claimed = originOf(input.origin) ?? originOf(input.referer);
  if (!claimed) return false;
  const own = new Set([new URL(input.publicUrl).origin]);
  if (input.host) own.add(`${input.protocol}://${input.host}`);
  return own.has(claimed);
}

/** The requests that may come from elsewhere: the providers' signed webhooks (Paystack, WhatsApp, Termii), nothing else. */
export function isWebhook(method: string, path: string): boolean {
  return method.toUpperCase() === "POST" && (path === "/webhooks/paystack" || path === "/webhooks/whatsapp" || path === "/webhooks/termii");
}

/** The page a refused request came from, without its query (which could carry a token). */
function refererWithoutQuery(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`.slice(0, 200);
  } catch {
    return "(not a URL)";
  }
}

/**
 * Express middleware for the whole app: a request that can change something and does not come from
 * our own pages gets 403 before any route sees it.
 */
export function refuseCrossSiteRequests(publicUrl: string): RequestHandler {
  return (req, res, next) => {
    // Paystack's webhook comes from Paystack, not from our pages; it proves itself by its signature.
    if (isWebhook(req.method, req.path)) return next();
    const allowed = isSameOriginRequest({
      method: req.method,
      origin: req.get("origin"),
      referer: req.get("referer"),
      host: req.get("host"),
      protocol: req.protocol,
      publicUrl,
    });
    if (allowed) return next();
    logSecurityEvent("cross_site_refused", {
      method: req.method,
      path: req.path,
      origin: req.get("origin")?.slice(0, 200),
      referer: refererWithoutQuery(req.get("referer")),
      ip: req.ip,
    });
    res.status(403).type("text/plain").send("Cross-site request refused.");
  };
}
