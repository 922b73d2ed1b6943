import zlib from "node:zlib";

/**
 * A page compressed whole at once, on whichever thread rendered it: the main thread's page cache
 * (page-cache.server.ts) and the render thread (render-thread.ts) compress by the same rules.
 */

/** How a page is compressed whole: brotli at a quality, or gzip at a level. */
export interface WholeCompression {
  encoding: "br" | "gzip";
  level: number;
}

/** Too small to be worth compressing (the compression middleware's own threshold). */
const COMPRESS_FROM_BYTES = 1024;

/** Whether an answer of `length` bytes with these headers is compressed before it is sent. */
export function isCompressible(headers: Headers, length: number): boolean {
  return length >= COMPRESS_FROM_BYTES && !headers.has("content-encoding") && !/\bno-transform\b/.test(headers.get("cache-control") ?? "");
}

/** Brotli's options for compressing `page` whole at `quality`, its size told so the encoder sizes itself to it. */
export function brotliAt(quality: number, page: Buffer): zlib.BrotliOptions {
  return { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.length } };
}

/** `page` compressed as `how` says. */
export function compressPage(page: Buffer, how: WholeCompression): Buffer {
  return how.encoding === "br" ? zlib.brotliCompressSync(page, brotliAt(how.level, page)) : zlib.gzipSync(page, { level: how.level });
}
