import type { RequestHandler } from "express";

/** Every form the shop has fits in far less; a larger body is refused before anything reads it. */
export const FORM_BODY_LIMIT = 256 * 1024;

// Product photos are the one large upload; that route counts its own bytes within 5 MB and says so
// next to the field (app/lib/uploads.server.ts).
const OWN_LIMIT = /^\/admin\/products(\/|$)/;

/** 413 for a declared body above FORM_BODY_LIMIT on any request that can carry one. */
export function refuseLargeBodies(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || OWN_LIMIT.test(req.path)) return next();
    const declared = req.get("content-length");
    if (declared === undefined || (/^\d{1,15}$/.test(declared) && Number(declared) <= FORM_BODY_LIMIT)) return next();
    res.status(413).type("text/plain").send("Request too large.");
  };
}
