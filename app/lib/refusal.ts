import { isRouteErrorResponse } from "react-router";

/**
 * The message of a request refused with a 4xx that carries one, already in the shopper's language
 * (the form reader's 400 and 413: app/http/form.server.ts); null for anything else.
 */
export function refusalMessage(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || error.status < 400 || error.status >= 500) return null;
  const body = error.data as { message?: unknown } | null;
  return body && typeof body === "object" && typeof body.message === "string" ? body.message : null;
}
