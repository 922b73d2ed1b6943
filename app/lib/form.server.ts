import { data } from "react-router";
import type { z } from "zod";
import { bodyLimitFor, FORM_BODY_LIMIT, mediaType } from "./body-limit.server";
import { requestTranslator } from "./i18n.server";

export { FORM_BODY_LIMIT };

/**
 * The one way an action reads its form (docs/decisions/070). Whatever arrives is treated as hostile:
 * - only the two form encodings are read (`application/x-www-form-urlencoded`, `multipart/form-data`);
 *   JSON, text/plain, no Content-Type or a broken multipart body is a 400 with a translated message;
 * - the body is capped while it streams: a declared Content-Length above the limit is refused before
 *   a byte is read, and the bytes that actually arrive are counted (a chunked body declares no length),
 *   so reading stops at the limit with a 413 and nothing larger is ever held in memory.
 */

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

// An oversized body is read and thrown away up to this much, so the browser sees our answer instead of
// a reset connection; beyond it the connection is closed.
const DISCARD_AT_MOST = 100 * 1024 * 1024;

export type BodyProblem = "notAForm" | "tooLarge";

export const BODY_PROBLEM_STATUS: Record<BodyProblem, 400 | 413> = { notAForm: 400, tooLarge: 413 };
export const BODY_PROBLEM_KEY: Record<BodyProblem, string> = { notAForm: "common.error.badForm", tooLarge: "common.error.tooLarge" };

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
  try {
    return { form: await new Response(Buffer.concat(chunks), { headers: { "Content-Type": type! } }).formData() };
  } catch {
    return { problem: "notAForm", limit: maxBytes };
  }
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

/** The request's form; a body that is not a form (400) or too large (413) is thrown as a translated refusal. */
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
