import { data } from "react-router";
import type { z } from "zod";
import { bodyLimitFor, FORM_BODY_LIMIT, mediaType } from "./body-limit.server";
import { requestTranslator } from "~/http/language.server";

export { FORM_BODY_LIMIT };

/**
 * The one way an action reads its form (docs/decisions/070). Whatever arrives is treated as hostile:
 * - only the two form encodings are read (`application/x-www-form-urlencoded`, `multipart/form-data`);
 *   JSON, text/plain, no Content-Type or a broken multipart body is a 400 with a translated message;
 * - the body is capped while it streams: a declared Content-Length above the limit is refused before
 *   a byte is read, and the bytes that actually arrive are counted (a chunked body declares no length),
 *   so reading stops at the limit with a 413 and nothing larger is ever held in memory;
 * - every text field (and every field name) must be text (docs/decisions/212): no NUL or other control
 *   character (a tab or line break only in the fields of a textarea, MULTI_LINE_FIELDS), no lone
 *   surrogate, and no bytes that are not UTF-8. Anything else is a 400 with a translated message, so no
 *   route ever stores it or hands it to the database.
 */

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

// An oversized body is read and thrown away up to this much, so the browser sees our answer instead of
// a reset connection; beyond it the connection is closed.
const DISCARD_AT_MOST = 100 * 1024 * 1024;

export type BodyProblem = "notAForm" | "tooLarge" | "notText";

export const BODY_PROBLEM_STATUS: Record<BodyProblem, 400 | 413> = { notAForm: 400, tooLarge: 413, notText: 400 };
export const BODY_PROBLEM_KEY: Record<BodyProblem, string> = {
  notAForm: "common.error.badForm",
  tooLarge: "common.error.tooLarge",
  notText: "common.error.notText",
};

/**
 * The fields where a tab or a line break belongs: the names of the shop's textareas (a review's body, a
 * product's description, an order's status note). app/http/form.server.test.ts checks the list against
 * the forms.
 */
export const MULTI_LINE_FIELDS: ReadonlySet<string> = new Set(["body", "description", "note", "message"]);

// C0 controls, DEL and C1 controls; a multi-line field may hold tab, line feed and carriage return
// (a browser sends a textarea's line breaks as CR LF).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const REPLACEMENT = "\ufffd";
const REPLACEMENT_BYTES = Buffer.from(REPLACEMENT, "utf8");

function replacementsIn(text: string): number {
  return text.split(REPLACEMENT).length - 1;
}

function replacementsInBytes(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(REPLACEMENT_BYTES); at !== -1; at = bytes.indexOf(REPLACEMENT_BYTES, at + REPLACEMENT_BYTES.length)) count++;
  return count;
}

/** The bytes of a urlencoded body with its %XX escapes turned back into the bytes they stand for. */
function percentDecoded(body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(body.length);
  let length = 0;
  const hex = (byte: number) => (byte >= 48 && byte <= 57 ? byte - 48 : byte >= 65 && byte <= 70 ? byte - 55 : byte >= 97 && byte <= 102 ? byte - 87 : -1);
  for (let i = 0; i < body.length; i++) {
    const high = body[i] === 37 && i + 2 < body.length ? hex(body[i + 1]) : -1;
    const low = high === -1 ? -1 : hex(body[i + 2]);
    if (low === -1) {
      out[length++] = body[i];
    } else {
      out[length++] = high * 16 + low;
      i += 2;
    }
  }
  return out.subarray(0, length);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function isUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether every field name and text value of a form read from `body` is text. Bytes that are not UTF-8
 * are turned into U+FFFD by the parser: a urlencoded body is checked byte for byte; in a multipart body
 * (whose files are not text) a field holding more U+FFFD than the body carries as real characters came
 * from such bytes.
 */
function isAllText(form: FormData, body: Buffer, multipart: boolean): boolean {
  let replacements = 0;
  for (const [name, value] of form) {
    if (CONTROL.test(name) || LONE_SURROGATE.test(name)) return false;
    replacements += replacementsIn(name);
    if (typeof value !== "string") continue;
    if ((MULTI_LINE_FIELDS.has(name) ? CONTROL_BUT_LINES : CONTROL).test(value) || LONE_SURROGATE.test(value)) return false;
    replacements += replacementsIn(value);
  }
  if (!multipart) return isUtf8(percentDecoded(body));
  return replacements === 0 || replacements <= replacementsInBytes(body);
}

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let read = alreadyRead;
  try {
    while (read <= DISCARD_AT_MOST) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to discard.
  }
}

/**
 * The request's form, or why it cannot be one. Never throws; never holds more than maxBytes of body
 * (by default the route's limit: the upload limit for a multipart post to the product form, else
 * FORM_BODY_LIMIT).
 */
export async function readFormBody(
  request: Request,
  { maxBytes = bodyLimitFor(new URL(request.url).pathname, request.headers.get("Content-Type")) }: { maxBytes?: number } = {},
): Promise<{ form: FormData; problem?: undefined } | { form?: undefined; problem: BodyProblem; limit: number }> {
  const reader = request.body?.getReader();
  const declared = request.headers.get("Content-Length");
  if (declared !== null && (!/^\d{1,15}$/.test(declared.trim()) || Number(declared) > maxBytes)) {
    if (reader) await discard(reader, 0);
    return { problem: /^\d{1,15}$/.test(declared.trim()) ? "tooLarge" : "notAForm", limit: maxBytes };
  }
  const type = request.headers.get("Content-Type");
  if (!FORM_TYPES.has(mediaType(type))) {
    if (reader) await discard(reader, 0);
    return { problem: "notAForm", limit: maxBytes };
  }
  const chunks: Uint8Array[] = [];
  if (reader) {
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > maxBytes) {
          await discard(reader, total);
          return { problem: "tooLarge", limit: maxBytes };
        }
        chunks.push(value);
      }
    } catch {
      // The client went away mid-body.
      return { problem: "notAForm", limit: maxBytes };
    }
  }
  const body = Buffer.concat(chunks);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "Content-Type": type! } }).formData();
  } catch {
    return { problem: "notAForm", limit: maxBytes };
  }
  if (!isAllText(form, body, mediaType(type) === "multipart/form-data")) return { problem: "notText", limit: maxBytes };
  return { form };
}

/** What an action throws for a body it cannot accept: the status and a message in the shopper's language. */
export function bodyRefusal(request: Request, problem: BodyProblem) {
  const t = requestTranslator(request);
  const status = BODY_PROBLEM_STATUS[problem];
  return data(
    { message: t(BODY_PROBLEM_KEY[problem]) },
    { status, statusText: status === 413 ? "Payload Too Large" : "Bad Request", headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * For a loader that searches with what is in its address (a GET form, like the shop's search): every
 * name and value of the query must be text, with no control character at all (a URL has no multi-line
 * field); else the translated 400 of a form that is not text. A NUL would be an error on PostgreSQL.
 */
export function requireTextQuery(request: Request): void {
  for (const [name, value] of new URL(request.url).searchParams) {
    if (CONTROL.test(name) || CONTROL.test(value) || LONE_SURROGATE.test(name) || LONE_SURROGATE.test(value)) throw bodyRefusal(request, "notText");
  }
}

/**
 * The request's form; a body that is not a form (400), too large (413) or not text (400) is thrown as a
 * translated refusal.
 */
export async function readForm(request: Request, options: { maxBytes?: number } = {}): Promise<FormData> {
  const read = await readFormBody(request, options);
  if (read.problem) throw bodyRefusal(request, read.problem);
  return read.form;
}

/** One text value per named field; a missing field, or a file where text belongs, is "". */
export function textFields<K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) {
    const value = form.get(name);
    out[name] = typeof value === "string" ? value : "";
  }
  return out;
}

/** The first message of each field of a failed parse (messages are translation keys). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** What an action answers when a form cannot be accepted: messages by field ("form" for the whole form). */
export interface FormFailure {
  errors: Record<string, string>;
  /** what the shopper typed (never passwords), to fill the form again */
  values: Record<string, string>;
  /** for "too many attempts": minutes until the next try */
  retryAfterMinutes?: number;
}

export function formFailure(status: number, errors: Record<string, string>, values: Record<string, string> = {}) {
  return data<FormFailure>({ errors, values }, { status });
}

/** HTTP 429 with the translated "too many attempts" message and a Retry-After header. */
export function tooManyAttempts(retryAfterSeconds: number, values: Record<string, string> = {}) {
  return data<FormFailure>(
    { errors: { form: "auth.errors.tooManyAttempts" }, values, retryAfterMinutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)) },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/**
 * A route's `headers` for forms that can answer 429: React Router sends only the headers a route passes
 * on, so without this the action's Retry-After would be dropped. Every route whose action can call
 * tooManyAttempts exports it (app/lib/retry-after.test.ts checks).
 */
export function passOnRetryAfter({ actionHeaders }: { actionHeaders: Headers }): Record<string, string> {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}
