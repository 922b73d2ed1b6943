import type { NextFunction, Request, Response } from "express";
import fs from "node:fs";
import path from "node:path";

/**
 * Serves the build's fingerprinted scripts and styles from the brotli and gzip copies written at
 * build time (vite.config.ts), so they are compressed once, at the best ratio, instead of on every
 * request. Anything without a copy, or a client that accepts neither, falls through to express.static.
 */
export function precompressedAssets(dir: string, maxAgeSeconds: number) {
  const available = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  return function servePrecompressed(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = path.basename(req.path);
    if (name !== req.path.slice(1)) return next();
    const accepts = req.get("accept-encoding") ?? "";
    const encoding = /\bbr\b/.test(accepts) && available.has(`${name}.br`) ? "br" : /\bgzip\b/.test(accepts) && available.has(`${name}.gz`) ? "gzip" : null;
    if (!encoding) return next();
    res.type(path.extname(name));
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
    res.sendFile(`${name}.${encoding === "br" ? "br" : "gz"}`, { root: dir, maxAge: maxAgeSeconds * 1000, immutable: true }, (error) => {
      if (error) next(error);
    });
  };
}
