import type { RequestHandler, Response as ExpressResponse } from "express";
import helmet from "helmet";
import { randomBytes } from "node:crypto";

export interface SecurityHeaders {
  /** Express middleware: sets the headers on every answer, the policy's nonce from `res.locals.cspNonce` */
  middleware: RequestHandler;
  /** the same headers for a page answered before Express (a kept page: docs/decisions/188), as name, value pairs */
  forNonce(nonce: string): [string, string][];
}

/**
 * A fresh nonce for an answer's Content-Security-Policy: lets the framework's inline scripts run under
 * a strict policy.
 */
export function freshNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The headers every answer carries. In production a strict Content-Security-Policy: scripts run only
 * from our origin or with the response's nonce (the framework's inline scripts).
 */
export function securityHeaders(production: boolean): SecurityHeaders {
  const middleware = helmet({
    contentSecurityPolicy: production
      ? {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as ExpressResponse).locals.cspNonce}'`],
            styleSrc: ["'self'"],
            // Style attributes only (positions of sliders and carousels), never style elements.
            styleSrcAttr: ["'unsafe-inline'"],
            imgSrc: ["'self'", "data:"],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
            baseUri: ["'self'"],
            objectSrc: ["'none'"],
          },
        }
      : false,
    // Same-origin only; images and scripts never come from elsewhere.
    crossOriginEmbedderPolicy: false,
    // The browser default: our own pages still see where a form came from (the Origin check falls back on it).
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  return {
    middleware,
    forNonce(nonce) {
      // Helmet only sets and removes headers on the answer, at once: it is run on a stand-in answer.
      const headers = new Map<string, [string, string]>();
      const answer = {
        locals: { cspNonce: nonce },
        setHeader(name: string, value: string | number) {
          headers.set(name.toLowerCase(), [name, String(value)]);
        },
        removeHeader(name: string) {
          headers.delete(name.toLowerCase());
        },
      };
      let done = false;
      middleware({} as never, answer as never, () => (done = true));
      if (!done) throw new Error("the security headers did not finish at once");
      return [...headers.values()];
    },
  };
}
