import type { RequestHandler } from "express";
import helmet from "helmet";
import { createHash } from "node:crypto";

/**
 * The headers every answer carries. The Content-Security-Policy is not among them: it names the
 * page's own inline scripts, so the page sets it once rendered (pageSecurityPolicy).
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: false,
    // Same-origin only; images and scripts never come from elsewhere.
    crossOriginEmbedderPolicy: false,
    // The browser default: our own pages still see where a form came from (the Origin check falls back on it).
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * A strict policy for a rendered page: scripts run only from our origin, or inline when they are the
 * very scripts the page was rendered with (their SHA-256 hashes). Unlike a nonce, a hash stays right
 * when nginx or a CDN sends the same page to many visitors: markup slipped into the page cannot run.
 */
export function pageSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(([, body]) => `'sha256-${createHash("sha256").update(body).digest("base64")}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${[...new Set(hashes)].join(" ")}`.trimEnd(),
    "style-src 'self'",
    // Style attributes only (positions of sliders and carousels), never style elements.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}
