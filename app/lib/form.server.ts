import { data } from "react-router";
import type { z } from "zod";

/** The request's form; a body that is not a form counts as an empty one (answered with 400, never 500). */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
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
