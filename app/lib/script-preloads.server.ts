import { Transform } from "node:stream";

const HEAD_END = Buffer.from("</head>");
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

/**
 * Drops the framework's script preload hints from the document's <head> (docs/decisions/013).
 * Without them, a slow connection spends its first bandwidth on the page, its style sheet and its
 * first pictures; the scripts are fetched as the page's module script asks for them, and hydrate the
 * already readable and usable page a little later. The rest of the document streams through untouched.
 */
export function withoutScriptPreloads(): Transform {
  let head: Buffer[] = [];
  let done = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      head.push(chunk);
      const all = Buffer.concat(head);
      const end = all.indexOf(HEAD_END);
      if (end === -1) {
        head = [all];
        return callback();
      }
      done = true;
      const rewritten = all.subarray(0, end).toString("utf8").replace(MODULE_PRELOAD, "");
      callback(null, Buffer.concat([Buffer.from(rewritten), all.subarray(end)]));
    },
    flush(callback) {
      callback(null, done ? undefined : Buffer.concat(head));
    },
  });
}
